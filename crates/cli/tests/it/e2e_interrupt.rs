//! End to end: SIGINT or SIGTERM stops a scan cleanly: complete records only, the summary
//! (`"interrupted": true`) still last, the stored scan left unfinished, exit 130; and a closed output
//! pipe stops the scan instead of letting it run on.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::routing_args;
use wellknown_store::{SqliteStore, Store, UnitState};

/// The id of the last unfinished scan in `dir`'s store and its pending units, sorted.
fn unfinished_scan(dir: &std::path::Path) -> (i64, Vec<String>) {
    let mut store = SqliteStore::open_existing(&dir.join("wellknown.db")).unwrap();
    let scan = store.last_unfinished_scan().unwrap().expect("the interrupted scan stays unfinished");
    let mut pending: Vec<String> =
        store.units(scan.id).unwrap().into_iter().filter(|u| u.state == UnitState::Pending).map(|u| u.value).collect();
    pending.sort();
    (scan.id, pending)
}

fn spawn_scan(dir: &std::path::Path, targets: &[&str]) -> std::process::Child {
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args());
    args.extend(["--no-verify", "--timeout", "30"].map(String::from));
    args.extend(targets.iter().map(|t| t.to_string()));
    Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wellknown")
}

#[test]
fn sigint_and_sigterm_leave_complete_records_and_exit_130() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        // stall.test holds its robots.txt for 5 s, so the scan is still running when signalled.
        let child = spawn_scan(dir.path(), &["https://internet.nl", "https://stall.test"]);
        std::thread::sleep(Duration::from_millis(1500));
        let status = Command::new("kill").arg(signal).arg(child.id().to_string()).status().unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{signal}: {}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("interrupted"), "{stderr}");
        let records: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("incomplete record {line:?}: {e}")))
            .collect();
        // The last line is still the summary, saying the scan was interrupted.
        let summary = records.last().expect("records");
        assert_eq!((&summary["type"], &summary["interrupted"]), (&"summary".into(), &true.into()), "{summary}");
        assert_eq!(records.iter().filter(|r| r["type"] == "summary").count(), 1);
        let finished = records.iter().filter(|r| r["type"] == "origin").count();
        assert_eq!(summary["units"], finished, "{signal}: units counts the finished units only");
        assert!(
            !records.iter().any(|r| r["type"] == "origin" && r["origin"] == "https://stall.test"),
            "stall.test was in flight"
        );
        // The store keeps the scan unfinished, for --resume.
        let (scan, pending) = unfinished_scan(dir.path());
        assert_eq!(scan, 1);
        assert!(pending.contains(&"https://stall.test".to_string()), "{pending:?}");
    }
}

#[test]
fn closed_output_pipe_stops_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let mut child =
        spawn_scan(dir.path(), &["https://internet.nl", "https://stall.test", "https://sitemaps.mydripnurse.com"]);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is gone (dropped above): the next write fails and the scan stops.
    let status = child.wait().unwrap();
    assert!(serde_json::from_str::<serde_json::Value>(&first).is_ok());
    assert_eq!(status.code(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(25), "scan ran on for {:?}", started.elapsed());
}

/// Records are written out as they come, not only when their unit finishes; and a reader that
/// goes away (`wellknown scan … | head -1`) stops the scan at once, even while the unit waits on a
/// server and so has no record to write: exit 0, quietly (nothing on standard error), the scan
/// left unfinished in the store for `--resume`.
#[test]
fn closed_output_pipe_stops_a_stalled_scan_at_once() {
    let root = tempfile::tempdir().unwrap();
    let site = root.path().join("slow.test");
    std::fs::create_dir_all(site.join(".well-known")).unwrap();
    std::fs::write(site.join("robots.txt"), "User-agent: *\nDisallow: /private\n").unwrap();
    std::fs::write(site.join(".well-known/security.txt"), "Contact: mailto:security@slow.test\n").unwrap();
    std::fs::write(site.join(".well-known/security.txt.headers"), "X-Fixture-Stall: 30\n").unwrap();
    let server = common::own_server(root.path());
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(common::routing_args_for(&server));
    args.extend(["--no-verify", "--depth", "0", "--timeout", "60", "https://slow.test"].map(String::from));
    let mut child = Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wellknown");
    // robots.txt comes first and at once; the unit cannot finish before security.txt (30 s).
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    let record: serde_json::Value = serde_json::from_str(&first).expect("a whole record");
    // (or the MTA-STS policy host's document: another host, not held behind the origin's first answer)
    assert_eq!(record["type"], "document", "{record}");
    assert!(
        record["url"] == "https://slow.test/robots.txt"
            || record["url"] == "https://mta-sts.slow.test/.well-known/mta-sts.txt",
        "{record}"
    );
    drop(reader);
    let closed = Instant::now();
    let out = child.wait_with_output().unwrap();
    let waited = closed.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "", "quietly");
    assert!(waited < Duration::from_secs(15), "the scan ran on for {waited:?} after its reader had gone");
    let (_, pending) = unfinished_scan(dir.path());
    assert_eq!(pending, ["https://slow.test"]);
}

