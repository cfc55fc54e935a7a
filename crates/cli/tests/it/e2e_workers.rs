//! End to end, shared scans: `scan --db postgres://… --workers-only` records a scan of the fixture
//! origins; three `wellknown work` processes run it, one is killed with SIGKILL while it holds a
//! lease, and the two others finish the scan; its graph equals a single-process SQLite scan's of the
//! same targets. The server comes from `WELLKNOWN_TEST_PG` (`wellknown_store_postgres::testing`).

use crate::common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{graph, own_server, routing_args_for, scan_in, wellknown_in};
use wellknown_store::Store;
use wellknown_store_postgres::testing;
use wellknown_tests::fixture_sites;

/// resume-reveal.test's security.txt stalls 5 s and times out after 2: a unit that holds its
/// worker's lease long enough to kill the worker.
const TARGETS: [&str; 5] = [
    "https://resume-reveal.test",
    "https://verify.test",
    "https://feedback.test",
    "https://history.test",
    "https://5calls.org",
];

fn worker(dir: &std::path::Path, routing: &[String], url: &str) -> Child {
    worker_with(dir, routing, url, &["--concurrency", "1"])
}

fn worker_with(dir: &std::path::Path, routing: &[String], url: &str, extra: &[&str]) -> Child {
    let mut args: Vec<String> = vec!["work".into(), "--db".into(), url.into()];
    args.extend(routing.iter().cloned());
    args.extend(["--rate", "0", "--timeout", "2", "--quiet"].map(String::from));
    args.extend(extra.iter().map(|s| s.to_string()));
    Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(dir)
        .env_remove("WELLKNOWN_DB")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `scan --db URL --workers-only` of `args` (options, then targets) with the fixture routing;
/// returns its standard error, after checking it exited 0.
fn record(dir: &std::path::Path, routing: &[String], url: &str, args: &[&str]) -> String {
    let mut all: Vec<&str> = vec!["scan", "--db", url, "--workers-only"];
    all.extend(routing.iter().map(String::as_str));
    all.extend_from_slice(args);
    let out = wellknown_in(dir, &all);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

/// A scan of `args` (options, then targets) recorded for workers in a fresh test database, with
/// the fixture server its workers reach and their routing; None without a test server (outside CI).
struct Recorded {
    db: testing::TestDb,
    url: String,
    server: wellknown_tests::FixtureServer,
    routing: Vec<String>,
    dir: tempfile::TempDir,
}

fn recorded(args: &[&str]) -> Option<Recorded> {
    let pg = testing::server()?;
    let db = pg.migrated_db();
    let url = db.worker_url();
    let server = own_server(&fixture_sites());
    let routing = routing_args_for(&server);
    let dir = tempfile::tempdir().unwrap();
    record(dir.path(), &routing, &url, args);
    Some(Recorded { db, url, server, routing, dir })
}

/// Waits for `w` to end (at most two minutes) and returns its exit code and standard error.
fn finish(mut w: Child) -> (Option<i32>, String) {
    let started = Instant::now();
    let status = loop {
        if let Some(s) = w.try_wait().unwrap() {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "a worker never finished");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(w.stderr.as_mut().unwrap(), &mut err).unwrap();
    (status.code(), err)
}

/// Hosts that share registrable domains (ou7line.com, wikipedia.org, feedback.test), so groups hold
/// several origins, beside others; resume-reveal.test stalls, so one worker holds its group a while.
const SHARED: [&str; 11] = [
    "https://ou7line.com",
    "https://ae.ou7line.com",
    "https://fr.ou7line.com",
    "https://en.wikipedia.org",
    "https://test.wikipedia.org",
    "https://thankyou.wikipedia.org",
    "https://feedback.test",
    "https://resume-reveal.test",
    "https://verify.test",
    "https://history.test",
    "https://5calls.org",
];

#[test]
fn workers_never_request_one_host_at_the_same_time() {
    let Some(Recorded { db, url, server, routing, dir }) = recorded(&SHARED) else { return };

    // Each worker says who it is in its User-Agent, which the fixture server logs with the time
    // each request arrived and was answered.
    let agents: Vec<String> = (0..3).map(|i| format!("wellknown-politeness-worker-{i}")).collect();
    let workers: Vec<Child> = agents
        .iter()
        .map(|ua| worker_with(dir.path(), &routing, &url, &["--concurrency", "4", "--user-agent", ua]))
        .collect();
    for w in workers {
        let (code, err) = finish(w);
        assert_eq!(code, Some(0), "{err}");
    }
    let log = server.requests();
    let by: std::collections::BTreeSet<&str> = log.iter().map(|r| r.user_agent.as_str()).collect();
    assert!(by.len() >= 2, "the work was shared: {by:?}");
    assert!(by.iter().all(|ua| agents.iter().any(|a| ua.contains(a.as_str()))), "{by:?}");
    let mut overlaps = Vec::new();
    for (i, a) in log.iter().enumerate() {
        for b in &log[i + 1..] {
            let apart = a.answered <= b.received || b.answered <= a.received;
            if a.host == b.host && a.user_agent != b.user_agent && !apart {
                overlaps.push(format!(
                    "{} {}{} ({}) and {}{} ({})",
                    a.host, a.method, a.path, a.user_agent, b.method, b.path, b.user_agent
                ));
            }
        }
    }
    assert!(overlaps.is_empty(), "two workers requested one host at once: {overlaps:#?}");
    let finished = db.owner_store().scans().unwrap();
    assert!(finished[0].finished_at.is_some());
}

#[test]
fn three_workers_one_killed_mid_lease_store_what_one_process_stores() {
    let Some(pg) = testing::server() else { return };
    let db = pg.migrated_db();
    let url = db.worker_url();

    let single = tempfile::tempdir().unwrap();
    let mut args = vec!["--rate", "0", "--timeout", "2"];
    args.extend(TARGETS);
    let (code, _, stderr) = scan_in(single.path(), &own_server(&fixture_sites()), &args);
    assert!(code <= 1, "{stderr}");
    let expected = graph(single.path(), None);

    let server = own_server(&fixture_sites());
    let routing = routing_args_for(&server);
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--rate", "0", "--timeout", "2"];
    args.extend(TARGETS);
    let stderr = record(dir.path(), &routing, &url, &args);
    assert!(stderr.contains("recorded with 5 unit(s)") && stderr.contains("wellknown work --db"), "{stderr}");
    assert!(server.requests().is_empty(), "--workers-only requests nothing");

    let mut workers: Vec<Child> = (0..3).map(|_| worker(dir.path(), &routing, &url)).collect();
    // Kill the first worker seen holding a lease.
    let mut store = db.owner_store();
    let started = Instant::now();
    let victim = loop {
        assert!(started.elapsed() < Duration::from_secs(60), "no worker ever held a lease");
        let held: Vec<String> = store.progress().unwrap().into_iter().flat_map(|p| p.leased).map(|(h, _)| h).collect();
        if let Some(i) = workers.iter().position(|w| held.iter().any(|h| h.starts_with(&format!("{}@", w.id())))) {
            break i;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let during = wellknown_in(dir.path(), &["scans", "--db", &url]);
    let text = String::from_utf8_lossy(&during.stdout);
    assert!(text.contains(&format!(" by {}@", workers[victim].id())), "scans names the worker holding units: {text}");
    let mut killed = workers.remove(victim);
    killed.kill().unwrap(); // SIGKILL
    killed.wait().unwrap();
    for w in workers {
        let (code, err) = finish(w);
        assert_eq!(code, Some(0), "{err}");
    }
    let scans = store.scans().unwrap();
    assert_eq!(scans.len(), 1);
    assert!(scans[0].finished_at.is_some(), "the last worker finished the scan");
    let p = &store.progress().unwrap()[0];
    assert_eq!((p.pending, p.failed, p.leased.len()), (0, 0, 0), "{p:?}");
    assert!(p.done >= 5, "{p:?}");

    let after = wellknown_in(dir.path(), &["scans", "--db", &url, "--format", "jsonl"]);
    let line: serde_json::Value = serde_json::from_slice(&after.stdout).unwrap();
    assert_eq!(line["shared"]["pending"], 0, "{line}");
    assert_eq!(line["shared"]["leased"], serde_json::json!([]), "{line}");
    assert_eq!(line["shared"]["done"], p.done, "{line}");
    assert_eq!(line["state"], "finished", "{line}");

    let got = graph(dir.path(), Some(&url));
    let missing: Vec<&String> = expected.difference(&got).collect();
    let extra: Vec<&String> = got.difference(&expected).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nextra {extra:#?}");
}

#[test]
fn workers_reconnect_when_the_server_restarts_mid_scan_and_lose_nothing() {
    let Some(server) = wellknown_store_postgres::private_server::PrivateServer::start() else { return };
    let single = tempfile::tempdir().unwrap();
    let mut args = vec!["--rate", "0", "--timeout", "2"];
    args.extend(SHARED);
    let (code, _, stderr) = scan_in(single.path(), &own_server(&fixture_sites()), &args);
    assert!(code <= 1, "{stderr}");
    let expected = graph(single.path(), None);

    let mut admin = wellknown_store_postgres::PostgresStore::connect(&server.url("postgres")).unwrap();
    admin.client().batch_execute("CREATE DATABASE shared").unwrap();
    let url = server.url("shared");
    let sites = own_server(&fixture_sites());
    let routing = routing_args_for(&sites);
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--rate", "0", "--timeout", "2"];
    args.extend(SHARED);
    record(dir.path(), &routing, &url, &args);

    let workers: Vec<Child> = (0..2).map(|_| worker(dir.path(), &routing, &url)).collect();
    // Restart once some unit is done and another is leased: writes, heartbeats and leases are all
    // under way when every session is cut.
    let mut store = wellknown_store_postgres::PostgresStore::connect(&url).unwrap();
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < Duration::from_secs(60), "the workers never got going");
        let p = store.progress().unwrap();
        if p.first().is_some_and(|p| p.done >= 1 && !p.leased.is_empty()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(store);
    server.restart();
    for w in workers {
        let (code, err) = finish(w);
        assert_eq!(code, Some(0), "a worker did not come through the restart: {err}");
    }
    let mut store = wellknown_store_postgres::PostgresStore::connect(&url).unwrap();
    assert!(store.scans().unwrap()[0].finished_at.is_some(), "the scan finished");
    let p = &store.progress().unwrap()[0];
    assert_eq!((p.pending, p.failed, p.leased.len()), (0, 0, 0), "{p:?}");
    let got = graph(dir.path(), Some(&url));
    let missing: Vec<&String> = expected.difference(&got).collect();
    let extra: Vec<&String> = got.difference(&expected).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nextra {extra:#?}");
}

/// A worker's slots never take each other's groups: while one slot waits on stall.test (its
/// robots.txt answers after 5 s) the other, idle, keeps asking for work and looks for the leases of
/// dead processes of this host; the first slot's lease is not one of them, so stall.test's
/// robots.txt is asked once.
#[test]
fn an_idle_slot_never_takes_over_its_own_workers_group() {
    let Some(Recorded { db, url, server, routing, dir }) = recorded(&["--timeout", "8", "https://stall.test"]) else {
        return;
    };
    let (code, err) = finish(worker_with(dir.path(), &routing, &url, &["--concurrency", "2", "--timeout", "8"]));
    assert_eq!(code, Some(0), "{err}");
    let asked: Vec<String> = server
        .requests()
        .iter()
        .filter(|r| r.host == "stall.test" && r.path == "/robots.txt")
        .map(|r| r.user_agent.clone())
        .collect();
    assert_eq!(asked.len(), 1, "robots.txt of stall.test asked once: {asked:?}");
    let p = &db.owner_store().progress().unwrap()[0];
    assert_eq!((p.done, p.failed, p.pending), (1, 0, 0), "{p:?}");
}

/// A worker interrupted (SIGINT) while its slots hold groups exits 130 and leaves no lease behind:
/// its groups, run or not, are released (none waits for its lease to expire), and the next worker
/// finishes the scan at once.
#[test]
fn an_interrupted_worker_releases_every_group_it_leased() {
    let Some(Recorded { db, url, server: _server, routing, dir }) = recorded(&SHARED) else { return };
    let w = worker_with(dir.path(), &routing, &url, &["--concurrency", "8"]);
    // Interrupted while resume-reveal.test stalls (5 s): its slots hold groups.
    let mut owner = db.owner_store();
    let started = Instant::now();
    loop {
        let leased: i64 = owner
            .client()
            .query_one("SELECT count(*) FROM unit_groups WHERE leased_by IS NOT NULL AND lease_expires >= now()", &[])
            .unwrap()
            .get(0);
        if leased > 0 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the worker never leased a group");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(Command::new("kill").arg("-INT").arg(w.id().to_string()).status().unwrap().success());
    let (code, err) = finish(w);
    assert_eq!(code, Some(130), "{err}");
    let live: i64 =
        owner.client().query_one("SELECT count(*) FROM unit_groups WHERE leased_by IS NOT NULL", &[]).unwrap().get(0);
    assert_eq!(live, 0, "every group leased by the interrupted worker is released");
    let (code, err) = finish(worker(dir.path(), &routing, &url));
    assert_eq!(code, Some(0), "{err}");
    assert!(owner.scans().unwrap()[0].finished_at.is_some());
}
