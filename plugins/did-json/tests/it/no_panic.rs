//! `interpret` never panics, whatever the bytes or JSON shape.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::generate::json_value;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/did.json").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/did+json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_did_json::DidJsonProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn did_shapes_never_panic(v in json_value(
        &["did:web:www.example.com", "did:web:a%3A1:b", "#k", "LinkedDomains", "https://b.example/x", "EC", "OKP", "P-256", "z6Mk", ""],
        &["id", "service", "type", "serviceEndpoint", "origins", "alsoKnownAs", "verificationMethod", "publicKeyJwk", "kty", "crv", "x", "y", "publicKeyMultibase", "controller"],
    )) {
        let body = serde_json::to_vec(&v).unwrap();
        let r = check_interpret(&wellknown_did_json::DidJsonProbe, &body, &meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
