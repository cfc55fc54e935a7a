//! Scan exit codes and the summary: soft-404 HTML alone is nothing found (exit 1), a recognised
//! document is something (exit 0), every target failing is an error (exit 2), and the summary line
//! counts fetch failures and names the failure classes.

use crate::common;

use common::{of_type, routing_args, wellknown};

/// `wellknown scan` against the fixture server without `--quiet` (the summary line is printed).
fn scan_loud(extra: &[&str]) -> (i32, Vec<serde_json::Value>, String) {
    let mut all: Vec<String> = vec!["scan".into(), "--no-store".into(), "--no-verify".into()];
    all.extend(routing_args().into_iter().filter(|a| a != "--quiet"));
    all.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = wellknown(&refs);
    (out.status.code().unwrap_or(-1), common::jsonl(&out.stdout), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn summary(records: &[serde_json::Value]) -> serde_json::Value {
    of_type(records, "summary").last().map(|v| (*v).clone()).expect("summary record")
}

#[test]
fn soft_404_html_everywhere_is_nothing_found() {
    let (code, records, stderr) = scan_loud(&["--depth", "0", "https://spa.example"]);
    let s = summary(&records);
    assert_eq!(s["documents_found"], 3, "three HTML pages answered 200: {s}");
    assert_eq!(s["documents_recognised"], 0, "{s}");
    assert_eq!(s["candidates"], 0, "{s}");
    assert_eq!(code, 1, "only soft 404s: {stderr}");
    assert!(stderr.contains("3 answered 2xx, 0 recognised"), "{stderr}");
}

#[test]
fn a_recognised_document_is_something_found() {
    let (code, records, stderr) = scan_loud(&["--depth", "0", "--probe", "robots", "https://internet.nl"]);
    let s = summary(&records);
    assert_eq!(s["documents_recognised"], 1, "{s}");
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("1 target(s): 1 reachable; 1 document(s): 1 answered 2xx, 1 recognised, 0 failed to fetch"),
        "{stderr}"
    );
}

#[test]
fn failed_targets_are_counted_and_named_in_the_summary_line() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let target = format!("http://127.0.0.1:{port}");
    let (code, records, stderr) = scan_loud(&["--depth", "0", "--probe", "robots", "--probe", "security.txt", &target]);
    let s = summary(&records);
    assert_eq!(s["fetch_failures"], s["documents"], "{s}");
    assert!(s["fetch_failures"].as_u64().unwrap() >= 2, "{s}");
    assert_eq!(code, 2, "{stderr}");
    let line = stderr.lines().find(|l| l.starts_with("wellknown: 1 target(s)")).unwrap_or_else(|| panic!("{stderr}"));
    assert!(line.contains("0 reachable, 1 unreachable (connect_refused)"), "{line}");
    assert!(line.contains(&format!("0 recognised, {} failed to fetch", s["fetch_failures"])), "{line}");
    assert!(line.contains("diagnostics: 0 error(s)"), "{line}");
    assert!(stderr.contains("every target failed"), "{stderr}");
}

/// Runs `wellknown` with `args` and standard error a pipe whose reader is already closed (as in
/// `wellknown scan ... 2>&1 | true`): every write to it fails with EPIPE.
fn with_stderr_closed(args: &[String]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let dir = tempfile::tempdir().unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(args)
        .current_dir(dir.path())
        .env_remove("WELLKNOWN_DB")
        .stdin(std::process::Stdio::null())
        .stderr(writer)
        .output()
        .unwrap()
}

#[test]
fn a_closed_standard_error_keeps_the_documented_exit_code() {
    let loud = |extra: &[&str]| {
        let mut all: Vec<String> = vec!["scan".into(), "--no-store".into(), "--no-verify".into()];
        all.extend(routing_args().into_iter().filter(|a| a != "--quiet"));
        all.extend(extra.iter().map(|s| s.to_string()));
        all
    };
    // Found something: the summary line cannot be written, the exit code is still 0.
    let out = with_stderr_closed(&loud(&["--depth", "0", "--probe", "robots", "https://internet.nl"]));
    assert_eq!(out.status.code(), Some(0));
    assert!(!common::jsonl(&out.stdout).is_empty());
    // Nothing found: 1.
    let out = with_stderr_closed(&loud(&["--depth", "0", "https://spa.example"]));
    assert_eq!(out.status.code(), Some(1));
    // Every target failed (`every target failed:` lines lost): 2.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = format!("http://127.0.0.1:{}", l.local_addr().unwrap().port());
    drop(l);
    let out = with_stderr_closed(&loud(&["--depth", "0", &closed]));
    assert_eq!(out.status.code(), Some(2));
    // An error message that cannot be written: 2. A warning too.
    let out = with_stderr_closed(&["scan".to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let mut cmd_args = loud(&["--depth", "0", "--probe", "robots", "https://internet.nl"]);
    cmd_args.push("--timeout".into());
    cmd_args.push("0".into());
    assert_eq!(with_stderr_closed(&cmd_args).status.code(), Some(2));
}
