//! `interpret` never panics, whatever the bytes or the member values.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

const MEMBERS: &[&str] = &[
    "resource",
    "authorization_servers",
    "jwks_uri",
    "scopes_supported",
    "bearer_methods_supported",
    "resource_signing_alg_values_supported",
    "resource_name#fr",
    "resource_documentation",
    "dpop_bound_access_tokens_required",
    "x_url",
];

fn value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        prop_oneof![
            Just("https://a.example/api".to_string()),
            Just("https://a.example".to_string()),
            Just("http://b.example/x?y#z".to_string()),
            Just("none".to_string()),
            Just("header".to_string()),
            "[ -~]{0,16}",
        ]
        .prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::vec((prop::sample::select(MEMBERS), inner), 0..5).prop_map(|kv| {
                serde_json::Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

fn meta(path: &str, truncated: bool) -> FetchMeta {
    let url = Url::parse(&format!("https://a.example{path}")).unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_oauth_protected_resource::OauthProtectedResourceProbe, &body, &meta("/.well-known/oauth-protected-resource", truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_oauth_protected_resource::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn structured_documents_never_panic(v in value(), path in prop::sample::select(vec![
        "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/api", "/api/.well-known/oauth-protected-resource", "/x"])) {
        let body = serde_json::to_vec(&v).unwrap();
        let r = check_interpret(&wellknown_oauth_protected_resource::OauthProtectedResourceProbe, &body, &meta(path, false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
