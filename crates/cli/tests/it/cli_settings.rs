//! Settings validation: flag, environment and configuration-file values out of range or of the wrong
//! type are refused with exit 2 and a message naming the flag, variable or file key and the accepted
//! range; unknown `WELLKNOWN_*` variables are ignored with a warning.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `wellknown` in `dir` with `env` set (and no other `WELLKNOWN_*` variable).
fn run_env(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wellknown"));
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    for (k, _) in std::env::vars_os() {
        if k.to_str().is_some_and(|k| k.to_ascii_uppercase().starts_with("WELLKNOWN_")) {
            cmd.env_remove(k);
        }
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run wellknown")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A scan with `extra` that must be refused before any request: exit 2, stderr holding every
/// `needles` entry. The target does not exist, so nothing could be found anyway.
fn refused(dir: &Path, env: &[(&str, &str)], extra: &[&str], needles: &[&str]) {
    let mut args = vec!["scan", "--no-store"];
    args.extend_from_slice(extra);
    args.push("https://no-such-host.invalid");
    let out = run_env(dir, env, &args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?} {env:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?} {env:?}: {n:?} not in {err}");
    }
    assert!(out.stdout.is_empty(), "refused before any record: {}", String::from_utf8_lossy(&out.stdout));
    assert!(!err.contains("default."), "no figment profile path: {err}");
}

#[test]
fn out_of_range_flags_are_refused_with_the_flag_and_range() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let timeout = "from 0.001 to 3600 seconds";
    refused(d, &[], &["--timeout", "0"], &["--timeout", timeout, "got 0"]);
    refused(d, &[], &["--timeout", "-2"], &["--timeout", timeout]);
    refused(d, &[], &["--timeout", "nan"], &["--timeout", timeout]);
    refused(d, &[], &["--timeout", "1e-9"], &["--timeout", timeout, "got 1e-9"]);
    // Named as given, not as the float it reads as.
    refused(d, &[], &["--timeout", "1e309"], &["--timeout", timeout, "got 1e309"]);
    refused(d, &[], &["--timeout", "0.0009"], &["--timeout", timeout]);
    refused(d, &[], &["--connect-timeout", "0"], &["--connect-timeout", timeout]);
    refused(d, &[], &["--connect-timeout", "1e-4"], &["--connect-timeout", timeout]);
    refused(d, &[], &["--slow-grace", "0"], &["--slow-grace", timeout, "got 0"]);
    refused(d, &[], &["--min-rate", "-1"], &["--min-rate", "must be a whole number, 0 or more", "got -1"]);
    refused(d, &[("WELLKNOWN_MIN_RATE", "1.5")], &[], &["environment variable WELLKNOWN_MIN_RATE", "got 1.5"]);
    let rate = "0 (no spacing between requests) or from 0.001 to 1000000 requests per second";
    for bad in ["nan", "-1", "inf", "1e-9", "2000000"] {
        refused(d, &[], &["--rate", bad], &["--rate", rate]);
    }
    refused(d, &[], &["--per-host", "0"], &["--per-host", "from 1 to 100", "got 0"]);
    refused(d, &[], &["--per-host", "100000000000000000"], &["--per-host", "from 1 to 100"]);
    refused(d, &[], &["--concurrency", "0"], &["--concurrency", "from 1 to 10000", "got 0"]);
}

#[test]
fn negative_counts_are_values_checked_against_their_range() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (flag, range) in [
        ("--per-host", "from 1 to 100"),
        ("--concurrency", "from 1 to 10000"),
        ("--depth", "0 or more"),
        ("--max-hops", "0 or more"),
        ("--max-verify", "0 or more"),
    ] {
        let args = [flag, "-1"];
        let out = run_env(d, &[], &["scan", "--no-store", flag, "-1", "https://no-such-host.invalid"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag) && err.contains(range) && err.contains("got -1"), "{args:?}: {err}");
        assert!(!err.contains("-- -1"), "no tip to pass -1 as a target: {err}");
    }
    refused(d, &[], &["--per-host", "two"], &["--per-host", "from 1 to 100", "got two"]);
    refused(d, &[], &["--depth", "1.5"], &["--depth", "0 or more", "got 1.5"]);
}

