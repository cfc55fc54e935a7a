//! The command-line contract: parse, robots check, plugins, exit codes.

use crate::common;

use std::io::Write;

use common::{jsonl, wellknown};

fn temp_file(content: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(content).unwrap();
    f
}

#[test]
fn parse_robots_prints_one_report() {
    let f = temp_file(b"User-agent: *\nDisallow: /admin/\nSitemap: https://a.example/s.xml\n");
    let out = wellknown(&["parse", "robots", f.path().to_str().unwrap(), "--url", "https://a.example/robots.txt"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["probe"], "robots");
    assert_eq!(v["url"], "https://a.example/robots.txt");
    assert_eq!(v["kind"], "robots");
    assert_eq!(v["valid"], true);
    assert!(v["errors"].as_array().unwrap().is_empty());
    let cands = v["candidates"].as_array().unwrap();
    assert!(
        cands
            .iter()
            .any(|c| c["kind"] == "url" && c["value"] == "https://a.example/admin/" && c["locator"]["line"] == 2)
    );
    assert!(cands.iter().any(|c| c["kind"] == "sitemap" && c["value"] == "https://a.example/s.xml"));
}

#[test]
fn robots_check_prints_a_line_per_url() {
    let f = temp_file(b"User-agent: FooBot\nDisallow: /private\nAllow: /private/ok\n");
    let out = wellknown(&[
        "robots",
        "check",
        f.path().to_str().unwrap(),
        "--agent",
        "FooBot",
        "--robots-url",
        "https://a.example/robots.txt",
        "https://a.example/private/x",
        "https://a.example/private/ok",
        "http://a.example/private/x",
    ]);
    let lines = jsonl(&out.stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["allowed"], false);
    assert_eq!(lines[0]["applies"], true);
    assert_eq!(lines[0]["rule"]["line"], 2);
    assert_eq!(lines[0]["rule"]["directive"], "disallow");
    assert_eq!(lines[0]["rule"]["pattern"], "/private");
    assert_eq!(lines[1]["allowed"], true);
    assert_eq!(lines[1]["rule"]["line"], 3);
    assert_eq!(lines[2]["applies"], false, "other scheme is another origin");
    assert_eq!(out.status.code(), Some(1), "a disallowed URL makes the exit code 1");
    assert_eq!(lines[0]["token"], "FooBot");
    let bad = wellknown(&["robots", "check", f.path().to_str().unwrap(), "--agent", "FooBot", "not a url"]);
    assert_eq!(bad.status.code(), Some(2));
    let line = &jsonl(&bad.stdout)[0];
    assert_eq!(line["allowed"], serde_json::Value::Null);
    assert!(line["error"].is_string());
}

#[test]
fn robots_check_with_a_file_elsewhere_than_robots_txt_governs_nothing() {
    // RFC 9309 2.3: only /robots.txt at the top level, all lower case, is an origin's robots.txt.
    let f = temp_file(b"User-agent: *\nDisallow: /\n");
    for robots_url in ["https://a.example/folder/robots.txt", "https://a.example/Robots.txt"] {
        let file = f.path().to_str().unwrap();
        let args =
            ["robots", "check", file, "--agent", "FooBot", "--robots-url", robots_url, "https://a.example/x", "/y"];
        let out = wellknown(&args);
        let lines = jsonl(&out.stdout);
        assert_eq!(lines.len(), 2);
        for line in &lines {
            assert_eq!(line["applies"], false, "{line}");
            assert_eq!(line["allowed"], true, "{line}");
            assert_eq!(line["rule"], serde_json::Value::Null);
            let reason = line["reason"].as_str().unwrap_or_default();
            assert!(reason.starts_with(robots_url) && reason.contains("governs nothing"), "{reason}");
        }
        assert_eq!(out.status.code(), Some(0), "nothing is disallowed: exit 0");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("is not the top-level /robots.txt of its origin"), "{stderr}");
    }
    // The same file at /robots.txt disallows both: exit 1, no warning, no reason.
    let out = wellknown(&[
        "robots",
        "check",
        f.path().to_str().unwrap(),
        "--agent",
        "FooBot",
        "--robots-url",
        "https://a.example/robots.txt",
        "https://a.example/x",
        "/y",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(jsonl(&out.stdout).iter().all(|l| l["applies"] == true && l.get("reason").is_none()));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn plugins_lists_every_probe_with_registry_status() {
    let out = wellknown(&["plugins", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let lines = jsonl(&out.stdout);
    let ids: Vec<&str> = lines.iter().filter_map(|l| l["id"].as_str()).collect();
    assert_eq!(ids, wellknown::plugins_linked::EXPECTED_PROBES);
    let aasa = lines.iter().find(|l| l["id"] == "apple-app-site-association").unwrap();
    assert_eq!(aasa["registry"], "not registered");
    let sec = lines.iter().find(|l| l["id"] == "security.txt").unwrap();
    assert_eq!(sec["registry"], "permanent");
    let text = wellknown(&["plugins"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("not registered"));
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let out = wellknown(&["scan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no targets"));
    let out = wellknown(&["scan", "mailto:x@y.example"]);
    assert_eq!(out.status.code(), Some(2));
    let out = wellknown(&["parse", "nope", "/dev/null", "--url", "https://a.example/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown probe"));
    let out = wellknown(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let out = wellknown(&["scan", "--scope", "bad scope", "a.example"]);
    assert_eq!(out.status.code(), Some(2));
    for plan_option in [["--scope", "a.example"], ["--probe", "robots"], ["--depth", "0"]] {
        let mut args = vec!["scan", "--resume"];
        args.extend(plan_option);
        let out = wellknown(&args);
        assert_eq!(out.status.code(), Some(2), "{plan_option:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot be used with"), "{plan_option:?}: {err}");
    }
    let out = wellknown(&["scan", "--no-store", "ftp://a.example"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "refused before scanning");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("scheme \"ftp\" is not scanned") && err.contains("https://a.example"), "{err}");
}

#[test]
fn config_file_and_environment_are_read_and_flags_win() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wellknown.toml"), "concurrency = 'many'\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(["scan", "a.example"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("concurrency"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.path().join("wellknown.toml"), "unknown_key = 1\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(["scan", "a.example"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown_key"));
}

/// A bad target read from `--list FILE` or standard input is named with where it was read
/// (`FILE:LINE` or `stdin:LINE`, lines counted with comments and blank ones) and as written; exit 2,
/// before anything is requested or stored. A bad argument has no prefix.
#[test]
fn a_bad_listed_target_names_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("hosts.txt"), "a.example\n# a comment\n\n  https://[::1  \nb.example\n").unwrap();
    let out = common::wellknown_in(d, &["scan", "--list", "hosts.txt"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("wellknown: error: hosts.txt:4: target \"https://[::1\": not a URL or host name"), "{err}");
    assert!(out.stdout.is_empty(), "refused before scanning");
    assert!(!d.join("wellknown.db").exists(), "refused before the store is created");

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(["scan", "a.example", "-"])
        .current_dir(d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"b.example\r\nftp://c.example\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("wellknown: error: stdin:2: target \"ftp://c.example\": scheme \"ftp\" is not scanned"),
        "{err}"
    );
    assert!(!d.join("wellknown.db").exists());

    let out = common::wellknown_in(d, &["scan", "--no-store", "https://[::1"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("wellknown: error: target \"https://[::1\": "), "{err}");
}

/// The help block of `flag` in a `--help` text, its lines joined by single spaces.
fn help_of(help: &str, flag: &str) -> String {
    let named = |l: &str| {
        let l = l.trim_start();
        l.starts_with(&format!("{flag} ")) || (l.starts_with('-') && l.contains(&format!(", {flag} ")))
    };
    let mut lines = help.lines().skip_while(|l| !named(l));
    let first = lines.next().unwrap_or_else(|| panic!("{flag} not in help:\n{help}"));
    let mut block = vec![first.trim().to_string()];
    block.extend(
        lines.take_while(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty()).map(|l| l.trim().into()),
    );
    block.join(" ")
}

/// `wellknown scan --help` shows the default of every setting, and the defaults shown are the ones
/// in force (`Settings::default()`).
#[test]
fn scan_help_shows_every_default() {
    let out = wellknown(&["scan", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    let d = wellknown::config::Settings::default();
    let ua = format!("`{}`", wellknown_http::DEFAULT_USER_AGENT.replace(env!("CARGO_PKG_VERSION"), "VERSION"));
    let cases: [(&str, String); 22] = [
        ("--concurrency", d.concurrency.to_string()),
        ("--origin-budget", d.origin_budget.to_string()),
        ("--max-follow-ups", d.max_follow_ups.to_string()),
        ("--max-candidates", d.max_candidates.to_string()),
        ("--max-revealed-per-document", d.max_revealed_per_document.to_string()),
        ("--max-revealed", d.max_revealed.to_string()),
        ("--max-vhost-tries", d.max_vhost_tries.to_string()),
        ("--min-rate", d.min_rate.to_string()),
        ("--slow-grace", d.slow_grace.to_string()),
        ("--per-host", d.per_host.to_string()),
        ("--rate", d.rate.to_string()),
        ("--connect-timeout", d.connect_timeout.to_string()),
        ("--timeout", d.timeout.to_string()),
        ("--max-hops", d.max_hops.to_string()),
        ("--max-verify", d.max_verify.to_string()),
        ("--depth", d.depth.to_string()),
        ("--user-agent", ua),
        ("--db", format!("./{}", wellknown::config::DEFAULT_DB)),
        ("--config", "./wellknown.toml, if present".into()),
        ("--scope", "the registrable domains of the targets".into()),
        ("--probe", "every registered probe".into()),
        ("--output", "standard output".into()),
    ];
    for (flag, value) in cases {
        let block = help_of(&help, flag);
        assert!(block.contains(&format!("[default: {value}]")), "{flag}: {block}");
    }
    for (cmd, flag, value) in
        [("diff", "--format", "text"), ("candidates", "--format", "lines"), ("graph", "--format", "jsonl")]
    {
        let help = String::from_utf8(wellknown(&[cmd, "--help"]).stdout).unwrap();
        assert!(help_of(&help, flag).contains(&format!("[default: {value}]")), "{cmd} {flag}");
        assert!(help_of(&help, "--db").contains("[default: ./wellknown.db]"), "{cmd}");
    }
}
