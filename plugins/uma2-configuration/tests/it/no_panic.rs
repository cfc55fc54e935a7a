//! `interpret` never panics, whatever the bytes or the member values.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

const MEMBERS: &[&str] = &[
    "issuer",
    "token_endpoint",
    "grant_types_supported",
    "permission_endpoint",
    "resource_registration_endpoint",
    "claims_interaction_endpoint",
    "uma_profiles_supported",
    "policy_endpoint",
];

fn value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        prop_oneof![
            Just("https://a.example/r1".to_string()),
            Just("http://b.example/x".to_string()),
            Just("urn:ietf:params:oauth:grant-type:uma-ticket".to_string()),
            "[ -~]{0,16}",
        ]
        .prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(2, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::vec((prop::sample::select(MEMBERS), inner), 0..6).prop_map(|kv| {
                serde_json::Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let url = Url::parse("https://a.example/r1/.well-known/uma2-configuration").unwrap();
        let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
        meta.truncated = truncated;
        let r = check_interpret(&wellknown_uma2_configuration::Uma2ConfigurationProbe, &body, &meta).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_uma2_configuration::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn structured_documents_never_panic(v in value()) {
        let url = Url::parse("https://a.example/.well-known/uma2-configuration").unwrap();
        let meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
        let r = check_interpret(&wellknown_uma2_configuration::Uma2ConfigurationProbe, &serde_json::to_vec(&v).unwrap(), &meta).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
