//! `interpret` never panics, whatever the bytes or the member values.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

const MEMBERS: &[&str] = &[
    "name",
    "url",
    "supportedInterfaces",
    "additionalInterfaces",
    "provider",
    "securitySchemes",
    "type",
    "flows",
    "authorizationCode",
    "tokenUrl",
    "openIdConnectUrl",
    "oauth2SecurityScheme",
    "openIdConnectSecurityScheme",
    "skills",
    "x",
];

fn value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        prop_oneof![
            Just("https://a.example/.well-known/openid-configuration".to_string()),
            Just("/api/a2a".to_string()),
            Just("oauth2".to_string()),
            Just("openIdConnect".to_string()),
            Just("http://b.example/t".to_string()),
            "[ -~]{0,12}",
        ]
        .prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(serde_json::Value::from),
            prop::collection::vec((prop::sample::select(MEMBERS), inner), 0..5).prop_map(|kv| {
                serde_json::Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://a.example/.well-known/agent-card.json").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_agent_card_json::AgentCardJsonProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_agent_card_json::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn structured_cards_never_panic(v in value()) {
        let r = check_interpret(&wellknown_agent_card_json::AgentCardJsonProbe, &serde_json::to_vec(&v).unwrap(), &meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
