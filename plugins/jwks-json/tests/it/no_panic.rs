//! `interpret` never panics, whatever the bytes.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let url = Url::parse("https://www.example.com/.well-known/jwks.json").unwrap();
        let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
        meta.truncated = truncated;
        let r = check_interpret(&wellknown_jwks_json::JwksJsonProbe, &body, &meta).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_jwks_json::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn key_sets_never_panic(keys in proptest::collection::vec(proptest::collection::btree_map(
        prop::sample::select(vec!["kty", "crv", "x", "y", "n", "e", "d", "k", "kid", "x5c"]),
        prop_oneof![Just("EC".to_string()), Just("RSA".to_string()), Just("oct".to_string()), "[A-Za-z0-9_-]{0,12}"], 0..6), 0..4)) {
        let body = serde_json::to_vec(&serde_json::json!({ "keys": keys })).unwrap();
        let url = Url::parse("https://www.example.com/.well-known/jwks.json").unwrap();
        let r = check_interpret(&wellknown_jwks_json::JwksJsonProbe, &body, &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
