//! `interpret` never panics, whatever the bytes, and on JWTs built from arbitrary claims.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

const CLAIMS: &[&str] = &[
    "iss",
    "sub",
    "iat",
    "exp",
    "jwks",
    "keys",
    "authority_hints",
    "metadata",
    "openid_provider",
    "jwks_uri",
    "trust_mark_issuers",
    "kty",
    "kid",
];

fn value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<i64>().prop_map(serde_json::Value::from),
        prop_oneof![
            Just("https://a.example".to_string()),
            Just("EC".to_string()),
            Just("RSA".to_string()),
            "[ -~]{0,12}"
        ]
        .prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(serde_json::Value::from),
            prop::collection::vec((prop::sample::select(CLAIMS), inner), 0..5).prop_map(|kv| {
                serde_json::Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

fn meta() -> FetchMeta {
    let url = Url::parse("https://a.example/.well-known/openid-federation").unwrap();
    FetchMeta::synthetic(url, Some("application/entity-statement+jwt"), Timestamp::UNIX_EPOCH)
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let mut m = meta();
        m.truncated = truncated;
        let r = check_interpret(&wellknown_openid_federation::OpenidFederationProbe, &body, &m).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_openid_federation::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn jwts_of_arbitrary_claims_never_panic(
        claims in value(),
        alg in prop::sample::select(vec!["RS256", "ES256", "ES384", "EdDSA", "PS512", "none", "HS256"]),
        sig in proptest::collection::vec(any::<u8>(), 0..300),
    ) {
        let header = serde_json::json!({"typ": "entity-statement+jwt", "alg": alg, "kid": "k"});
        let b64 = |v: &serde_json::Value| URL_SAFE_NO_PAD.encode(serde_json::to_vec(v).unwrap());
        let body = format!("{}.{}.{}", b64(&header), b64(&claims), URL_SAFE_NO_PAD.encode(&sig));
        let r = check_interpret(&wellknown_openid_federation::OpenidFederationProbe, body.as_bytes(), &meta()).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
