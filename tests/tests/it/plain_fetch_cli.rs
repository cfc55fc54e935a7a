//! The `plain-fetch` binary's command line: `--help` exits 0, a bad or missing argument exits 2
//! with the usage on standard error.

use std::process::{Command, Stdio};

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_plain-fetch")).args(args).stdin(Stdio::null()).output().expect("run plain-fetch")
}

#[test]
fn help_prints_usage_and_exits_0() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("Usage: plain-fetch --list FILE"));
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    for (args, msg) in [
        (&["--frobnicate"][..], "unknown argument \"--frobnicate\""),
        (&["--list"][..], "--list needs a value"),
        (&["--http", "nowhere"][..], "--http \"nowhere\": not IP:PORT"),
        (&["--per-host", "0"][..], "--per-host \"0\": a whole number 1 to 100"),
        (&["--rate", "-1"][..], "--rate \"-1\": a number, 0 or more"),
        (&["--list", "x"][..], "--list, --http, --https and --ca-cert are required"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&format!("plain-fetch: {msg}")), "{args:?}: {err}");
        assert!(err.contains("Usage: plain-fetch"), "{err}");
    }
}
