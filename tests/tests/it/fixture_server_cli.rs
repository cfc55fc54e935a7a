//! The `fixture-server` binary's command line: `--help` prints the usage and exits 0; an unknown or
//! incomplete argument prints it on standard error and exits 2; a normal start prints its addresses.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fixture-server"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run fixture-server")
}

#[test]
fn help_prints_usage_and_exits_0() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("Usage: fixture-server [--root DIR] [--tls] [--ca-out FILE] [--log]"), "{text}");
        for opt in ["--root DIR", "--tls", "--ca-out FILE", "--log", "--latency MS", "-h, --help"] {
            assert!(text.contains(opt), "{opt} missing from {text}");
        }
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    for (args, msg) in [
        (&["--frobnicate"][..], "unknown argument \"--frobnicate\""),
        (&["--root"][..], "--root needs a directory"),
        (&["--ca-out"][..], "--ca-out needs a file"),
        (&["--root", "/no/such/dir"][..], "--root /no/such/dir: not a directory"),
        (&["--latency"][..], "--latency needs a whole number of milliseconds, 1 to 60000"),
        (&["--latency", "0"][..], "--latency needs a whole number of milliseconds, 1 to 60000"),
        (&["--latency", "5.5"][..], "--latency needs a whole number of milliseconds, 1 to 60000"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&format!("fixture-server: {msg}")), "{args:?}: {err}");
        assert!(err.contains("Usage: fixture-server"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// The first line `fixture-server ARGS` prints.
fn first_line(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fixture-server"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn fixture-server");
    let mut line = String::new();
    let read = BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line);
    let _ = child.kill();
    let _ = child.wait();
    read.expect("first line");
    line
}

#[test]
fn starts_and_prints_its_addresses() {
    let line = first_line(&[]);
    assert!(line.starts_with("http=127.0.0.1:") && line.trim_end().ends_with("https=-"), "{line}");
}

#[test]
fn with_latency_prints_the_proxies_addresses() {
    let line = first_line(&["--tls", "--latency", "50"]);
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 3, "{line}");
    assert!(words[0].starts_with("http=127.0.0.1:") && words[1].starts_with("https=127.0.0.1:"), "{line}");
    assert_eq!(words[2], "latency=50ms");
}
