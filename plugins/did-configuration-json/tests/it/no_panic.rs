//! `interpret` never panics, whatever the bytes or JSON shape.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::generate::json_value;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/did-configuration.json").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_did_configuration_json::DidConfigurationJsonProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn configuration_shapes_never_panic(v in json_value(
        &["did:web:www.example.com", "https://www.example.com", "eyJhbGciOiJub25lIn0.e30.", "a.b.c", "2020-01-01T00:00:00Z", "DomainLinkageCredential", ""],
        &["@context", "linked_dids", "credentialSubject", "id", "origin", "issuer", "type", "proof", "expirationDate", "issuanceDate"],
    )) {
        let body = serde_json::to_vec(&v).unwrap();
        let r = check_interpret(&wellknown_did_configuration_json::DidConfigurationJsonProbe, &body, &meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
