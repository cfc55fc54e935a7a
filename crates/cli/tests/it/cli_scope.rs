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
    let cases: [(&str, &str); 9] = [
        ("*", "would match every host"),
        ("*.*", "would match every host"),
        ("!*", "would match every host"),
        ("*.com", "public suffix"),
        ("*.co.uk", "public suffix"),
        ("0.0.0.0/0", "every address"),
        ("::/0", "every address"),
        ("www.*.example.com", "leading `*.`"),
        ("", "empty rule"),
    ];
    for (rule, why) in cases {
        let mut args = base.to_vec();
        args.extend([rule, "https://www.example.com"]);
        refused(&args, &[why, &format!("{:?}", rule.trim_start_matches('!'))]);
    }
    refused(&["scan", "--no-store", "--scope", "exa mple.com", "https://www.example.com"], &[]);
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
