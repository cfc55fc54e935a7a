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
