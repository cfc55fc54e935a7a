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

/// `parse` reads a file only up to the probe's fetch cap and flags it truncated, as the scan's
/// fetcher does (tryout4 item 2): a 1.8 MB statement list is `too_large` + `invalid_json` with no
/// candidates, exactly the scan's answer, instead of a valid list of 40,001 candidates.
#[test]
fn parse_applies_the_probe_body_cap_like_the_fetcher() {
    let dir = tempfile::tempdir().unwrap();
    // Writes `body` to `name` and parses it as `probe` fetched from `url`: exit code and report.
    let parse = |name: &str, body: &str, probe: &str, url: &str| {
        let file = dir.path().join(name);
        std::fs::write(&file, body).unwrap();
        let out = common::wellknown(&["parse", probe, &file.display().to_string(), "--url", url]);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), report)
    };
    let al_url = "https://al-big.test/.well-known/assetlinks.json";
    let items: Vec<String> =
        (0..40_000).map(|i| format!(r#"{{"include":"https://al-big.test/inc/{i:05}.json"}}"#)).collect();
    let big = format!("[{}]", items.join(","));
    assert!(big.len() > 1024 * 1024);
    let (code, report) = parse("assetlinks.json", &big, "assetlinks", al_url);
    assert_eq!(code, Some(1), "{report}");
    let errors: Vec<&str> = report["errors"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(errors, vec!["too_large", "invalid_json"], "{report}");
    assert!(report["errors"][1]["message"].as_str().unwrap().contains("column 1048576"), "{report}");
    assert_eq!(report["candidates"].as_array().map(Vec::len), Some(0));

    // The same list under the cap is read whole.
    let small = format!("[{}]", items.iter().take(100).cloned().collect::<Vec<_>>().join(","));
    let (code, report) = parse("small.json", &small, "assetlinks", al_url);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report["facts"]["include_statements"], 100);

    // A JSON metadata document over 1 MiB is cut the same way (the scan's invalid_json answer).
    let oidc = format!(r#"{{"issuer":"https://idp.test","x":"{}"}}"#, "a".repeat(1_100_000));
    let oidc_url = "https://idp.test/.well-known/openid-configuration";
    let (_, report) = parse("oidc.json", &oidc, "openid-configuration", oidc_url);
    let errors: Vec<&str> = report["errors"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect();
    assert!(errors.contains(&"too_large") && errors.contains(&"invalid_json"), "{errors:?}");
}
