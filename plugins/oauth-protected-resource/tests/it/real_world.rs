//! The real protected resource metadata of `tests/fixtures/sites/mcp.*` (MCP servers' responses,
//! `tests/fixtures/SOURCES.md`, source `fx-mcp`) read with the candidates a client uses.

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Locator, Report};

/// Interprets `tests/fixtures/sites/<host_path>` as served from `https://<host_path>`.
fn read(host_path: &str) -> Report {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host_path);
    let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let url = Url::parse(&format!("https://{host_path}")).expect("fixture URL");
    let meta = FetchMeta::synthetic(url, Some("application/json"), "2026-12-01T12:00:00Z".parse().expect("time"));
    wellknown_oauth_protected_resource::interpret(&body, &meta)
}

fn codes(r: &Report) -> (Vec<&str>, Vec<&str>) {
    (r.errors.iter().map(|d| d.code.as_str()).collect(), r.warnings.iter().map(|d| d.code.as_str()).collect())
}

#[test]
fn sentry_path_inserted_resource_matches() {
    let r = read("mcp.sentry.dev/.well-known/oauth-protected-resource/mcp");
    assert_eq!(codes(&r), (vec![], vec!["missing_resource_name"]));
    assert_eq!(r.facts["expected_resource"], "https://mcp.sentry.dev/mcp");
    assert_eq!(r.facts["construction"], "inserted");
    let issuers: Vec<(&str, Option<Locator>)> =
        r.candidates.iter().filter(|c| c.kind() == CandidateKind::Issuer).map(|c| (c.value(), c.locator())).collect();
    assert_eq!(issuers, [("https://mcp.sentry.dev", Some(Locator::JsonPointer("/authorization_servers/0".into())))]);
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://mcp.sentry.dev/mcp"]);
    assert!(r.candidates.iter().all(|c| c.flags().next().is_none()));
}

#[test]
fn linear_resource_with_a_path_at_the_root_location_is_a_mismatch() {
    // MCP clients fall back to the root location; RFC 9728 section 3.3 still binds `resource` to it.
    let r = read("mcp.linear.app/.well-known/oauth-protected-resource");
    assert_eq!(codes(&r), (vec!["resource_mismatch"], vec!["missing_resource_name"]));
    assert_eq!(r.errors[0].locator, Some(Locator::JsonPointer("/resource".into())));
    assert_eq!(r.facts["expected_resource"], "https://mcp.linear.app");
    assert_eq!(r.facts["resource"], "https://mcp.linear.app/mcp");
    let issuer = r.candidates.iter().find(|c| c.kind() == CandidateKind::Issuer).expect("issuer");
    assert_eq!(issuer.value(), "https://mcp.linear.app");
    assert!(issuer.has_flag("resource_mismatch"));
}

#[test]
fn canva_and_notion_are_valid() {
    let r = read("mcp.canva.com/.well-known/oauth-protected-resource");
    assert_eq!(codes(&r), (vec![], vec!["missing_resource_name"]));
    assert_eq!(r.values(CandidateKind::Issuer).collect::<Vec<_>>(), ["https://mcp.canva.com"]);
    assert_eq!(r.facts["authorization_server_count"], 1);
    let r = read("mcp.notion.com/.well-known/oauth-protected-resource");
    assert_eq!(codes(&r), (vec![], vec![]));
    assert_eq!(r.values(CandidateKind::Issuer).collect::<Vec<_>>(), ["https://mcp.notion.com"]);
    assert!(r.values(CandidateKind::Host).next().is_none(), "no other host");
}
