//! The real OpenID Connect discovery documents of `tests/fixtures/sites/` (see
//! `tests/fixtures/SOURCES.md`) read with the candidates a reader expects.

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, CandidateRef, FetchMeta, Report};

/// Interprets `tests/fixtures/sites/<host_path>` as served from `https://<host_path>`.
fn read(host_path: &str) -> Report {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host_path);
    let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let url = Url::parse(&format!("https://{host_path}")).expect("fixture URL");
    let meta = FetchMeta::synthetic(url, Some("application/json"), "2026-12-01T12:00:00Z".parse().expect("time"));
    wellknown_openid_configuration::interpret(&body, &meta)
}

fn codes(r: &Report) -> (Vec<&str>, Vec<&str>) {
    (r.errors.iter().map(|d| d.code.as_str()).collect(), r.warnings.iter().map(|d| d.code.as_str()).collect())
}

fn relation<'a>(r: &'a Report, relation: &str) -> Option<CandidateRef<'a>> {
    r.candidates.iter().find(|c| c.relation() == relation)
}

fn value<'a>(r: &'a Report, relation: &str) -> &'a str {
    relation_value(r, relation).unwrap_or_else(|| panic!("no {relation} candidate"))
}

fn relation_value<'a>(r: &'a Report, rel: &str) -> Option<&'a str> {
    relation(r, rel).map(|c| c.value())
}

fn hosts(r: &Report) -> Vec<&str> {
    let mut v: Vec<&str> = r.values(CandidateKind::Host).collect();
    v.sort_unstable();
    v
}

#[path = "../../benches/fixtures/mod.rs"]
mod fixtures;
use fixtures::OIDC;

#[test]
fn every_provider_parses_with_issuer_endpoints_and_jwks_follow_up() {
    for path in OIDC {
        let r = read(path);
        assert_eq!(r.kind, "openid-configuration", "{path}");
        assert_eq!(r.values(CandidateKind::Issuer).count(), 1, "{path}: one issuer");
        assert!(r.values(CandidateKind::Endpoint).count() >= 2, "{path}: endpoints");
        let jwks = value(&r, "jwks_uri");
        assert_eq!(r.follow_ups.iter().filter(|f| f.probe == "jwks" && f.url.as_str() == jwks).count(), 1, "{path}");
        // No candidate value is relative or unnormalised: every endpoint parses back to itself.
        for c in r.candidates.iter().filter(|c| c.kind() == CandidateKind::Endpoint) {
            assert_eq!(Url::parse(c.value()).expect("absolute").as_str(), c.value(), "{path}");
            assert!(matches!(c.locator(), Some(wellknown_core::Locator::JsonPointer(_))), "{path}");
        }
    }
}

