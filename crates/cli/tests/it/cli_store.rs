//! A store that cannot be opened stops the scan before any request, with one line naming the path
//! and suggesting `--db PATH` or `--no-store` (exit 2).

use crate::common;

use std::path::Path;

use common::{own_server, routing_args_for, wellknown_in};
use wellknown_tests::fixture_sites;

/// Scans internet.nl through a server of its own from `dir`; returns (exit code, stderr, requests the
/// server answered).
fn scan_from(dir: &Path, extra: &[&str]) -> (Option<i32>, String, usize) {
    let server = own_server(&fixture_sites());
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args_for(&server));
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push("https://internet.nl".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wellknown_in(dir, &refs);
    assert!(out.stdout.is_empty(), "no record: {}", String::from_utf8_lossy(&out.stdout));
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), server.requests().len())
}

fn assert_clear_store_error(code: Option<i32>, stderr: &str, requests: usize, path: &str) {
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(requests, 0, "no request before the store is open: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with(&format!("wellknown: error: cannot use the store {path}: ")), "{stderr}");
    assert!(stderr.contains("give --db PATH") && stderr.contains("--no-store"), "{stderr}");
}

#[test]
fn unwritable_working_directory_without_db() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms.clone()).unwrap();
    // Root (and some file systems) can write to a read-only directory: nothing to test then.
    let writable = std::fs::write(ro.join("probe"), b"x").is_ok();
    if !writable {
        let (code, stderr, requests) = scan_from(&ro, &[]);
        assert_clear_store_error(code, &stderr, requests, "wellknown.db");
    } else {
        eprintln!("skipped: the read-only directory is writable (running as root?)");
    }
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    let _ = std::fs::set_permissions(&ro, perms);
}

#[test]
fn db_under_a_regular_file_fails_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("afile"), b"x").unwrap();
    let (code, stderr, requests) = scan_from(dir.path(), &["--db", "afile/x.db"]);
    assert_clear_store_error(code, &stderr, requests, "afile/x.db");
}

#[test]
fn a_file_that_is_no_store_fails_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wellknown.db"), b"not a database, just text\n".repeat(100)).unwrap();
    let (code, stderr, requests) = scan_from(dir.path(), &[]);
    assert_clear_store_error(code, &stderr, requests, "wellknown.db");
    // --no-store scans anyway.
    let server = own_server(&fixture_sites());
    let mut args: Vec<String> = vec!["scan".into(), "--no-store".into(), "--probe".into(), "robots".into()];
    args.extend(routing_args_for(&server));
    args.push("https://internet.nl".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wellknown_in(dir.path(), &refs);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A store with its pages after the first (the schema) overwritten: still a SQLite file by its
/// header, but damaged. A scan refuses it before any request, naming it and what to do, and writes
/// nothing to it.
#[test]
fn a_damaged_store_is_refused_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wellknown.db");
    {
        let mut s = wellknown_store::SqliteStore::open(&db).unwrap();
        for _ in 0..50 {
            let plan = serde_json::json!({"targets": ["https://internet.nl"], "padding": "x".repeat(500)});
            wellknown_store::Store::begin_scan(&mut s, wellknown_core::Timestamp::now(), &plan, &[]).unwrap();
        }
    }
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() > 16384, "{}", bytes.len());
    for b in &mut bytes[4096..] {
        *b = 0x5A;
    }
    std::fs::write(&db, &bytes).unwrap();
    let (code, stderr, requests) = scan_from(dir.path(), &[]);
    assert_clear_store_error(code, &stderr, requests, "wellknown.db");
    assert!(stderr.contains("damaged") || stderr.contains("malformed"), "{stderr}");
    assert!(stderr.contains("restore it from a copy"), "{stderr}");
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "the store is left as it was");
    // --resume too.
    let (code, stderr, requests) = scan_from_resume(dir.path());
    assert_clear_store_error(code, &stderr, requests, "wellknown.db");
}

/// `wellknown scan --resume` from `dir` through a server of its own: (exit code, stderr, requests).
fn scan_from_resume(dir: &Path) -> (Option<i32>, String, usize) {
    let server = own_server(&fixture_sites());
    let mut args: Vec<String> = vec!["scan".into(), "--resume".into()];
    args.extend(routing_args_for(&server));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wellknown_in(dir, &refs);
    assert!(out.stdout.is_empty(), "no record: {}", String::from_utf8_lossy(&out.stdout));
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), server.requests().len())
}

/// The reading commands open the store read-only: a store in a read-only folder, itself read-only,
/// is queried, and left byte for byte as it was. (As root, permissions do not stop writes; the
/// store's bytes still show that nothing was written.)
#[test]
fn a_read_only_store_is_queried() {
    let dir = tempfile::tempdir().unwrap();
    let server = own_server(&fixture_sites());
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    for _ in 0..2 {
        let (code, _, stderr) =
            common::scan_in(&work, &server, &["--depth", "0", "--no-verify", "https://history.test"]);
        assert_eq!(code, 0, "{stderr}");
    }
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::copy(work.join("wellknown.db"), ro.join("wellknown.db")).unwrap();
    let before = std::fs::read(ro.join("wellknown.db")).unwrap();
    let set_ro = |p: &Path, ro: bool| {
        let mut perms = std::fs::metadata(p).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(ro);
        std::fs::set_permissions(p, perms).unwrap();
    };
    set_ro(&ro.join("wellknown.db"), true);
    set_ro(&ro, true);
    let cases: [(&[&str], i32, &str); 7] = [
        (&["candidates", "--kind", "contact"], 0, "mailto:security@history.test\n"),
        (&["scans", "--format", "jsonl"], 0, "\"state\":\"finished\""),
        (&["diff"], 1, ""),
        (&["graph", "--format", "dot"], 0, "digraph wellknown {"),
        // Filters: one scan's relations declaring contacts, then a scan and a kind that are not.
        (&["graph", "--scan", "1", "--kind", "contact"], 0, "\"value\":\"mailto:security@history.test\""),
        (&["graph", "--scan", "9"], 2, ""),
        (&["graph", "--kind", "pigeon"], 2, ""),
    ];
    for (args, code, needle) in cases {
        let out = wellknown_in(&ro, args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(needle), "{args:?}: {stdout}");
    }
    set_ro(&ro, false);
    set_ro(&ro.join("wellknown.db"), false);
    assert_eq!(std::fs::read(ro.join("wellknown.db")).unwrap(), before, "nothing written");
}

/// A file that is no store, given to a reading command: the message names it and what to do.
#[test]
fn a_reading_command_names_a_file_that_is_no_store_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"plain text, not a database\n".repeat(200)).unwrap();
    for cmd in ["candidates", "graph", "diff", "scans"] {
        let out = wellknown_in(dir.path(), &[cmd, "--db", "notes.txt"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(err.starts_with("wellknown: error: cannot read the store notes.txt: "), "{cmd}: {err}");
        assert!(err.contains("give --db PATH naming a wellknown store"), "{cmd}: {err}");
    }
}
