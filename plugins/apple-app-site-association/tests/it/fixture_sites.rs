//! The synthetic fixture hosts under `tests/fixtures/sites/` that the end-to-end tests serve
//! (documented in `tests/fixtures/SOURCES.md`): a file only at the legacy root location and an
//! HTML soft 404.

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Report, Timestamp};

fn fixture(host: &str, path: &str) -> Option<Vec<u8>> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/sites/{host}{path}"))).ok()
}

fn parse(host: &str, path: &str, content_type: Option<&str>) -> Report {
    let body = fixture(host, path).expect("fixture exists");
    let url = Url::parse(&format!("https://{host}{path}")).expect("url");
    wellknown_apple_app_site_association::interpret(
        &body,
        &FetchMeta::synthetic(url, content_type, Timestamp::UNIX_EPOCH),
    )
}

#[test]
fn legacy_only_host() {
    assert!(
        fixture("aasa-legacy.example", "/.well-known/apple-app-site-association").is_none(),
        "only the legacy file"
    );
    let r = parse("aasa-legacy.example", "/apple-app-site-association", None);
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.warnings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["legacy_location"]);
    assert_eq!(r.values(CandidateKind::App).collect::<Vec<_>>(), ["apple:ABCDE12345.example.legacy.app"; 2]);
    assert_eq!(r.values(CandidateKind::Path).collect::<Vec<_>>(), ["/open/*", "/account/settings", "/account/*"]);
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://aasa-legacy.example/account/settings"]);
    assert_eq!(r.values(CandidateKind::Host).collect::<Vec<_>>(), ["aasa-legacy.example"]);
}

#[test]
fn spa_soft_404_is_not_json() {
    let r = parse("spa.example", "/.well-known/apple-app-site-association", Some("text/html"));
    let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["invalid_content_type", "invalid_json"]);
    assert!(r.candidates.is_empty());
}
