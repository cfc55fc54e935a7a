//! `wellknown parse` without `--content-type`: a local file has no media type, so the probe's own
//! expected type is assumed and no `invalid_content_type` is reported; a given type is still judged.

use crate::common;

use std::path::PathBuf;

fn fixture(rel: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "tests", "fixtures", "sites", rel].iter().collect();
    assert!(p.is_file(), "fixture {}", p.display());
    p.display().to_string()
}

fn parse(probe: &str, rel: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let file = fixture(rel);
    let url = format!("https://{rel}");
    let mut args = vec!["parse", probe, &file, "--url", &url];
    args.extend_from_slice(extra);
    let out = common::wellknown(&args);
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{probe}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), v)
}

fn codes(report: &serde_json::Value) -> Vec<String> {
    ["errors", "warnings"]
        .iter()
        .flat_map(|k| report[k].as_array().cloned().unwrap_or_default())
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect()
}

const JSON_DOCUMENTS: [(&str, &str, &str); 5] = [
    ("openid-configuration", "slack.com/.well-known/openid-configuration", "openid-configuration"),
    (
        "oauth-authorization-server",
        "mcp.canva.com/.well-known/oauth-authorization-server",
        "oauth-authorization-server",
    ),
    ("assetlinks", "minid.no/.well-known/assetlinks.json", "statement_list"),
    ("apple-app-site-association", "minid.no/.well-known/apple-app-site-association", "aasa"),
    ("jwks", "feedback.test/jwks.json", "jwks"),
];

#[test]
fn json_documents_without_content_type_are_not_blamed_for_one() {
    for (probe, rel, kind) in JSON_DOCUMENTS {
        let (code, report) = parse(probe, rel, &[]);
        assert!(!codes(&report).contains(&"invalid_content_type".to_string()), "{probe}: {report}");
        assert_eq!(report["kind"], kind, "{probe}: {report}");
        assert_eq!(report["valid"], true, "{probe}: {report}");
        assert_eq!(code, 0, "{probe}");
    }
    let (_, robots) = parse("robots", "internet.nl/robots.txt", &[]);
    assert!(!codes(&robots).contains(&"invalid_content_type".to_string()), "{robots}");
}

#[test]
fn a_given_content_type_is_still_judged() {
    let (code, report) =
        parse("openid-configuration", "slack.com/.well-known/openid-configuration", &["--content-type", "text/html"]);
    assert!(codes(&report).contains(&"invalid_content_type".to_string()), "{report}");
    assert_eq!(code, 1);
    let (code, report) = parse(
        "openid-configuration",
        "slack.com/.well-known/openid-configuration",
        &["--content-type", "application/json"],
    );
    assert!(!codes(&report).contains(&"invalid_content_type".to_string()), "{report}");
    assert_eq!(code, 0);
}

#[test]
fn help_says_what_is_assumed() {
    let out = common::wellknown(&["parse", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("Default: the media type the probe asks for"), "{help}");
}
