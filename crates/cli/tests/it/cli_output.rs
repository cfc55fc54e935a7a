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

/// `-o` naming a file the scan reads or keeps (the store, `--list`, `--ca-cert`, the configuration
/// file) is refused with exit 2, naming both, before anything is opened or truncated.
#[test]
fn output_that_is_the_store_list_ca_or_config_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A first scan fills the default store.
    let args = scan_args(&["-o", "first.jsonl"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(wellknown_in(d, &refs).status.code(), Some(0));
    let store = std::fs::read(d.join("wellknown.db")).unwrap();
    std::fs::write(d.join("l.txt"), "https://internet.nl\n").unwrap();
    std::fs::write(d.join("st.db"), b"not touched").unwrap();
    std::fs::write(d.join("wellknown.toml"), "quiet = true\n").unwrap();
    std::fs::write(d.join("other.toml"), "quiet = true\n").unwrap();
    let ca = routing_args().iter().skip_while(|a| *a != "--ca-cert").nth(1).cloned().unwrap();
    let ca_bytes = std::fs::read(&ca).unwrap();
    let sub = d.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (vec!["-o".into(), "wellknown.db".into()], "--output wellknown.db", "store"),
        (vec!["-o".into(), "./sub/../wellknown.db".into()], "wellknown.db", "store"),
        (vec!["-o".into(), d.join("wellknown.db").display().to_string()], "wellknown.db", "store"),
        (vec!["-o".into(), "wellknown.db-wal".into()], "wellknown.db-wal", "store"),
        (vec!["--db".into(), "st.db".into(), "--output".into(), "st.db".into()], "--db st.db", "--output st.db"),
        (vec!["--db".into(), "new.db".into(), "-o".into(), "new.db".into()], "--db new.db", "--output new.db"),
        (
            vec!["--no-store".into(), "--list".into(), "l.txt".into(), "-o".into(), "l.txt".into()],
            "--list l.txt",
            "--output l.txt",
        ),
        (vec!["--no-store".into(), "-o".into(), ca.clone()], "--ca-cert", "--output"),
        (
            vec!["--no-store".into(), "-o".into(), "wellknown.toml".into()],
            "configuration file wellknown.toml",
            "--output",
        ),
        (
            vec!["--no-store".into(), "--config".into(), "other.toml".into(), "-o".into(), "other.toml".into()],
            "other.toml",
            "--output",
        ),
    ];
    for (extra, a, b) in cases {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let args = scan_args(&extra);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = wellknown_in(d, &refs);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(a) && err.contains(b) && err.contains("same file"), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}");
    }
    assert_eq!(std::fs::read(d.join("wellknown.db")).unwrap(), store, "the store is untouched");
    assert!(!d.join("wellknown.db-wal").exists() || std::fs::metadata(d.join("wellknown.db-wal")).unwrap().len() == 0);
    assert_eq!(std::fs::read_to_string(d.join("l.txt")).unwrap(), "https://internet.nl\n");
    assert_eq!(std::fs::read(d.join("st.db")).unwrap(), b"not touched");
    assert!(!d.join("new.db").exists(), "nothing created");
    assert_eq!(std::fs::read(&ca).unwrap(), ca_bytes);
    assert_eq!(std::fs::read_to_string(d.join("wellknown.toml")).unwrap(), "quiet = true\n");
    assert_eq!(std::fs::read_to_string(d.join("other.toml")).unwrap(), "quiet = true\n");
    // --no-store: the default store path is not in use, so -o may name it.
    let args = scan_args(&["--no-store", "-o", "st.db"]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(wellknown_in(d, &refs).status.code(), Some(0));
}
