//! No-panic property tests for the OpenID Connect Discovery interpreter.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

fn meta(url: &str, content_type: Option<&str>) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).unwrap(), content_type, Timestamp::UNIX_EPOCH)
}

const MEMBERS: &[&str] = &[
    "issuer",
    "authorization_endpoint",
    "token_endpoint",
    "jwks_uri",
    "userinfo_endpoint",
    "scopes_supported",
    "response_types_supported",
    "subject_types_supported",
    "id_token_signing_alg_values_supported",
    "claims_supported",
    "mtls_endpoint_aliases",
    "msgraph_host",
    "x_endpoint",
];

fn value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        prop_oneof![
            Just("https://a.example/x".to_string()),
            Just("https://a.example/{tenant}/".to_string()),
            Just("http://b.example".to_string()),
            Just("RS256".to_string()),
            Just("openid".to_string()),
            Just("code".to_string()),
            "[ -~]{0,16}",
        ]
        .prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::vec((prop::sample::select(MEMBERS), inner), 0..4).prop_map(|kv| {
                serde_json::Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

proptest! {
    #[test]
    fn bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), ct in prop::option::of("[ -~]{0,24}")) {
        let r = check_interpret(&wellknown_openid_configuration::OpenIdConfigurationProbe, &body, &meta("https://a.example/t/.well-known/openid-configuration", ct.as_deref())).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn structured_never_panics(members in prop::collection::vec((prop::sample::select(MEMBERS), value()), 0..12)) {
        let doc = serde_json::Value::Object(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
        let body = serde_json::to_vec(&doc).unwrap();
        for url in [
            "https://a.example/.well-known/openid-configuration",
            "https://a.example/.well-known/openid-configuration/t",
            "https://a.example/elsewhere.json",
        ] {
            let r = check_interpret(&wellknown_openid_configuration::OpenIdConfigurationProbe, &body, &meta(url, Some("application/json"))).map_err(TestCaseError::fail)?;
            // Candidates are extracted whatever the diagnostics.
            for c in &r.candidates {
                prop_assert!(!c.value().is_empty());
            }
        }
    }
}