#[test]
fn list_values_name_the_file_key_variable_or_flag_they_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let toml = d.join("wellknown.toml");
    let file = "configuration file wellknown.toml";
    for (text, needle) in [
        (
            "scope = [\"https://a.example/x\"]\n",
            format!("{file}: key `scope`: invalid scope rule \"https://a.example/x\": scope is per host"),
        ),
        ("scope = [\"!*.com\", \"\"]\n", format!("{file}: key `scope`: invalid scope rule \"\": empty rule")),
        ("issuer = [\"notaurl\"]\n", format!("{file}: key `issuer`: \"notaurl\": relative URL without a base")),
        ("resolve = [\"bad\"]\n", format!("{file}: key `resolve`: \"bad\": ")),
        ("connect_to = [\"bad\"]\n", format!("{file}: key `connect_to`: \"bad\": ")),
        ("output = \"\"\n", format!("{file}: key `output`: an empty path")),
        ("output = \"no-such-dir/x.jsonl\"\n", format!("{file}: key `output`: creating no-such-dir/x.jsonl: ")),
        ("db = \"\"\n", format!("{file}: key `db`: an empty path")),
        ("probes = [\"nope\"]\n", format!("{file}: key `probes`: \"nope\": no such probe (registered: ")),
        (
            "ca_cert = [\"/nonexistent.pem\"]\n",
            format!("{file}: key `ca_cert`: \"/nonexistent.pem\": cannot be read: "),
        ),
    ] {
        std::fs::write(&toml, text).unwrap();
        refused(d, &[], &[], &[&needle]);
    }
    std::fs::remove_file(&toml).unwrap();
    // Checked before the store is created or anything requested.
    let out = run_env(d, &[("WELLKNOWN_resolve", "[bad]")], &["scan", "https://no-such-host.invalid"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("environment variable WELLKNOWN_resolve: \"bad\": "), "{}", stderr(&out));
    assert!(!d.join("wellknown.db").exists(), "no store created");
    let out = run_env(d, &[("WELLKNOWN_CA_CERT", "[/nonexistent.pem]")], &["scan", "https://no-such-host.invalid"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("WELLKNOWN_CA_CERT: \"/nonexistent.pem\": cannot be read"), "{}", stderr(&out));
    assert!(!d.join("wellknown.db").exists(), "a missing CA file is refused before the store is created");
    refused(d, &[("WELLKNOWN_DB", "")], &[], &["environment variable WELLKNOWN_DB: an empty path"]);
    // A variable is named as written (names are matched without regard to case).
    refused(
        d,
        &[("WELLKNOWN_issuer", "[notaurl]")],
        &[],
        &["environment variable WELLKNOWN_issuer: \"notaurl\": relative URL without a base"],
    );
    refused(d, &[("WELLKNOWN_per_host", "0")], &[], &["environment variable WELLKNOWN_per_host must be from 1 to 100"]);
    refused(
        d,
        &[("Wellknown_Timeout", "fast")],
        &[],
        &["environment variable Wellknown_Timeout must be from 0.001 to 3600 seconds, got fast"],
    );
    refused(
        d,
        &[("WELLKNOWN_SCOPE", "[\"*\"]")],
        &[],
        &["environment variable WELLKNOWN_SCOPE: invalid scope rule \"*\": it would match every host"],
    );
    // Flags keep their short form.
    refused(d, &[], &["--issuer", "notaurl"], &["--issuer \"notaurl\": relative URL without a base"]);
    refused(d, &[], &["--resolve", "bad"], &["--resolve \"bad\": "]);
    refused(d, &[], &["--connect-to", "bad"], &["--connect-to \"bad\": "]);
    refused(d, &[], &["--scope", "*"], &["--scope: invalid scope rule \"*\""]);
    // (`-o ""` is refused by the argument parser itself: a value is required.)
}

#[test]
fn zero_rate_means_no_spacing_and_huge_depth_is_fine() {
    let (code, records, stderr) =
        common::scan(&["--rate", "0", "--depth", "4000000000", "--probe", "robots", "https://internet.nl"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(common::document(&records, "https://internet.nl/robots.txt").is_some());
}

#[test]
fn parse_status_must_be_an_http_status() {
    for bad in ["0", "99", "600"] {
        let out = common::wellknown(&[
            "parse",
            "robots",
            "/dev/null",
            "--url",
            "https://a.example/robots.txt",
            "--status",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "--status {bad}");
        let err = stderr(&out);
        assert!(err.contains("--status") && err.contains("100..=599"), "{err}");
    }
    let out = common::wellknown(&[
        "parse",
        "robots",
        "/dev/null",
        "--url",
        "https://a.example/robots.txt",
        "--status",
        "404",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn environment_values_are_validated_and_name_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    refused(
        d,
        &[("WELLKNOWN_RATE", "fast")],
        &[],
        &["environment variable WELLKNOWN_RATE must be 0 (no spacing between requests) or from 0.001", "got fast"],
    );
    refused(d, &[("WELLKNOWN_RATE", "-3")], &[], &["environment variable WELLKNOWN_RATE must be 0", "got -3"]);
    refused(
        d,
        &[("WELLKNOWN_TIMEOUT", "0")],
        &[],
        &["environment variable WELLKNOWN_TIMEOUT must be from 0.001 to 3600 seconds"],
    );
    refused(d, &[("WELLKNOWN_PER_HOST", "0")], &[], &["environment variable WELLKNOWN_PER_HOST must be from 1 to 100"]);
    // A flag wins over the environment, and is the one named.
    refused(d, &[("WELLKNOWN_TIMEOUT", "5")], &["--timeout", "0"], &["--timeout <SECS>': must be"]);
}

#[test]
fn unknown_environment_variables_are_ignored_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = vec!["scan".into(), "--no-store".into(), "--no-verify".into()];
    args.extend(common::routing_args());
    args.extend(["--probe", "robots", "https://internet.nl"].map(String::from));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_env(dir.path(), &[("WELLKNOWN_NOT_A_SETTING", "1"), ("WELLKNOWN_PER_HOST", "1")], &refs);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("warning: ignoring environment variable WELLKNOWN_NOT_A_SETTING"), "{err}");
    assert!(!err.contains("WELLKNOWN_PER_HOST"), "a known variable is no warning: {err}");
    assert!(!common::jsonl(&out.stdout).is_empty());
}

#[test]
fn configuration_file_keys_and_values_name_the_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let toml = d.join("wellknown.toml");
    std::fs::write(&toml, "per_host = 1\nconcurency = 3\n").unwrap();
    refused(
        d,
        &[],
        &[],
        &["configuration file wellknown.toml: unknown key `concurency`", "known keys:", "concurrency"],
    );
    std::fs::write(&toml, "rate = \"x\"\n").unwrap();
    refused(d, &[], &[], &["configuration file wellknown.toml: key `rate` must be 0 (no spacing", "got x"]);
    std::fs::write(&toml, "timeout = 0\n").unwrap();
    refused(d, &[], &[], &["configuration file wellknown.toml: key `timeout` must be from 0.001 to 3600 seconds"]);
    // --config names its file.
    let other = d.join("other.toml");
    std::fs::write(&other, "concurrency = 0\n").unwrap();
    let other_s = other.display().to_string();
    refused(
        d,
        &[],
        &["--config", &other_s],
        &[&format!("configuration file {other_s}: key `concurrency` must be from 1")],
    );
    // The environment overrides the file, and is the one named.
    std::fs::write(&toml, "timeout = 5\n").unwrap();
    refused(d, &[("WELLKNOWN_TIMEOUT", "0")], &[], &["environment variable WELLKNOWN_TIMEOUT must be"]);
}

/// Numbers from the configuration file and the environment are judged as the command line judges
/// them, before serde's type check could turn them away: the message names the file key or the
/// variable as written, the value as given and the accepted range.
#[test]
fn file_and_environment_numbers_are_told_their_range_as_flags_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let toml = d.join("wellknown.toml");
    let file = "configuration file wellknown.toml";
    let count32 = "must be a whole number, 0 or more (at most 4294967295)";
    let rate = "must be 0 (no spacing between requests) or from 0.001 to 1000000 requests per second";
    for (text, needle) in [
        ("per_host = -1\n", format!("{file}: key `per_host` must be from 1 to 100, got -1")),
        ("per_host = 1.5\n", format!("{file}: key `per_host` must be from 1 to 100, got 1.5")),
        ("per_host = \"two\"\n", format!("{file}: key `per_host` must be from 1 to 100, got two")),
        ("concurrency = 100000\n", format!("{file}: key `concurrency` must be from 1 to 10000, got 100000")),
        ("depth = 100000000000\n", format!("{file}: key `depth` {count32}, got 100000000000")),
        ("depth = 2.0\n", format!("{file}: key `depth` {count32}, got 2.0")),
        ("max_hops = -2\n", format!("{file}: key `max_hops` {count32}, got -2")),
        ("max_verify = -1\n", format!("{file}: key `max_verify` must be a whole number, 0 or more")),
        ("timeout = -1\n", format!("{file}: key `timeout` must be from 0.001 to 3600 seconds, got -1")),
        ("rate = [1]\n", format!("{file}: key `rate` {rate}, got a list")),
    ] {
        std::fs::write(&toml, text).unwrap();
        refused(d, &[], &[], &[&needle]);
    }
    std::fs::remove_file(&toml).unwrap();
    for (var, value, needle) in [
        (
            "WELLKNOWN_per_host",
            "-1",
            "environment variable WELLKNOWN_per_host must be from 1 to 100, got -1".to_string(),
        ),
        (
            "WELLKNOWN_DEPTH",
            "100000000000",
            format!("environment variable WELLKNOWN_DEPTH {count32}, got 100000000000"),
        ),
        ("WELLKNOWN_MAX_HOPS", "many", format!("environment variable WELLKNOWN_MAX_HOPS {count32}, got many")),
        ("WELLKNOWN_MAX_VERIFY", "[1]", "environment variable WELLKNOWN_MAX_VERIFY must be a whole number".to_string()),
        (
            "WELLKNOWN_CONNECT_TIMEOUT",
            "1e309",
            "environment variable WELLKNOWN_CONNECT_TIMEOUT must be from 0.001 to 3600 seconds, got 1e309".to_string(),
        ),
    ] {
        refused(d, &[(var, value)], &[], &[&needle]);
    }
    // The same value as a flag gives the same words.
    refused(d, &[], &["--per-host", "-1"], &["must be from 1 to 100, got -1"]);
    refused(d, &[], &["--depth", "100000000000"], &[&format!("{count32}, got 100000000000")]);
}

/// Values within range from the file and the environment are taken as they are.
#[test]
fn file_and_environment_numbers_in_range_are_used() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("wellknown.toml"),
        "per_host = 1\nconcurrency = 2\nrate = 0\ntimeout = 20\nconnect_timeout = 5.5\nmax_verify = 0\nmax_hops = 0\n",
    )
    .unwrap();
    let mut args: Vec<String> = vec!["scan".into(), "--no-store".into(), "--verify".into()];
    args.extend(common::routing_args());
    args.extend(["--probe", "robots", "https://internet.nl"].map(String::from));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_env(dir.path(), &[("WELLKNOWN_DEPTH", "0")], &refs);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let records = common::jsonl(&out.stdout);
    assert!(common::document(&records, "https://internet.nl/robots.txt").is_some());
    // max_verify = 0: every candidate is skipped, none verified.
    let origin = records.iter().find(|r| r["type"] == "origin").expect("origin record");
    assert_eq!(origin["verified"], 0, "{origin}");
}