#[test]
fn google() {
    let r = read("accounts.google.com/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec![]));
    assert!(r.valid());
    assert_eq!(value(&r, "issuer"), "https://accounts.google.com");
    assert_eq!(value(&r, "token_endpoint"), "https://oauth2.googleapis.com/token");
    assert_eq!(value(&r, "authorization_endpoint"), "https://accounts.google.com/o/oauth2/v2/auth");
    assert_eq!(value(&r, "device_authorization_endpoint"), "https://oauth2.googleapis.com/device/code");
    assert_eq!(value(&r, "userinfo_endpoint"), "https://openidconnect.googleapis.com/v1/userinfo");
    assert_eq!(value(&r, "jwks_uri"), "https://www.googleapis.com/oauth2/v3/certs");
    assert_eq!(hosts(&r), vec!["oauth2.googleapis.com", "openidconnect.googleapis.com", "www.googleapis.com"]);
    assert!(r.candidates.iter().filter(|c| c.kind() == CandidateKind::Host).all(|c| c.relation() == "endpoint_host"));
    assert_eq!(r.facts["issuer"], "https://accounts.google.com");
    assert_eq!(r.facts["construction"], "root");
}

#[test]
fn microsoft_templated_issuer_is_a_mismatch_without_follow_up() {
    for tenant in ["common", "organizations"] {
        let r = read(&format!("login.microsoftonline.com/{tenant}/v2.0/.well-known/openid-configuration"));
        assert_eq!(codes(&r), (vec!["issuer_mismatch"], vec![]), "{tenant}");
        let issuer = relation(&r, "issuer").expect("issuer candidate");
        assert_eq!(issuer.value(), "https://login.microsoftonline.com/{tenantid}/v2.0");
        assert!(issuer.has_flag("templated"));
        assert_eq!(r.facts["issuer"], format!("https://login.microsoftonline.com/{tenant}/v2.0"));
        assert_eq!(r.facts["construction"], "appended");
        // A templated issuer is not an issuer to probe: only the JWKS is followed.
        assert_eq!(r.follow_ups.len(), 1);
        assert_eq!(
            r.follow_ups[0].url.as_str(),
            format!("https://login.microsoftonline.com/{tenant}/discovery/v2.0/keys")
        );
        assert_eq!(
            value(&r, "token_endpoint"),
            format!("https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token")
        );
        assert_eq!(value(&r, "kerberos_endpoint"), format!("https://login.microsoftonline.com/{tenant}/kerberos"));
        assert_eq!(value(&r, "userinfo_endpoint"), "https://graph.microsoft.com/oidc/userinfo");
        assert_eq!(value(&r, "rbac_url"), "https://pas.windows.net/");
        assert_eq!(value(&r, "cloud_graph_host_name"), "graph.windows.net");
        assert_eq!(hosts(&r), vec!["graph.microsoft.com", "graph.windows.net", "pas.windows.net"]);
    }
}

#[test]
fn trailing_slash_issuers_are_warnings() {
    let r = read("login.docker.com/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec!["issuer_trailing_slash"]));
    assert_eq!(value(&r, "issuer"), "https://login.docker.com/");
    assert_eq!(value(&r, "mfa_challenge_endpoint"), "https://login.docker.com/mfa/challenge");
    let r = read("mojeid.cz/oidc/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec!["issuer_trailing_slash"]));
    assert_eq!(r.facts["issuer"], "https://mojeid.cz/oidc");
    assert_eq!(value(&r, "registration_endpoint"), "https://mojeid.cz/oidc/registration/");
    assert!(r.follow_ups.iter().all(|f| f.probe == "jwks"), "a trailing slash names the same document");
}

#[test]
fn issuer_with_a_path() {
    let r = read("id.twitch.tv/oauth2/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec![]));
    assert_eq!(r.facts["issuer"], "https://id.twitch.tv/oauth2");
    assert_eq!(r.facts["construction"], "appended");
    assert_eq!(value(&r, "token_endpoint"), "https://id.twitch.tv/oauth2/token");
    assert!(hosts(&r).is_empty());
}

#[test]
fn facebook_is_implicit_only_with_endpoints_on_the_apex() {
    let r = read("www.facebook.com/.well-known/openid-configuration");
    // No token_endpoint: allowed, every response type is implicit.
    assert_eq!(codes(&r), (vec![], vec!["missing_userinfo_endpoint", "missing_scopes_supported"]));
    assert_eq!(relation_value(&r, "token_endpoint"), None);
    assert_eq!(value(&r, "authorization_endpoint"), "https://facebook.com/dialog/oauth/");
    assert_eq!(hosts(&r), vec!["facebook.com"]);
}

#[test]
fn providers_with_endpoints_on_api_hosts() {
    let r = read("www.paypal.com/.well-known/openid-configuration");
    assert!(r.valid());
    assert_eq!(value(&r, "token_endpoint"), "https://api.paypal.com/v1/oauth2/token");
    assert_eq!(hosts(&r), vec!["api.paypal.com"]);
    let r = read("www.dropbox.com/.well-known/openid-configuration");
    assert_eq!(value(&r, "token_endpoint"), "https://api.dropboxapi.com/oauth2/token");
    assert_eq!(hosts(&r), vec!["api.dropboxapi.com"]);
}

#[test]
fn recommended_members_missing() {
    let r = read("discord.com/.well-known/openid-configuration");
    assert!(r.valid());
    assert_eq!(codes(&r).1, vec!["missing_userinfo_endpoint", "missing_scopes_supported", "missing_claims_supported"]);
    let r = read("oauth.battle.net/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec!["missing_scopes_supported", "missing_claims_supported"]));
    assert_eq!(value(&r, "introspection_endpoint"), "https://oauth.battle.net/v2/check_token");
    let r = read("appleid.apple.com/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec!["missing_userinfo_endpoint"]));
    assert_eq!(value(&r, "revocation_endpoint"), "https://appleid.apple.com/auth/revoke");
}

#[test]
fn provider_extensions_are_kept() {
    let r = read("api.login.yahoo.com/.well-known/openid-configuration");
    let c = relation(&r, "token_revocation_endpoint").expect("unknown *_endpoint member harvested");
    assert_eq!((c.kind(), c.value()), (CandidateKind::Endpoint, "https://api.login.yahoo.com/oauth2/revoke"));
    let r = read("identity.lego.com/.well-known/openid-configuration");
    assert_eq!(value(&r, "one_time_token_endpoint"), "https://identity.lego.com/api/v1/OneTimeToken/issue");
    assert_eq!(value(&r, "check_session_iframe"), "https://identity.lego.com/connect/checksession");
    assert_eq!(value(&r, "pushed_authorization_request_endpoint"), "https://identity.lego.com/connect/par");
}

#[test]
fn clean_providers() {
    for path in [
        "accounts.spotify.com/.well-known/openid-configuration",
        "gitlab.com/.well-known/openid-configuration",
        "identity.lego.com/.well-known/openid-configuration",
        "login.klarna.com/.well-known/openid-configuration",
        "slack.com/.well-known/openid-configuration",
        "web.verimi.de/.well-known/openid-configuration",
        "www.paypal.com/.well-known/openid-configuration",
    ] {
        assert_eq!(codes(&read(path)), (vec![], vec![]), "{path}");
    }
}

#[test]
fn synthetic_fixtures_for_end_to_end() {
    let r = read("leaky-idp.example/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec![]));
    assert_eq!(hosts(&r), vec!["api.leaky-idp.example"]);
    assert_eq!(r.follow_ups[0].url.as_str(), "https://leaky-idp.example/oauth2/jwks.json");

    let r = read("tenant-idp.example/tenant1/.well-known/openid-configuration");
    assert_eq!(codes(&r), (vec![], vec![]));
    assert_eq!(r.facts["construction"], "appended");
    assert_eq!(value(&r, "mtls_endpoint_aliases.token_endpoint"), "https://mtls.tenant-idp.example/tenant1/token");
    assert_eq!(
        hosts(&r),
        vec![
            "graph.tenant-idp.example",
            "keys.tenant-idp.example",
            "mtls.tenant-idp.example",
            "tokens.tenant-idp.example"
        ]
    );

    let r = read("inserted-idp.example/.well-known/openid-configuration/tenant1");
    assert_eq!(codes(&r), (vec![], vec!["rfc8414_style_location"]));
    assert_eq!(r.facts["issuer"], "https://inserted-idp.example/tenant1");
    assert_eq!(r.facts["construction"], "inserted");
}
