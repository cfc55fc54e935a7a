//! End to end: scans are addressable (`wellknown scans`, `scan --resume SCAN_ID`, the default being
//! the most recent unfinished scan whatever finished after it), a new scan names the unfinished
//! ones it leaves behind, `diff` compares finished scans by default and marks an unfinished one,
//! one process at a time runs a scan (the lease), and messages match the mode (no resume hint
//! without a store).

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{jsonl, own_server, routing_args_for, scan_in, wellknown_in};
use wellknown_store::{Lease, SqliteStore, Store};
use wellknown_tests::{FixtureServer, fixture_sites};

/// Records a scan of `target` (robots only, depth 0, no verification) that never ran: unfinished,
/// its one unit pending, as a killed scan leaves it. Returns its id.
fn unfinished_scan(db: &Path, target: &str) -> i64 {
    let settings = wellknown::config::Settings {
        probes: vec!["robots".into()],
        depth: 0,
        verify: false,
        ..wellknown::config::Settings::default()
    };
    let origin = wellknown_core::Origin::parse_target(target).unwrap();
    let plan = wellknown::plan::StoredPlan::new(std::slice::from_ref(&origin), &settings).unwrap();
    let seeds = [wellknown_records::Unit::origin(origin)];
    let mut store = SqliteStore::open(db).unwrap();
    let plan = serde_json::to_value(&plan).unwrap();
    store.begin_scan(wellknown_core::Timestamp::now(), &plan, &wellknown_store::ingest::seed_rows(&seeds)).unwrap()
}

/// `wellknown scan ARGS` in `dir` against `server`; (exit code, stderr, records).
fn run_scan(dir: &Path, server: &FixtureServer, args: &[&str]) -> (i32, String, Vec<serde_json::Value>) {
    let (code, records, stderr) = scan_in(dir, server, args);
    (code, stderr, records)
}

fn finished(db: &Path) -> Vec<(i64, bool)> {
    let mut s = SqliteStore::open_read_only(db).unwrap();
    s.scans().unwrap().into_iter().map(|r| (r.id, r.finished_at.is_some())).collect()
}