/// A list variable also takes one value without brackets; those of `scope`, `probes` and
/// `connect_to` also values separated by commas. Any other (`resolve`: `HOST:PORT:ADDR1,ADDR2`,
/// an issuer URL, a `ca_cert` file name) and a text in the configuration file are one entry.
#[test]
fn a_list_variable_takes_one_value_or_values_separated_by_commas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scope = "environment variable WELLKNOWN_SCOPE: invalid scope rule";
    // Judged as a rule (too wide here), not refused as "expected a sequence".
    refused(d, &[("WELLKNOWN_SCOPE", "0.0.0.0/1")], &[], &[&format!("{scope} \"0.0.0.0/1\": an IPv4 inclusion block")]);
    refused(d, &[("WELLKNOWN_SCOPE", "10.0.0.0/8, 0.0.0.0/1")], &[], &[&format!("{scope} \"0.0.0.0/1\"")]);
    refused(d, &[("WELLKNOWN_SCOPE", "a.example,,b.example")], &[], &[&format!("{scope} \"\": empty rule")]);
    refused(
        d,
        &[("WELLKNOWN_PROBES", "robots, nope")],
        &[],
        &["environment variable WELLKNOWN_PROBES: \"nope\": no such probe"],
    );
    // The configuration file's text is one entry: no split.
    std::fs::write(d.join("wellknown.toml"), "probes = \"robots,nope\"\n").unwrap();
    refused(d, &[], &[], &["configuration file wellknown.toml: key `probes`: \"robots,nope\": no such probe"]);
    std::fs::write(d.join("wellknown.toml"), "ca_cert = \"/nonexistent/a,b.pem\"\n").unwrap();
    refused(
        d,
        &[],
        &[],
        &["configuration file wellknown.toml: key `ca_cert`: \"/nonexistent/a,b.pem\": cannot be read"],
    );
    std::fs::write(d.join("wellknown.toml"), "issuer = \"https://idp.example/t,1?x\"\n").unwrap();
    refused(
        d,
        &[],
        &[],
        &[
            "configuration file wellknown.toml: key `issuer`: \"https://idp.example/t,1?x\": an issuer identifier has no query",
        ],
    );
    std::fs::remove_file(d.join("wellknown.toml")).unwrap();
    // Nor are the variables of URL- and path-valued settings.
    refused(
        d,
        &[("WELLKNOWN_CA_CERT", "/nonexistent/a,b.pem")],
        &[],
        &["environment variable WELLKNOWN_CA_CERT: \"/nonexistent/a,b.pem\": cannot be read"],
    );
    refused(
        d,
        &[("WELLKNOWN_ISSUER", "https://idp.example/t,1?x")],
        &[],
        &["environment variable WELLKNOWN_ISSUER: \"https://idp.example/t,1?x\": an issuer identifier has no query"],
    );
    // resolve is read whole: the error is connect_to's, checked after it.
    refused(
        d,
        &[("WELLKNOWN_RESOLVE", "a.example:443:127.0.0.1,::1"), ("WELLKNOWN_CONNECT_TO", "bad")],
        &[],
        &["environment variable WELLKNOWN_CONNECT_TO: \"bad\": "],
    );

    let mut args: Vec<String> = vec!["scan".into(), "--no-store".into(), "--no-verify".into()];
    args.extend(common::routing_args());
    args.push("https://internet.nl".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let env =
        [("WELLKNOWN_PROBES", "robots,security.txt"), ("WELLKNOWN_SCOPE", "internet.nl"), ("WELLKNOWN_DEPTH", "0")];
    let out = run_env(d, &env, &refs);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let mut probes: Vec<String> = common::of_type(&common::jsonl(&out.stdout), "document")
        .iter()
        .filter_map(|r| r["probe"].as_str().map(str::to_string))
        .collect();
    probes.sort();
    probes.dedup();
    assert_eq!(probes, ["robots", "security.txt"]);
}

/// A User-Agent that is empty or holds characters a header value cannot (CR, LF and other
/// controls) is refused naming the flag, key or variable, rather than silently replaced.
#[test]
fn an_invalid_user_agent_is_refused_naming_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let why = "not a valid User-Agent";
    refused(d, &[], &["--user-agent", "bad\r\nX-Injected: 1"], &["--user-agent", why, "\\r\\n"]);
    refused(d, &[], &["--user-agent", ""], &["--user-agent", "empty"]);
    refused(d, &[], &["--user-agent", "   "], &["--user-agent", "empty"]);
    refused(d, &[], &["--user-agent", "bot\u{7f}"], &["--user-agent", why]);
    refused(d, &[("WELLKNOWN_USER_AGENT", "a\u{1}b")], &[], &["environment variable WELLKNOWN_USER_AGENT", why]);
    std::fs::write(d.join("wellknown.toml"), "user_agent = \"\"\n").unwrap();
    refused(d, &[], &[], &["configuration file wellknown.toml: key `user_agent`", "empty"]);
    std::fs::write(d.join("wellknown.toml"), "user_agent = \"x\\ny\"\n").unwrap();
    refused(d, &[], &[], &["configuration file wellknown.toml: key `user_agent`", why]);
}