#[test]
fn finished_units_are_on_disk_while_the_scan_runs_and_after_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.jsonl");
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args());
    // No spacing between requests to one host (`--rate 0`): internet.nl's unit asks every linked
    // probe's locations, and at the default 5 per second 22 probes outlast the 4 s the test waits.
    args.extend(["--no-verify", "--no-store", "--rate", "0", "--timeout", "30", "-o"].map(String::from));
    args.push(out_file.display().to_string());
    args.extend(["https://internet.nl", "https://stall.test"].map(String::from));
    let mut child = Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn wellknown");
    // internet.nl finishes quickly; stall.test holds its robots.txt for 5 s.
    let deadline = Instant::now() + Duration::from_secs(4);
    let mut seen = false;
    while Instant::now() < deadline && !seen {
        std::thread::sleep(Duration::from_millis(100));
        let text = std::fs::read_to_string(&out_file).unwrap_or_default();
        seen = text.lines().any(|l| l.contains(r#""type":"origin""#) && l.contains("https://internet.nl"));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    assert!(seen, "internet.nl's unit was on disk while the scan was still running");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.ends_with('\n'), "whole lines only");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every line is a complete record");
    }
}

/// `wellknown scan -` with standard input held open (a producer still running), signalled
/// after `wait`: what it wrote to standard input is `lines`.
fn interrupt_while_reading_stdin(dir: &std::path::Path, lines: &str, signal: &str) -> std::process::Output {
    use std::io::Write;
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args().into_iter().filter(|a| a != "--quiet"));
    args.extend(["--no-verify", "-"].map(String::from));
    let mut child = Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn wellknown");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(lines.as_bytes()).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    let status = Command::new("kill").arg(signal).arg(child.id().to_string()).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    out
}

#[test]
fn a_signal_while_targets_are_read_from_stdin_still_ends_with_the_summary() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let out = interrupt_while_reading_stdin(dir.path(), "https://internet.nl\n# a comment\nstall.test\n", signal);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{signal}: {stderr}");
        let records = common::jsonl(&out.stdout);
        assert_eq!(records.len(), 1, "{signal}: only the summary: {records:?}");
        let summary = &records[0];
        assert_eq!(summary["type"], "summary", "{summary}");
        assert_eq!(summary["interrupted"], true, "{summary}");
        assert_eq!((&summary["targets"], &summary["units"], &summary["documents"]), (&2.into(), &0.into(), &0.into()));
        assert!(stderr.contains("wellknown (interrupted): 2 target(s)"), "{signal}: the summary line: {stderr}");
        assert!(
            stderr.contains("while reading targets from standard input") && stderr.contains("scan --resume"),
            "{signal}: {stderr}"
        );
        // The targets read are kept as an unfinished scan: `--resume` scans them.
        let (_, pending) = unfinished_scan(dir.path());
        assert_eq!(pending, ["https://internet.nl", "https://stall.test"], "{signal}");
    }
    let dir = tempfile::tempdir().unwrap();
    let _ = interrupt_while_reading_stdin(dir.path(), "https://internet.nl\n", "-INT");
    let mut args: Vec<String> = vec!["scan".into()];
    args.extend(routing_args());
    args.push("--resume".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::wellknown_in(dir.path(), &refs);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let records = common::jsonl(&out.stdout);
    assert!(common::document(&records, "https://internet.nl/robots.txt").is_some(), "resumed: {records:?}");
}

#[test]
fn a_signal_before_any_target_was_read_writes_an_empty_interrupted_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out = interrupt_while_reading_stdin(dir.path(), "", "-INT");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let records = common::jsonl(&out.stdout);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(
        (&records[0]["type"], &records[0]["interrupted"], &records[0]["targets"]),
        (&"summary".into(), &true.into(), &0.into())
    );
    assert!(stderr.contains("interrupted by SIGINT while reading targets from standard input"), "{stderr}");
    assert!(!dir.path().join("wellknown.db").exists(), "no scan to resume: {stderr}");
}
