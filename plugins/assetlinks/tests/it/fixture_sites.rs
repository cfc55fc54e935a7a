//! The synthetic fixture hosts under `tests/fixtures/sites/` that the end-to-end tests serve
//! (documented in `tests/fixtures/SOURCES.md`): a two-step include chain and an HTML soft 404.

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Report, Timestamp};

fn parse(host: &str, path: &str, content_type: &str) -> Report {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/sites/{host}{path}"));
    let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let url = Url::parse(&format!("https://{host}{path}")).expect("url");
    wellknown_assetlinks::interpret(&body, &FetchMeta::synthetic(url, Some(content_type), Timestamp::UNIX_EPOCH))
}

fn follow_ups(r: &Report) -> Vec<(&str, &str, &str)> {
    r.follow_ups.iter().map(|f| (f.probe.as_str(), f.url.as_str(), f.role.as_str())).collect()
}

#[test]
fn include_chain_two_steps() {
    let root = parse("assetlinks-include.example", "/.well-known/assetlinks.json", "application/json");
    assert!(root.valid(), "{:?}", root.errors);
    assert_eq!(follow_ups(&root), [("assetlinks", "https://assetlinks-include.example/shared/links.json", "include")]);

    let links = parse("assetlinks-include.example", "/shared/links.json", "application/json");
    assert!(links.valid(), "{:?}", links.errors);
    assert_eq!(links.values(CandidateKind::Origin).collect::<Vec<_>>(), ["https://login.assetlinks-include.example"]);
    assert_eq!(
        links.values(CandidateKind::Host).collect::<Vec<_>>(),
        ["login.assetlinks-include.example", "assetlinks-include.example"]
    );
    assert_eq!(follow_ups(&links), [("assetlinks", "https://assetlinks-include.example/shared/apps.json", "include")]);

    let apps = parse("assetlinks-include.example", "/shared/apps.json", "application/json");
    assert!(apps.valid(), "{:?}", apps.errors);
    assert_eq!(apps.values(CandidateKind::App).collect::<Vec<_>>(), ["android:example.assetlinks.include"]);
    assert_eq!(apps.values(CandidateKind::Key).count(), 1);
    assert!(apps.follow_ups.is_empty());
}

#[test]
fn spa_soft_404_is_not_a_statement_list() {
    let r = parse("spa.example", "/.well-known/assetlinks.json", "text/html; charset=utf-8");
    let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["invalid_content_type", "invalid_json"]);
    assert_eq!(r.kind, "invalid");
    assert!(r.candidates.is_empty());
}
