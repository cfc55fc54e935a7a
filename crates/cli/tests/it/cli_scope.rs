//! Scope rules that would match everything, or are malformed, are refused before any request with
//! exit 2 and the accepted forms; exclusions alone narrow the default scope.

use crate::common;

use common::{scan, wellknown};

fn refused(args: &[&str], needles: &[&str]) {
    let out = wellknown(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing scanned");
    for n in [
        "invalid scope rule",
        "accepted: a host `www.example.com`",
        "`*.example.com`",
        "`192.0.2.0/24`",
        "prefix `!` to exclude",
    ]
    .iter()
    .chain(needles)
    {
        assert!(err.contains(n), "{args:?}: {n:?} not in {err}");
    }
}

#[test]
fn rules_matching_everything_are_refused_with_the_accepted_forms() {
    let base = ["scan", "--no-store", "--scope"];
    let cases: [(&str, &str); 11] = [
        ("*", "would match every host"),
        ("*.*", "would match every host"),
        ("*.com", "public suffix"),
        ("*.co.uk", "public suffix"),
        ("0.0.0.0/0", "every address"),
        ("::/0", "every address"),
        ("0.0.0.0/1", "an IPv4 inclusion block is accepted up to /8"),
        ("128.0.0.0/1", "an IPv4 inclusion block is accepted up to /8"),
        ("::/1", "an IPv6 inclusion block is accepted up to /16"),
        ("www.*.example.com", "leading `*.`"),
        ("", "empty rule"),
    ];
    for (rule, why) in cases {
        let mut args = base.to_vec();
        args.extend([rule, "https://www.example.com"]);
        refused(
            &args,
            &[why, &format!("invalid scope rule {rule:?}"), "/8 or narrower for IPv4, /16 or narrower for IPv6"],
        );
    }
    refused(&["scan", "--no-store", "--scope", "exa mple.com", "https://www.example.com"], &[]);
}

#[test]
fn refused_exclusions_are_quoted_with_their_bang() {
    for (rule, why) in [
        ("!https://www.example.com/admin/", "scope is per host"),
        ("!www.example.com:8443", "scope is per host"),
        ("!www.*.example.com", "leading `*.`"),
        ("!", "empty rule"),
    ] {
        refused(
            &["scan", "--no-store", "--scope", rule, "https://www.example.com"],
            &[why, &format!("invalid scope rule {rule:?}")],
        );
    }
}

#[test]
fn exclusions_matching_everything_are_accepted() {
    // An exclusion cannot widen a scan: excluding every .com host or every IPv6 address leaves
    // internet.nl (reached over IPv4 loopback) in the default scope.
    for rule in ["!*.com", "!::/0", "!*.co.uk"] {
        let (code, records, stderr) = scan(&["--scope", rule, "--probe", "robots", "https://internet.nl"]);
        assert_eq!(code, 0, "{rule}: {stderr}");
        let doc = common::document(&records, "https://internet.nl/robots.txt").expect("robots.txt fetched");
        assert_eq!(doc["status"], 200, "{rule}: {doc}");
    }
    // Excluding every host or every IPv4 address leaves nothing to scan: the targets are out of
    // scope or refused at connection time, and nothing is requested.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites");
    let server = common::own_server(&root);
    for rule in ["!*", "!0.0.0.0/0"] {
        let dir = tempfile::tempdir().unwrap();
        let (code, _, stderr) = common::scan_in(
            dir.path(),
            &server,
            &["--no-store", "--no-verify", "--depth", "0", "--scope", rule, "--probe", "robots", "https://internet.nl"],
        );
        assert_eq!(code, 2, "{rule}: {stderr}");
        assert!(!stderr.contains("invalid scope rule"), "{rule}: accepted: {stderr}");
    }
    assert!(common::requests_to(&server, "internet.nl").is_empty(), "nothing requested");
}

#[test]
fn rules_narrower_than_a_host_are_refused_not_widened() {
    for rule in ["https://www.example.com/only/", "http://www.example.com:8080", "www.example.com:443"] {
        refused(&["scan", "--no-store", "--scope", rule, "https://www.example.com"], &["scope is per host"]);
    }
}

#[test]
fn rules_from_the_configuration_file_are_checked_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wellknown.toml"), "scope = [\"*.example.com\", \"*\"]\n").unwrap();
    let out = common::wellknown_in(dir.path(), &["scan", "--no-store", "https://www.example.com"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid scope rule \"*\": it would match every host"), "{err}");
}

#[test]
fn exclusions_alone_apply_to_the_default_scope() {
    let (code, records, stderr) = scan(&["--scope", "!admin.internet.nl", "--probe", "robots", "https://internet.nl"]);
    assert_eq!(code, 0, "{stderr}");
    let doc = common::document(&records, "https://internet.nl/robots.txt").expect("robots.txt fetched");
    assert_eq!(doc["status"], 200, "in the default scope: {doc}");
}

#[test]
fn address_exclusions_hold_for_names_that_lead_there() {
    // Every name is routed to 127.0.0.1 by --connect-to: excluding 127.0.0.0/8 must keep the
    // scanner off it, although internet.nl itself is in the (default) scope.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites");
    let server = common::own_server(&root);
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) = common::scan_in(
        dir.path(),
        &server,
        &[
            "--no-store",
            "--no-verify",
            "--depth",
            "0",
            "--scope",
            "!127.0.0.0/8",
            "--probe",
            "robots",
            "https://internet.nl",
        ],
    );
    assert_eq!(code, 2, "the only target failed: {stderr}");
    let doc = common::document(&records, "https://internet.nl/robots.txt").expect("robots.txt record");
    assert_eq!(doc["failure"]["class"], "out_of_scope", "{doc}");
    let msg = doc["failure"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("excluded by the scope rule !127.0.0.0/8"), "{msg}");
    assert!(common::requests_to(&server, "internet.nl").is_empty(), "nothing requested");
}
