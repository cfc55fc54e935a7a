//! End to end: OpenID Connect discovery and RFC 8414 metadata through the fixture server: an issuer
//! with a path on both constructions, endpoints on other hosts feeding the inventory, a JWKS with a
//! leaked private key, and a 404 at the OIDC location with the RFC 8414 form present.

use crate::common;

use common::{candidates, codes, document, scan};

#[test]
fn issuer_with_path_is_found_on_both_constructions() {
    let (code, records, stderr) = scan(&[
        "--probe",
        "openid-configuration",
        "--probe",
        "oauth-authorization-server",
        "--issuer",
        "https://tenant-idp.example/tenant1",
        "https://tenant-idp.example",
    ]);
    assert_eq!(code, 0, "{stderr}");
    // OIDC: appended after the issuer's path.
    let oidc = document(&records, "https://tenant-idp.example/tenant1/.well-known/openid-configuration").expect("oidc");
    assert_eq!(oidc["status"], 200);
    assert_eq!(oidc["probe"], "openid-configuration");
    // RFC 8414: inserted between host and path.
    let oauth =
        document(&records, "https://tenant-idp.example/.well-known/oauth-authorization-server/tenant1").expect("8414");
    assert_eq!(oauth["status"], 200);
    assert_eq!(oauth["probe"], "oauth-authorization-server");
    // The origin-level documents (issuer = origin) were looked for too, and are absent.
    assert_eq!(
        document(&records, "https://tenant-idp.example/.well-known/openid-configuration").unwrap()["status"],
        404
    );
    // Endpoints on other hosts go back to the inventory.
    let hosts = candidates(&records, "host", Some("endpoint_host"));
    for h in
        ["tokens.tenant-idp.example", "graph.tenant-idp.example", "keys.tenant-idp.example", "mtls.tenant-idp.example"]
    {
        assert!(hosts.contains(&h.to_string()), "missing {h} in {hosts:?}");
    }
    let issuers = candidates(&records, "issuer", None);
    assert!(issuers.contains(&"https://tenant-idp.example/tenant1".to_string()), "{issuers:?}");
    let token = records
        .iter()
        .find(|r| r["type"] == "candidate" && r["value"] == "https://tokens.tenant-idp.example/tenant1/token")
        .expect("token endpoint candidate");
    assert_eq!(token["relation"], "token_endpoint");
    assert_eq!(token["in_scope"], true);
    assert_eq!(token["evidence"]["locator"]["json_pointer"], "/token_endpoint");
}

#[test]
fn rfc8414_style_location_is_tried_when_the_oidc_location_is_404() {
    let (code, records, stderr) =
        scan(&["--probe", "openid-configuration", "--issuer", "https://inserted-idp.example/tenant1"]);
    assert_eq!(code, 0, "{stderr}");
    let appended = document(&records, "https://inserted-idp.example/tenant1/.well-known/openid-configuration").unwrap();
    assert_eq!(appended["status"], 404);
    let inserted = "https://inserted-idp.example/.well-known/openid-configuration/tenant1";
    assert_eq!(document(&records, inserted).expect("inserted form")["status"], 200);
    assert!(codes(&records, inserted).contains(&"rfc8414_style_location".to_string()));
}

#[test]
fn leaked_private_key_in_jwks_is_an_error() {
    let (code, records, stderr) =
        scan(&["--probe", "openid-configuration", "--probe", "jwks", "https://leaky-idp.example"]);
    assert_eq!(code, 0, "{stderr}");
    let jwks = document(&records, "https://leaky-idp.example/oauth2/jwks.json").expect("jwks follow-up");
    assert_eq!(jwks["role"], "jwks_uri");
    assert_eq!(jwks["hop"], 1);
    assert_eq!(jwks["valid"], false);
    let diag = records
        .iter()
        .find(|r| r["type"] == "diagnostic" && r["code"] == "private_key_material")
        .expect("private_key_material");
    assert_eq!(diag["severity"], "error");
    assert_eq!(diag["locator"]["json_pointer"], "/keys/1/d");
    let keys = candidates(&records, "key", None);
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(keys.iter().all(|k| k.starts_with("urn:ietf:params:oauth:jwk-thumbprint:sha-256:")));
}