#[test]
fn an_unfinished_scan_is_listed_named_by_new_scans_and_resumed_after_later_ones_finished() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("wellknown.db");
    let killed = unfinished_scan(&db, "https://internet.nl");
    assert_eq!(killed, 1);

    // A new scan says, in one line, that scan 1 is unfinished and how to finish it.
    let quick = ["--depth", "0", "--no-verify", "--probe", "robots", "https://history.test"];
    let (code, stderr, _) = run_scan(d, &server, &quick);
    assert_eq!(code, 0, "{stderr}");
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("unfinished")).collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(notes[0].starts_with("wellknown: note: scan 1 of wellknown.db (started "), "{stderr}");
    assert!(notes[0].contains("0 unit(s) done, 1 pending") && notes[0].contains("`wellknown scan --resume 1`"));
    let (code, stderr, _) = run_scan(d, &server, &quick);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(finished(&db), [(1, false), (2, true), (3, true)]);

    // `wellknown scans` lists them.
    let out = wellknown_in(d, &["scans", "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = jsonl(&out.stdout);
    let summary: Vec<(i64, &str, i64, i64, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["id"].as_i64().unwrap(),
                r["state"].as_str().unwrap(),
                r["units"]["done"].as_i64().unwrap(),
                r["units"]["pending"].as_i64().unwrap(),
                r["targets"][0].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, "unfinished", 0, 1, "https://internet.nl"),
            (2, "finished", 1, 0, "https://history.test"),
            (3, "finished", 1, 0, "https://history.test")
        ]
    );
    assert!(rows[0]["finished_at"].is_null() && rows[1]["finished_at"].is_string());
    let text = String::from_utf8(wellknown_in(d, &["scans"]).stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("ID  STARTED"), "{text}");
    assert!(
        lines[1].starts_with("1 ") && lines[1].contains(" unfinished ") && lines[1].ends_with("https://internet.nl")
    );
    assert!(lines[2].starts_with("2 ") && lines[2].contains(" finished 20"), "{text}");

    // diff: by default the two most recent finished scans, quietly; an unfinished one named by id
    // is marked on standard error.
    let default = wellknown_in(d, &["diff", "--format", "jsonl"]);
    let explicit = wellknown_in(d, &["diff", "2", "3", "--format", "jsonl"]);
    assert_eq!(default.stdout, explicit.stdout);
    assert_eq!(default.status.code(), Some(1), "the same scan twice: nothing changed");
    assert!(default.stderr.is_empty(), "{}", String::from_utf8_lossy(&default.stderr));
    let marked = wellknown_in(d, &["diff", "1", "3"]);
    let err = String::from_utf8_lossy(&marked.stderr);
    assert_eq!(marked.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("wellknown: note: scan 1 (started ") && err.contains("is unfinished"), "{err}");
    assert!(err.contains("`wellknown scan --resume 1`"), "{err}");

    // --resume takes scan 1, although later scans finished.
    let (code, stderr, records) = run_scan(d, &server, &["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(common::document(&records, "https://internet.nl/robots.txt").is_some(), "{records:?}");
    assert_eq!(finished(&db), [(1, true), (2, true), (3, true)], "resumed in place");
    let (code, stderr, _) = run_scan(d, &server, &["--resume"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("nothing to resume: every scan in wellknown.db finished"), "{stderr}");
}

#[test]
fn resume_takes_the_scan_named_by_its_id() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("wellknown.db");
    unfinished_scan(&db, "https://internet.nl");
    unfinished_scan(&db, "https://history.test");
    // Scan 1, not the most recent (2).
    let (code, stderr, records) = run_scan(d, &server, &["--resume", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let origins: Vec<&str> =
        records.iter().filter(|r| r["type"] == "origin").filter_map(|r| r["origin"].as_str()).collect();
    assert_eq!(origins, ["https://internet.nl"]);
    assert_eq!(finished(&db), [(1, true), (2, false)]);
    for (args, needle) in [
        (&["--resume", "1"][..], "scan 1 of wellknown.db finished at "),
        (&["--resume", "7"], "no scan 7 in wellknown.db (`wellknown scans` lists them)"),
    ] {
        let (code, stderr, records) = run_scan(d, &server, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(records.is_empty());
    }
    let out = wellknown_in(d, &["scan", "--resume", "0"]);
    assert_eq!(out.status.code(), Some(2), "ids start at 1");
    // The default is now scan 2.
    let (code, stderr, _) = run_scan(d, &server, &["--resume"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(finished(&db), [(1, true), (2, true)]);
}

/// Puts `lease` on scan `scan` of `db`.
fn lease_scan(db: &Path, scan: i64, lease: &Lease) {
    let mut s = SqliteStore::open(db).unwrap();
    let now = wellknown_core::Timestamp::now();
    assert_eq!(s.acquire_lease(scan, lease, now, &|_| true).unwrap(), wellknown_store::Acquired::Held);
}

fn lease(pid: u32, host: &str, expires_in: i64) -> Lease {
    let now = wellknown_core::Timestamp::now();
    Lease {
        holder: format!("{pid}@{host}/test"),
        pid,
        host: host.into(),
        acquired_at: now,
        expires_at: now.checked_add(jiff::SignedDuration::from_secs(expires_in)).unwrap(),
    }
}

/// A scan a running process holds is not resumed by another (exit 2, naming the holder), with or
/// without its id; a lease whose process is gone, or that expired, is taken over.
#[test]
fn a_scan_held_by_a_running_process_is_not_resumed_twice() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("wellknown.db");
    let scan = unfinished_scan(&db, "https://internet.nl");
    let host = wellknown::scan_lease::host_name();
    // Held by this test process: running, on this host.
    lease_scan(&db, scan, &lease(std::process::id(), &host, 600));
    for args in [&["--resume"][..], &["--resume", "1"]] {
        let (code, stderr, records) = run_scan(d, &server, args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        let want = format!(
            "scan 1 of wellknown.db is being run by another wellknown (process {} on {host}",
            std::process::id()
        );
        assert!(stderr.contains(&want), "{args:?}: {stderr}");
        assert!(stderr.contains("`wellknown scan --resume 1`"), "{stderr}");
        assert!(records.is_empty());
    }
    assert!(server.requests().is_empty(), "nothing requested");
    let out = wellknown_in(d, &["scans", "--format", "jsonl"]);
    let rows = jsonl(&out.stdout);
    assert_eq!((&rows[0]["state"], &rows[0]["running"]["pid"]), (&"running".into(), &std::process::id().into()));
    // A new scan does not call a running scan unfinished.
    let (code, stderr, _) =
        run_scan(d, &server, &["--depth", "0", "--no-verify", "--probe", "robots", "https://history.test"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("unfinished"), "{stderr}");

    // Its process gone (a child that has exited): resumed at once.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    lease_scan(&db, scan, &lease(dead, &host, 600));
    let (code, stderr, _) = run_scan(d, &server, &["--resume", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let mut s = SqliteStore::open_read_only(&db).unwrap();
    assert!(s.scans().unwrap()[0].finished_at.is_some());
    assert_eq!(s.leases().unwrap(), [], "released at the end");

    // On another host, held until it expires.
    let scan = unfinished_scan(&db, "https://internet.nl");
    lease_scan(&db, scan, &lease(1, "elsewhere.invalid", 600));
    let (code, stderr, _) = run_scan(d, &server, &["--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("process 1 on elsewhere.invalid"), "{stderr}");
    lease_scan(&db, scan, &lease(1, "elsewhere.invalid", -1));
    let (code, stderr, _) = run_scan(d, &server, &["--resume"]);
    assert_eq!(code, 0, "an expired lease is taken over: {stderr}");
}

/// Two `scan --resume` at once: the second is refused while the first runs, and the first
/// finishes the scan.
#[test]
fn a_second_resume_of_a_running_scan_is_refused() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("wellknown.db");
    // stall.test holds its robots.txt for 5 s: the first resume is still running when the second starts.
    unfinished_scan(&db, "https://stall.test");
    let mut args: Vec<String> = vec!["scan".into(), "--resume".into()];
    args.extend(routing_args_for(&server));
    let first = Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(d)
        .env_remove("WELLKNOWN_DB")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while SqliteStore::open_read_only(&db).and_then(|mut s| s.leases()).map_or(true, |l| l.is_empty()) {
        assert!(started.elapsed() < Duration::from_secs(60), "the first resume never took the lease");
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, stderr, records) = run_scan(d, &server, &["--resume"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(&format!("is being run by another wellknown (process {} on ", first.id())), "{stderr}");
    assert!(records.is_empty());
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let robots = server.requests().iter().filter(|r| r.host == "stall.test" && r.path == "/robots.txt").count();
    assert_eq!(robots, 1, "requested once");
    assert_eq!(finished(&db), [(1, true)]);
}

/// Ctrl-C during a scan without a store: no `--resume` hint (there is nothing to resume); with the
/// store, the hint names the scan.
#[test]
fn an_interrupted_scan_without_a_store_suggests_no_resume() {
    let dir = tempfile::tempdir().unwrap();
    for store in [&["--no-store"][..], &[]] {
        let mut args: Vec<String> = vec!["scan".into()];
        args.extend(common::routing_args());
        args.extend(store.iter().map(|s| s.to_string()));
        args.extend(["--no-verify", "https://stall.test"].map(String::from));
        let child = Command::new(env!("CARGO_BIN_EXE_wellknown"))
            .args(&args)
            .current_dir(dir.path())
            .env_remove("WELLKNOWN_DB")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        assert!(Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap().success());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{store:?}: {stderr}");
        if store.is_empty() {
            assert!(stderr.contains("`wellknown scan --resume 1` finishes the scan"), "{stderr}");
        } else {
            assert!(!stderr.contains("--resume"), "{stderr}");
            assert!(stderr.contains("no store (--no-store): nothing to resume"), "{stderr}");
            assert!(!dir.path().join("wellknown.db").exists());
        }
    }
}
