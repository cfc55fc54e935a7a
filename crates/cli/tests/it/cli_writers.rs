//! Every command that writes a file (`scan -o`, `graph -o`, `candidates -o`, `diff -o`, and standard
//! output redirected onto the store) refuses the store, its companions and any other SQLite
//! database the same way: exit 2, one line naming the output and the store, the store left intact
//! and no request made.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{own_server, routing_args_for, scan_in, wellknown_in};
use wellknown_store::{SqliteStore, Store};
use wellknown_tests::fixture_sites;

/// A store in `dir` (`wellknown.db`) with two finished scans of history.test.
fn two_scans(dir: &Path) {
    let server = own_server(&fixture_sites());
    for _ in 0..2 {
        let (code, _, stderr) = scan_in(dir, &server, &["--depth", "0", "--no-verify", "https://history.test"]);
        assert_eq!(code, 0, "{stderr}");
    }
}

/// The store's bytes, and what it holds (scans, documents): compared before and after a refusal.
fn snapshot(db: &Path) -> (Vec<u8>, usize, usize) {
    let g = SqliteStore::open_read_only(db).unwrap().load().unwrap();
    (std::fs::read(db).unwrap(), g.scans.len(), g.documents.len())
}

fn refused(dir: &Path, args: &[&str], needles: &[&str]) {
    let out = wellknown_in(dir, args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing written");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {n:?} not in {err}");
    }
}

#[test]
fn every_writer_refuses_the_store_and_leaves_it_intact() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_scans(d);
    let db = d.join("wellknown.db");
    let before = snapshot(&db);
    assert_eq!((before.1, before.2 > 0), (2, true));
    std::fs::hard_link(&db, d.join("link.db")).unwrap();
    let store = "is the same file as the store wellknown.db: writing there would destroy the store";
    for out in ["wellknown.db", "./wellknown.db", "link.db"] {
        for args in [
            &["graph", "--format", "dot", "-o", out][..],
            &["candidates", "--output", out],
            &["diff", "-o", out],
            &["diff", "1", "2", "--format", "jsonl", "-o", out],
        ] {
            refused(d, args, &[&format!("--output {out} "), store]);
            assert_eq!(snapshot(&db), before, "{args:?}");
        }
    }
    // The store's write-ahead log is the store too.
    refused(d, &["graph", "-o", "wellknown.db-wal"], &["same file as the store wellknown.db's write-ahead log"]);
    // The store named by --db.
    std::fs::copy(&db, d.join("other.db")).unwrap();
    refused(
        d,
        &["candidates", "--db", "other.db", "-o", "other.db"],
        &["--output other.db is the same file as --db other.db:"],
    );
    assert_eq!(snapshot(&db), before);
}

#[test]
fn a_scan_refuses_the_store_as_output_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_scans(d);
    let db = d.join("wellknown.db");
    let before = snapshot(&db);
    let server = own_server(&fixture_sites());
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args_for(&server));
    args.extend(["-o", "wellknown.db", "https://history.test"].map(String::from));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(d, &refs, &["--output wellknown.db is the same file as the store wellknown.db"]);
    // From the environment: named as such.
    let out = Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&refs[..refs.len() - 3])
        .arg("https://history.test")
        .env("WELLKNOWN_OUTPUT", "wellknown.db")
        .env_remove("WELLKNOWN_DB")
        .current_dir(d)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("environment variable WELLKNOWN_OUTPUT (the output) wellknown.db is the same file as the store"),
        "{err}"
    );
    assert!(server.requests().is_empty(), "no request: {:?}", server.requests());
    assert_eq!(snapshot(&db), before);
}

#[test]
fn every_writer_refuses_any_sqlite_database() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_scans(d);
    // Someone else's database, and a store that is not the one in use.
    let foreign = d.join("notes.sqlite");
    rusqlite_file(&foreign);
    std::fs::copy(d.join("wellknown.db"), d.join("old-store.db")).unwrap();
    for target in ["notes.sqlite", "old-store.db"] {
        let kept = std::fs::read(d.join(target)).unwrap();
        let needle = format!("--output {target} is a SQLite database, maybe another store");
        for args in [&["graph", "-o", target][..], &["candidates", "-o", target], &["diff", "-o", target]] {
            refused(d, args, &[&needle, "(the store wellknown.db is this command's store)"]);
        }
        let server = own_server(&fixture_sites());
        for store in [&[][..], &["--no-store"]] {
            let mut args: Vec<String> = vec!["scan".into()];
            args.extend(routing_args_for(&server));
            args.extend(store.iter().map(|s| s.to_string()));
            args.extend(["-o", target, "https://history.test"].map(String::from));
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            refused(d, &refs, &[&needle]);
        }
        assert!(server.requests().is_empty());
        assert_eq!(std::fs::read(d.join(target)).unwrap(), kept, "{target} intact");
    }
    // An ordinary file is written.
    let out = wellknown_in(d, &["candidates", "-o", "values.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(d.join("values.txt")).unwrap().contains("mailto:security@history.test"));
}

/// A SQLite database that is no store.
fn rusqlite_file(path: &Path) {
    let mut s = SqliteStore::open(path).unwrap();
    s.begin_scan(wellknown_core::Timestamp::now(), &serde_json::json!({}), &[]).unwrap();
    drop(s);
    assert!(wellknown_store::is_sqlite_database(path));
}

/// `wellknown graph >> wellknown.db`: standard output is the store; refused, nothing appended.
#[test]
fn standard_output_onto_the_store_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    two_scans(d);
    let db = d.join("wellknown.db");
    let before = snapshot(&db);
    for args in [&["graph"][..], &["candidates"], &["diff"], &["scans"]] {
        let append = std::fs::OpenOptions::new().append(true).open(&db).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_wellknown"))
            .args(args)
            .current_dir(d)
            .env_remove("WELLKNOWN_DB")
            .stdin(Stdio::null())
            .stdout(Stdio::from(append))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("standard output is the store wellknown.db") && err.contains("nothing was written"),
            "{err}"
        );
        assert_eq!(snapshot(&db), before, "{args:?}");
    }
}
