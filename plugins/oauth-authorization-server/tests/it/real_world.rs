//! The real RFC 8414 documents of `tests/fixtures/sites/` (see `tests/fixtures/SOURCES.md`) and the
//! synthetic JWK Set with a leaked private key, read with the candidates a reader expects.

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Report};
use wellknown_oauth_metadata::jwks;

fn load(host_path: &str) -> (Vec<u8>, FetchMeta) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host_path);
    let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let url = Url::parse(&format!("https://{host_path}")).expect("fixture URL");
    (body, FetchMeta::synthetic(url, Some("application/json"), "2026-12-01T12:00:00Z".parse().expect("time")))
}

fn read(host_path: &str) -> Report {
    let (body, meta) = load(host_path);
    wellknown_oauth_authorization_server::interpret(&body, &meta)
}

fn value<'a>(r: &'a Report, relation: &str) -> &'a str {
    r.candidates.iter().find(|c| c.relation() == relation).map(|c| c.value()).unwrap_or_else(|| panic!("{relation}"))
}

fn codes(r: &Report) -> (Vec<&str>, Vec<&str>) {
    (r.errors.iter().map(|d| d.code.as_str()).collect(), r.warnings.iter().map(|d| d.code.as_str()).collect())
}

#[test]
fn mcp_servers() {
    for host in ["mcp.canva.com", "mcp.linear.app", "mcp.notion.com", "mcp.sentry.dev"] {
        let r = read(&format!("{host}/.well-known/oauth-authorization-server"));
        assert_eq!(codes(&r), (vec![], vec![]), "{host}");
        assert_eq!(value(&r, "issuer"), format!("https://{host}"));
        assert_eq!(r.facts["construction"], "root");
        assert!(r.values(CandidateKind::Host).next().is_none(), "{host}: every endpoint on the issuer's host");
        assert!(r.follow_ups.is_empty(), "{host}: no jwks_uri, matching issuer");
    }
    let r = read("mcp.sentry.dev/.well-known/oauth-authorization-server");
    assert_eq!(value(&r, "token_endpoint"), "https://mcp.sentry.dev/oauth/token");
    assert_eq!(value(&r, "registration_endpoint"), "https://mcp.sentry.dev/oauth/register");
    let r = read("mcp.notion.com/.well-known/oauth-authorization-server");
    assert_eq!(value(&r, "introspection_endpoint"), "https://mcp.notion.com/introspect");
    let r = read("mcp.linear.app/.well-known/oauth-authorization-server");
    assert_eq!(value(&r, "resource_metadata"), "https://mcp.linear.app/.well-known/oauth-protected-resource/mcp");
}

#[test]
fn bluesky_empty_encryption_lists_are_invalid() {
    let r = read("bsky.social/.well-known/oauth-authorization-server");
    // "Claims with zero elements MUST be omitted" (RFC 8414 section 3.2): two empty arrays.
    assert_eq!(
        codes(&r),
        (
            vec![
                "invalid_request_object_encryption_alg_values_supported",
                "invalid_request_object_encryption_enc_values_supported"
            ],
            vec![]
        )
    );
    assert_eq!(value(&r, "pushed_authorization_request_endpoint"), "https://bsky.social/oauth/par");
    assert_eq!(value(&r, "token_endpoint"), "https://bsky.social/oauth/token");
    assert_eq!(r.follow_ups.len(), 1);
    assert_eq!(
        (r.follow_ups[0].probe.as_str(), r.follow_ups[0].url.as_str()),
        ("jwks", "https://bsky.social/oauth/jwks")
    );
}

#[test]
fn issuer_with_a_path_at_the_inserted_form() {
    let r = read("tenant-idp.example/.well-known/oauth-authorization-server/tenant1");
    assert_eq!(codes(&r), (vec![], vec![]));
    assert_eq!(r.facts["issuer"], "https://tenant-idp.example/tenant1");
    assert_eq!(r.facts["construction"], "inserted");
    let mut hosts: Vec<&str> = r.values(CandidateKind::Host).collect();
    hosts.sort_unstable();
    assert_eq!(hosts, vec!["keys.tenant-idp.example", "tokens.tenant-idp.example"]);
}

#[test]
fn the_oidc_document_read_as_rfc8414_at_the_appended_form_is_misplaced() {
    // The OpenID document of tenant1 sits at the appended form, which RFC 8414 does not use.
    let (body, mut meta) = load("tenant-idp.example/tenant1/.well-known/openid-configuration");
    meta.url = Url::parse("https://tenant-idp.example/tenant1/.well-known/oauth-authorization-server").unwrap();
    meta.requested_url = meta.url.clone();
    let r = wellknown_oauth_authorization_server::interpret(&body, &meta);
    assert_eq!(codes(&r), (vec!["wrong_well_known_location"], vec![]));
    let issuer = r.follow_ups.iter().find(|f| f.role == "issuer").expect("issuer follow-up");
    assert_eq!(
        (issuer.probe.as_str(), issuer.url.as_str()),
        ("oauth-authorization-server", "https://tenant-idp.example/tenant1")
    );
}

#[test]
fn leaked_private_key_in_jwks() {
    let (body, mut meta) = load("leaky-idp.example/oauth2/jwks.json");
    meta.content_type = Some("application/jwk-set+json".into());
    let r = jwks::interpret(&body, &meta);
    assert_eq!(codes(&r), (vec!["private_key_material"], vec![]));
    assert_eq!(r.errors[0].locator, Some(wellknown_core::Locator::JsonPointer("/keys/1/d".into())));
    assert!(r.errors[0].message.contains("ec-leaked"));
    assert_eq!(r.candidates.len(), 2);
    let rsa = &r.candidates.get(0).unwrap();
    assert_eq!(rsa.kind(), CandidateKind::Key);
    assert_eq!(rsa.relation(), "jwks_key");
    // Thumbprints computed independently (Python: sorted required members, no whitespace, SHA-256).
    assert_eq!(rsa.value(), "urn:ietf:params:oauth:jwk-thumbprint:sha-256:xYN7cJE2iglTvTAWrbdLpVFFulz24y3D1aj148MS_3Q");
    assert_eq!(rsa.hint("kid").unwrap(), "rsa-2026");
    assert_eq!(rsa.hint("use").unwrap(), "sig");
    assert_eq!(rsa.hint("alg").unwrap(), "RS256");
    assert_eq!(rsa.hint("x5c_subject").unwrap(), "O=Example Leaky IdP,CN=leaky-idp.example");
    assert_eq!(rsa.hint("x5c_sha256").unwrap(), "4o0jK3XSFGXZbbINK4AYLUEtpcY1u8WuF_pKBthI_UY");
    assert!(!rsa.has_flag("private_key_material"));
    let ec = &r.candidates.get(1).unwrap();
    assert_eq!(ec.value(), "urn:ietf:params:oauth:jwk-thumbprint:sha-256:dHv7P6KIRVI63GorI_wiF1oNQs2BZYu0dKzlOWTJoi0");
    assert_eq!(ec.hint("kty").unwrap(), "EC");
    assert!(ec.has_flag("private_key_material"));
    assert_eq!(r.facts["key_count"], 2);
}
