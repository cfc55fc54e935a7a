//! End to end: a scan killed with SIGKILL mid-run, then `scan --resume`, stores the same graph and
//! inventory as an uninterrupted scan, the resumed run does not repeat the origins finished before the
//! kill, and a unit it runs again reports the inventory the killed run had recorded for it.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{graph, jsonl, own_server, requests_to, routing_args_for, scan_in, wellknown_in};
use serde_json::Value;
use wellknown_store::{SqliteStore, Store, UnitState};
use wellknown_tests::fixture_sites;

/// One unit at a time, so the order is the target order. resume-reveal.test's robots.txt reveals
/// two origins (one in scope, one out of scope), then its security.txt stalls 5 s and times out after
/// 2, which leaves time to kill the scan while that unit is in flight, its inventory already stored.
const ARGS: [&str; 11] = [
    "--rate",
    "0",
    "--concurrency",
    "1",
    "--timeout",
    "2",
    "https://verify.test",
    "https://feedback.test",
    "https://resume-reveal.test",
    "https://history.test",
    "https://5calls.org",
];

/// (finished units, whether resume-reveal.test's out-of-scope origin is recorded) in scan 1.
fn progress(db: &Path) -> (usize, bool) {
    let Ok(mut store) = SqliteStore::open_existing(db) else { return (0, false) };
    let units = store.units(1).unwrap_or_default();
    let done = units.iter().filter(|u| u.state == UnitState::Done).count();
    (done, units.iter().any(|u| u.value == ELSEWHERE && u.state == UnitState::OutOfScope))
}

/// The origins resume-reveal.test's robots.txt reveals.
const ELSEWHERE: &str = "https://cdn.resume-elsewhere.test";
const MAPS: &str = "https://maps.resume-reveal.test";

/// The store's inventory of scan 1: every unit with its depth, state, scope and revealer.
fn stored_units(db: &Path) -> BTreeSet<String> {
    let mut store = SqliteStore::open_existing(db).unwrap();
    store
        .units(1)
        .unwrap()
        .into_iter()
        .map(|u| {
            format!(
                "{} {} depth={} {:?} in_scope={} by={:?}",
                u.kind.as_str(),
                u.value,
                u.depth,
                u.state,
                u.in_scope,
                u.revealed_by
            )
        })
        .collect()
}

/// An inventory record without its position: what it reports.
fn inventory(records: &[Value]) -> BTreeSet<String> {
    records
        .iter()
        .filter(|r| r["type"] == "inventory")
        .map(|r| {
            format!(
                "{} {} depth={} by={} {}={} in_scope={} {}",
                r["unit"],
                r["value"],
                r["depth"],
                r["revealed_by"],
                r["candidate_kind"],
                r["candidate_value"],
                r["in_scope"],
                r["action"]
            )
        })
        .collect()
}

