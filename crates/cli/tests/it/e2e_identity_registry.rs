//! End to end: the issue-17 identity plugins (`oauth-protected-resource`, `jwks.json`,
//! `uma2-configuration`, `openid-federation`, `agent-card.json`) on the shared fixture host
//! `registry.test`, which serves a real document for each suffix (`tests/fixtures/SOURCES.md`). Each
//! relation is in the output with its evidence (document, JSON pointer), and the origins and issuers
//! they reveal that are in scope are scanned at depth 1.

use crate::common;

use common::{document, of_type, requests_to, scan_in};
use serde_json::Value;

const PROBES: [&str; 6] = [
    "oauth-protected-resource",
    "jwks.json",
    "uma2-configuration",
    "openid-federation",
    "agent-card.json",
    "openid-configuration",
];

/// The first candidate record `(kind, relation, value)`.
fn candidate<'a>(records: &'a [Value], kind: &str, relation: &str, value: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == "candidate" && r["kind"] == kind && r["relation"] == relation && r["value"] == value)
        .unwrap_or_else(|| panic!("no {kind} {relation} {value} candidate"))
}

fn pointer(c: &Value) -> &str {
    c["evidence"]["locator"]["json_pointer"].as_str().unwrap_or_default()
}

fn doc_codes(records: &[Value], probe: &str) -> Vec<String> {
    let mut v: Vec<String> = records
        .iter()
        .filter(|r| r["type"] == "diagnostic" && r["probe"] == probe)
        .filter_map(|r| r["code"].as_str().map(str::to_string))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn registry_test_identity_documents_reveal_issuers_origins_and_keys() {
    let server =
        common::own_server(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites"));
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--no-store", "--no-verify", "--rate", "0", "--depth", "1"];
    for scope in
        ["registry.test", "spacecorps-game.sliplane.app", "iam-provider.aimerzarashi.com", "accounts.google.com"]
    {
        args.extend(["--scope", scope]);
    }
    for p in PROBES {
        args.extend(["--probe", p]);
    }
    args.push("https://registry.test");
    let (code, records, stderr) = scan_in(dir.path(), &server, &args);
    assert_eq!(code, 0, "{stderr}");
    for suffix in
        ["oauth-protected-resource", "jwks.json", "uma2-configuration", "openid-federation", "agent-card.json"]
    {
        let url = format!("https://registry.test/.well-known/{suffix}");
        assert_eq!(document(&records, &url).unwrap_or_else(|| panic!("{url}"))["status"], 200, "{url}");
    }

    // RFC 9728: the authorization server is an issuer; `resource` names another origin.
    let issuer = candidate(&records, "issuer", "authorization_server", "https://spacecorps-game.sliplane.app");
    assert_eq!(pointer(issuer), "/authorization_servers/0");
    assert_eq!(issuer["evidence"]["document_url"], "https://registry.test/.well-known/oauth-protected-resource");
    assert_eq!(issuer["evidence"]["probe"], "oauth-protected-resource");
    assert!(doc_codes(&records, "oauth-protected-resource").contains(&"resource_mismatch".to_string()));

    // jwks.json: the key by its RFC 7638 thumbprint.
    let key = candidate(
        &records,
        "key",
        "jwks_key",
        "urn:ietf:params:oauth:jwk-thumbprint:sha-256:jkk1CJnSyY70ZA-tiR_mf5TDt-Y0v4_BnNS9XhuVSj0",
    );
    assert_eq!(pointer(key), "/keys/0");

    // UMA: the realm issuer differs from registry.test's, so it is followed and its own document read.
    let realm = "https://iam-provider.aimerzarashi.com/realms/aimerzarashi";
    assert_eq!(pointer(candidate(&records, "issuer", "issuer", realm)), "/issuer");
    let followed = document(&records, &format!("{realm}/.well-known/uma2-configuration")).expect("realm document");
    assert_eq!(followed["status"], 200);
    candidate(&records, "endpoint", "permission_endpoint", &format!("{realm}/authz/protection/permission"));

    // OpenID Federation: the RS256 signature verifies; trust mark issuers are origins.
    let tmi = candidate(&records, "origin", "trust_mark_issuer", "https://registry.spid.agid.gov.it");
    assert_eq!(pointer(tmi), "/trust_mark_issuers/https:~1~1www.spid.gov.it~1certification~1rp~1private/0");
    let fed = doc_codes(&records, "openid-federation");
    assert!(fed.contains(&"entity_id_mismatch".to_string()) && fed.contains(&"expired".to_string()), "{fed:?}");
    assert!(!fed.contains(&"invalid_signature".to_string()), "{fed:?}");

    // A2A: the OpenID Connect scheme's issuer.
    let google = candidate(&records, "issuer", "openid_connect_issuer", "https://accounts.google.com");
    assert_eq!(pointer(google), "/securitySchemes/google/openIdConnectSecurityScheme/openIdConnectUrl");

    // Depth 1: in-scope origins and issuers revealed are scanned.
    let inventory = of_type(&records, "inventory");
    for origin in
        ["https://spacecorps-game.sliplane.app", "https://accounts.google.com", "https://iam-provider.aimerzarashi.com"]
    {
        let i = inventory
            .iter()
            .find(|i| i["value"] == origin)
            .unwrap_or_else(|| panic!("no inventory record for {origin}"));
        assert_eq!((i["action"].as_str(), i["depth"].as_u64()), (Some("queued"), Some(1)), "{i}");
        assert_eq!(i["revealed_by"], "https://registry.test");
    }
    let units: Vec<(&str, u64)> = of_type(&records, "origin")
        .into_iter()
        .filter_map(|o| Some((o["origin"].as_str()?, o["depth"].as_u64()?)))
        .collect();
    assert!(units.contains(&("https://accounts.google.com", 1)), "{units:?}");
    assert!(units.contains(&(realm, 1)), "the realm issuer unit: {units:?}");
    let google_doc =
        document(&records, "https://accounts.google.com/.well-known/openid-configuration").expect("depth 1");
    assert_eq!(google_doc["status"], 200);
    // The authorization server's origin is scanned at depth 1 with every selected probe; the fixture
    // server holds no site (and no certificate) for it, so its documents fail at TLS, each recorded.
    let sliplane = of_type(&records, "origin")
        .into_iter()
        .find(|o| o["origin"] == "https://spacecorps-game.sliplane.app")
        .expect("depth-1 unit");
    assert_eq!(
        (sliplane["depth"].as_u64(), sliplane["documents"].as_u64()),
        (Some(1), Some(PROBES.len() as u64)),
        "{sliplane}"
    );
    // Out of scope: revealed, recorded, never requested.
    let spid = inventory.iter().find(|i| i["value"] == "https://registry.spid.agid.gov.it").expect("inventory");
    assert_eq!(spid["action"], "out_of_scope");
    assert!(requests_to(&server, "registry.spid.agid.gov.it").is_empty());
}
