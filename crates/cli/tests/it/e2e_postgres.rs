//! End to end on PostgreSQL: `wellknown scan --db postgres://…` (as the worker role of
//! `docs/store.md`, the password from the test environment's password file) stores the graph a
//! SQLite scan of the same targets stores, and the reading commands read it from there. The server
//! comes from `WELLKNOWN_TEST_PG` (`wellknown_store_postgres::testing`).

use crate::common;

use common::{graph, own_server, scan_in, wellknown_in};
use wellknown_store_postgres::testing;
use wellknown_tests::fixture_sites;

const ARGS: [&str; 8] = [
    "--rate",
    "0",
    "--timeout",
    "2",
    "https://verify.test",
    "https://feedback.test",
    "https://history.test",
    "https://5calls.org",
];

#[test]
fn a_scan_into_postgres_stores_what_a_sqlite_scan_stores() {
    let Some(pg) = testing::server() else { return };
    let db = pg.migrated_db();
    let url = db.worker_url();

    let sqlite_dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = scan_in(sqlite_dir.path(), &own_server(&fixture_sites()), &ARGS);
    assert!(code <= 1, "{stderr}");
    let expected = graph(sqlite_dir.path(), None);
    assert!(expected.iter().any(|l| l.contains("robots_sitemap")), "{expected:#?}");

    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--db", url.as_str()];
    args.extend(ARGS);
    let (code, records, stderr) = scan_in(dir.path(), &own_server(&fixture_sites()), &args);
    assert!(code <= 1, "{stderr}");
    assert!(records.iter().any(|r| r["type"] == "summary"), "{stderr}");
    assert!(!dir.path().join("wellknown.db").exists(), "no SQLite file beside the PostgreSQL store");
    let got = graph(dir.path(), Some(&url));
    let missing: Vec<&String> = expected.difference(&got).collect();
    let extra: Vec<&String> = got.difference(&expected).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:#?}\nextra {extra:#?}");

    let scans = wellknown_in(dir.path(), &["scans", "--db", &url]);
    assert_eq!(scans.status.code(), Some(0), "{}", String::from_utf8_lossy(&scans.stderr));
    let text = String::from_utf8_lossy(&scans.stdout);
    assert!(text.lines().count() >= 2 && text.contains('1'), "{text}");
    let candidates = wellknown_in(dir.path(), &["candidates", "--db", &url, "--kind", "sitemap"]);
    assert_eq!(candidates.status.code(), Some(0), "{}", String::from_utf8_lossy(&candidates.stderr));
    assert!(String::from_utf8_lossy(&candidates.stdout).contains("sitemap"));
}

#[test]
fn an_unreachable_server_is_named_without_its_password() {
    let dir = tempfile::tempdir().unwrap();
    // Port 9 (discard) on loopback: nothing listens; the URL's password must not be echoed.
    let url = "postgres://someone:hunter2@127.0.0.1:9/nothing?connect_timeout=2";
    let out = wellknown_in(dir.path(), &["scans", "--db", url]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("postgres://someone:***@127.0.0.1:9/nothing"), "{err}");
    assert!(!err.contains("hunter2"), "{err}");
}

#[test]
fn work_and_workers_only_need_a_shared_store_and_take_no_plan() {
    let dir = tempfile::tempdir().unwrap();
    let url = "postgres://someone@127.0.0.1:9/nothing?connect_timeout=2";
    let out = wellknown_in(dir.path(), &["work", "--db", url, "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("work takes no --depth"), "{out:?}");
    let out = wellknown_in(dir.path(), &["work", "https://a.example"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("work takes no targets"), "{out:?}");
    let out = wellknown_in(dir.path(), &["work"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a shared store"), "{out:?}");
    let out = wellknown_in(dir.path(), &["scan", "--workers-only", "https://a.example"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--workers-only needs a shared store"), "{out:?}");
    assert!(!dir.path().join("wellknown.db").exists(), "nothing created");
}
