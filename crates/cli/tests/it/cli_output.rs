//! Output destinations: `-o -` / `--output -` is standard output (no file named `-`), for `scan`
//! and `graph`.

use crate::common;

use common::{jsonl, routing_args, wellknown_in};

fn scan_args(extra: &[&str]) -> Vec<String> {
    let mut all: Vec<String> = vec!["scan".into()];
    all.extend(routing_args());
    all.extend(["--no-verify", "--depth", "0", "--probe", "robots"].map(String::from));
    all.extend(extra.iter().map(|s| s.to_string()));
    all.push("https://internet.nl".into());
    all
}

#[test]
fn dash_output_is_standard_output() {
    for flag in ["-o", "--output"] {
        let dir = tempfile::tempdir().unwrap();
        let args = scan_args(&[flag, "-"]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = wellknown_in(dir.path(), &refs);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let records = jsonl(&out.stdout);
        assert!(common::document(&records, "https://internet.nl/robots.txt").is_some(), "{flag}: {records:?}");
        assert_eq!(records.last().map(|r| r["type"].clone()), Some("summary".into()));
        assert!(!dir.path().join("-").exists(), "{flag} - must not create a file named -");

        // The stored graph, to standard output too.
        let out = wellknown_in(dir.path(), &["graph", flag, "-", "--format", "jsonl"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(!jsonl(&out.stdout).is_empty());
        assert!(!dir.path().join("-").exists());
    }
}

#[test]
fn output_file_is_still_a_file_and_a_bad_one_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let args = scan_args(&["-o", "records.jsonl"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wellknown_in(dir.path(), &refs);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let records = jsonl(&std::fs::read(dir.path().join("records.jsonl")).unwrap());
    assert!(common::document(&records, "https://internet.nl/robots.txt").is_some());

    let args = scan_args(&["--no-store", "-o", "no-such-dir/records.jsonl"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wellknown_in(dir.path(), &refs);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("creating --output no-such-dir/records.jsonl"), "{err}");
}