#[test]
fn a_killed_scan_resumed_equals_an_uninterrupted_scan() {
    // Uninterrupted.
    let whole = own_server(&fixture_sites());
    let dir_whole = tempfile::tempdir().unwrap();
    let (code, whole_records, stderr) = scan_in(dir_whole.path(), &whole, &ARGS);
    assert!(code <= 1, "{stderr}");
    let expected = graph(dir_whole.path(), None);
    let expected_units = stored_units(&dir_whole.path().join("wellknown.db"));
    assert!(expected_units.iter().any(|u| u.contains(ELSEWHERE) && u.contains("OutOfScope")), "{expected_units:#?}");
    assert!(expected.iter().any(|l| l.contains("robots_sitemap")), "{expected:#?}");

    // Killed after two units, while the third is in flight.
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wellknown.db");
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args_for(&server));
    args.extend(ARGS.iter().map(|s| s.to_string()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(dir.path())
        .env_remove("WELLKNOWN_DB")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while progress(&db) != (2, true) {
        assert!(started.elapsed() < Duration::from_secs(60), "the scan never reached resume-reveal.test's stall");
        assert!(child.try_wait().unwrap().is_none(), "the scan ended before it could be killed");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let mut store = SqliteStore::open_existing(&db).unwrap();
    let interrupted = store.last_unfinished_scan().unwrap().expect("the killed scan is unfinished");
    let units = store.units(interrupted.id).unwrap();
    let done: Vec<&str> = units.iter().filter(|u| u.state == UnitState::Done).map(|u| u.value.as_str()).collect();
    assert!(done.contains(&"https://verify.test") && done.contains(&"https://feedback.test"), "{done:?}");
    assert!(units.iter().any(|u| u.value == "https://history.test" && u.state == UnitState::Pending), "{units:?}");
    // resume-reveal.test was in flight; what it revealed is already recorded.
    assert!(units.iter().any(|u| u.value == "https://resume-reveal.test" && u.state == UnitState::Pending));
    assert!(units.iter().any(|u| u.value == MAPS && u.state == UnitState::Pending), "{units:?}");
    drop(store);
    let before_resume = requests_to(&server, "verify.test").len();

    // Resumed.
    let mut resume: Vec<String> = vec!["scan".into(), "--resume".into()];
    resume.extend(routing_args_for(&server));
    resume.extend(["--rate", "0", "--concurrency", "1", "--timeout", "2"].map(String::from));
    let refs: Vec<&str> = resume.iter().map(String::as_str).collect();
    let out = wellknown_in(dir.path(), &refs);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    let records = jsonl(&out.stdout);
    let resumed_units: Vec<&Value> = records.iter().filter(|r| r["type"] == "origin").collect();
    assert!(
        !resumed_units.iter().any(|o| o["origin"] == "https://verify.test" || o["origin"] == "https://feedback.test"),
        "finished origins are not scanned again: {resumed_units:?}"
    );
    assert!(resumed_units.iter().any(|o| o["origin"] == "https://history.test"));
    let robots_gets =
        |host: &str| requests_to(&server, host).iter().filter(|(m, p)| m == "GET" && p == "/robots.txt").count();
    assert_eq!(robots_gets("verify.test"), 1, "verify.test's robots.txt was fetched once, before the kill");
    assert_eq!(robots_gets("feedback.test"), 1);
    assert_eq!(robots_gets("history.test"), 1);
    assert!(requests_to(&server, "cdn.resume-elsewhere.test").is_empty(), "out of scope");
    assert_eq!(requests_to(&server, "verify.test").len(), before_resume, "nothing of verify.test again");
    let mut store = SqliteStore::open_existing(&db).unwrap();
    assert_eq!(store.last_unfinished_scan().unwrap(), None, "the resumed scan is finished");
    assert_eq!(store.scans().unwrap().len(), 1, "resumed in place, not a new scan");
    drop(store);

    let got = graph(dir.path(), None);
    let missing: Vec<&String> = expected.difference(&got).collect();
    let extra: Vec<&String> = got.difference(&expected).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nextra {extra:#?}");

    // The same inventory in the store.
    assert_eq!(stored_units(&db), expected_units);
    // And in the output: the units the resumed run finished report what they reveal, as they did in
    // the uninterrupted scan, even what the killed run had recorded already.
    let rerun: BTreeSet<&str> = resumed_units.iter().filter_map(|o| o["origin"].as_str()).collect();
    let whole_inventory: BTreeSet<String> = inventory(&whole_records)
        .into_iter()
        .filter(|i| rerun.iter().any(|u| i.contains(&format!("by=\"{u}\""))))
        .collect();
    let resumed_inventory = inventory(&records);
    assert!(
        whole_inventory.iter().any(|i| i.contains(ELSEWHERE) && i.ends_with("\"out_of_scope\"")),
        "{whole_inventory:#?}"
    );
    assert!(whole_inventory.iter().any(|i| i.contains(MAPS) && i.ends_with("\"queued\"")), "{whole_inventory:#?}");
    assert_eq!(resumed_inventory, whole_inventory);
    let summary = records.last().unwrap();
    assert_eq!(summary["revealed"], resumed_inventory.len(), "{summary}");

    // Nothing left to resume.
    let out = wellknown_in(dir.path(), &["scan", "--resume", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to resume"));
}

/// A store in `dir` holding one unfinished scan of internet.nl (robots only, depth 0, no
/// verification), none of its units done.
fn unfinished_store(dir: &Path) {
    let settings = wellknown::config::Settings {
        probes: vec!["robots".into()],
        depth: 0,
        verify: false,
        ..wellknown::config::Settings::default()
    };
    let origin = wellknown_core::Origin::parse_target("https://internet.nl").unwrap();
    let plan = wellknown::plan::StoredPlan::new(std::slice::from_ref(&origin), &settings).unwrap();
    let seeds = [wellknown_records::Unit::origin(origin)];
    let mut store = SqliteStore::open(&dir.join("wellknown.db")).unwrap();
    let plan = serde_json::to_value(&plan).unwrap();
    store.begin_scan(wellknown_core::Timestamp::now(), &plan, &wellknown_store::ingest::seed_rows(&seeds)).unwrap();
}

/// `wellknown scan --resume` in `dir` against the fixture server with `env` set.
fn resume_with(dir: &Path, env: &[(&str, &str)], extra: &[&str]) -> (i32, String, Vec<Value>) {
    let mut args: Vec<String> = vec!["scan".into(), "--resume".into()];
    args.extend(common::routing_args());
    args.extend(extra.iter().map(|s| s.to_string()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wellknown"));
    cmd.args(&args).current_dir(dir).stdin(Stdio::null());
    for (k, _) in std::env::vars_os() {
        if k.to_str().is_some_and(|k| k.to_ascii_uppercase().starts_with("WELLKNOWN_")) {
            cmd.env_remove(k);
        }
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned(), jsonl(&out.stdout))
}

/// Plan settings from the configuration file or the environment that differ from the stored plan
/// are refused with `--resume` as the flags are (naming the key or variable); the same values are
/// accepted. `--verify` is refused like `--no-verify`.
#[test]
fn resume_refuses_plan_settings_from_the_file_or_environment_that_differ_from_the_stored_plan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    unfinished_store(d);
    let toml = d.join("wellknown.toml");
    type Env<'a> = &'a [(&'a str, &'a str)];
    let cases: [(&str, Env, &str); 7] = [
        ("scope = [\"!internet.nl\"]\n", &[], "configuration file wellknown.toml: key `scope`"),
        ("probes = [\"security.txt\"]\n", &[], "configuration file wellknown.toml: key `probes`"),
        ("depth = 2\n", &[], "configuration file wellknown.toml: key `depth`"),
        ("verify = true\n", &[], "configuration file wellknown.toml: key `verify`"),
        ("", &[("WELLKNOWN_SCOPE", "[\"!internet.nl\"]")], "environment variable WELLKNOWN_SCOPE"),
        ("", &[("WELLKNOWN_PROBES", "[robots, security.txt]")], "environment variable WELLKNOWN_PROBES"),
        ("", &[("WELLKNOWN_ISSUER", "[https://internet.nl]")], "environment variable WELLKNOWN_ISSUER"),
    ];
    for (file, env, needle) in cases {
        std::fs::write(&toml, file).unwrap();
        let (code, err, records) = resume_with(d, env, &[]);
        assert_eq!(code, 2, "{file} {env:?}: {err}");
        assert!(err.contains(needle) && err.contains("--resume"), "{file} {env:?}: {err}");
        assert!(records.is_empty(), "refused before any request: {records:?}");
    }
    std::fs::write(&toml, "").unwrap();
    let (code, err, _) = resume_with(d, &[], &["--verify"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    // The stored values themselves (a configuration that always sets them) are fine.
    std::fs::write(&toml, "probes = [\"robots\"]\ndepth = 0\nverify = false\nmax_hops = 8\n").unwrap();
    let (code, err, records) = resume_with(d, &[("WELLKNOWN_OBEY_ROBOTS", "false")], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(common::document(&records, "https://internet.nl/robots.txt").is_some(), "{records:?}");
}
