//! No-panic property tests: the RFC 8414 and JWK Set probes and the URL constructions over
//! arbitrary input; every report keeps the shared invariants
//! ([`wellknown_conformance::invariants::check_interpret`]).

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_oauth_authorization_server::{JwksProbe, OAuthAuthorizationServerProbe};
use wellknown_oauth_metadata::{expected_issuer_from, jwks, oidc_discovery_url, rfc8414_metadata_url};

fn meta(url: &str) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).unwrap(), Some("application/json"), Timestamp::UNIX_EPOCH)
}

/// JSON-ish text built from metadata member names and values, to reach deep into the checks.
fn jsonish() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("issuer"),
        Just("jwks_uri"),
        Just("token_endpoint"),
        Just("keys"),
        Just("kty"),
        Just("d"),
        Just("k"),
        Just("x5c"),
        Just("mtls_endpoint_aliases"),
        Just("grant_types_supported"),
        Just("response_types_supported"),
        Just("token_endpoint_auth_signing_alg_values_supported"),
        Just("n"),
        Just("e"),
        Just("crv"),
        Just("x"),
        Just("y"),
    ];
    let scalar = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("1".to_string()),
        Just("\"none\"".to_string()),
        Just("\"https://a.example/x\"".to_string()),
        Just("\"http://b.example\"".to_string()),
        Just("\"RSA\"".to_string()),
        Just("\"EC\"".to_string()),
        Just("\"oct\"".to_string()),
        "\"[ -~]{0,12}\"",
    ];
    let leaf = (key.clone(), scalar).prop_map(|(k, v)| format!("\"{k}\":{v}"));
    let value = leaf.prop_recursive(3, 32, 6, move |inner| {
        (key.clone(), prop::collection::vec(inner, 0..5), any::<bool>()).prop_map(|(k, items, arr)| {
            let inside: Vec<String> = items.into_iter().map(|i| format!("{{{i}}}")).collect();
            if arr {
                format!("\"{k}\":[{}]", inside.join(","))
            } else {
                format!("\"{k}\":{}", inside.first().cloned().unwrap_or("{}".into()))
            }
        })
    });
    prop::collection::vec(value, 0..8).prop_map(|members| format!("{{{}}}", members.join(",")))
}

proptest! {
    #[test]
    fn rfc8414_never_panics(body in prop::collection::vec(any::<u8>(), 0..2048)) {
        let r = check_interpret(&OAuthAuthorizationServerProbe, &body, &meta("https://a.example/.well-known/oauth-authorization-server/t"))
            .map_err(TestCaseError::fail)?;
        // The issuer comes from the URL, whatever the body.
        prop_assert_eq!(&r.facts["issuer"], "https://a.example/t");
        prop_assert_eq!(&r.facts["construction"], "inserted");
    }

    #[test]
    fn rfc8414_never_panics_on_jsonish(body in jsonish()) {
        let r = check_interpret(&OAuthAuthorizationServerProbe, body.as_bytes(), &meta("https://a.example/.well-known/oauth-authorization-server"))
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(&r.facts["issuer"], "https://a.example");
        prop_assert_eq!(r.kind == "invalid", r.has_code("invalid_json") || r.has_code("not_json_object"));
    }

    #[test]
    fn jwks_never_panics(body in prop::collection::vec(any::<u8>(), 0..2048)) {
        let r = check_interpret(&JwksProbe, &body, &meta("https://a.example/jwks")).map_err(TestCaseError::fail)?;
        for c in &r.candidates {
            prop_assert!(c.value().starts_with(jwks::THUMBPRINT_URN_PREFIX));
        }
    }

    #[test]
    fn jwks_never_panics_on_jsonish(body in jsonish()) {
        let r = check_interpret(&JwksProbe, body.as_bytes(), &meta("https://a.example/jwks")).map_err(TestCaseError::fail)?;
        if r.kind == "invalid" {
            prop_assert!(r.candidates.is_empty(), "no key is read from a body that is not a JSON object");
        }
        for c in &r.candidates {
            prop_assert!(c.value().starts_with(jwks::THUMBPRINT_URN_PREFIX));
        }
    }

    #[test]
    fn x5c_never_panics(der in prop::collection::vec(any::<u8>(), 0..512)) {
        // No DER certificate is shorter than its fixed fields (a few dozen bytes).
        let subject = wellknown_oauth_metadata::x5c::certificate_subject(&der);
        prop_assert!(der.len() >= 32 || subject.is_none(), "{subject:?}");
    }

    #[test]
    fn constructions_round_trip(host in "[a-z]{1,8}\\.example", path in "(/[a-zA-Z0-9._~-]{1,6}){0,3}") {
        let issuer = Url::parse(&format!("https://{host}{path}")).unwrap();
        // The issuer as the url crate serialises it (dot segments resolved), without a final '/'.
        let issuer_text = issuer.as_str().to_string();
        let (e, _) = expected_issuer_from(&oidc_discovery_url(&issuer), "openid-configuration").unwrap();
        prop_assert_eq!(&e, issuer_text.trim_end_matches('/'));
        let (e, _) = expected_issuer_from(&rfc8414_metadata_url(&issuer, "oauth-authorization-server"), "oauth-authorization-server").unwrap();
        prop_assert_eq!(&e, issuer_text.trim_end_matches('/'));
    }

    #[test]
    fn inverse_never_panics(path in "[ -~]{0,64}") {
        if let Ok(url) = Url::parse(&format!("https://a.example/{path}"))
            && let Some((issuer, _)) = expected_issuer_from(&url, "openid-configuration")
        {
            // The issuer is on the URL's origin and has no trailing slash.
            prop_assert!(issuer.starts_with("https://a.example"), "{issuer}");
            prop_assert!(issuer == "https://a.example" || !issuer.ends_with('/'), "{issuer}");
        }
    }
}
