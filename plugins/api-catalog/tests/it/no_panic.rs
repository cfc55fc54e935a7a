//! `interpret` never panics, on arbitrary bytes or on linksets built from the vocabulary.

use proptest::prelude::*;
use serde_json::Value;
use wellknown_conformance::generate::{fetch_meta, json_content_type, json_value};
use wellknown_conformance::invariants::check_interpret;

const VALUES: &[&str] =
    &["https://api.example.com/v1", "/relative", "http://[::1", "application/openapi+json", "item", ""];
const KEYS: &[&str] = &[
    "linkset",
    "anchor",
    "item",
    "service-desc",
    "service-doc",
    "status",
    "api-catalog",
    "href",
    "type",
    "hreflang",
    "rel",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in json_content_type(), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_api_catalog::ApiCatalogProbe, &body, &fetch_meta("/.well-known/api-catalog", https, ct, false, truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn vocabulary_linksets_never_panic(contexts in prop::collection::vec(json_value(VALUES, KEYS), 0..6)) {
        let body = serde_json::to_vec(&serde_json::json!({ "linkset": Value::Array(contexts) })).expect("serialisable");
        let r = check_interpret(&wellknown_api_catalog::ApiCatalogProbe, &body, &fetch_meta("/.well-known/api-catalog", true, Some("application/linkset+json"), false, false)).map_err(TestCaseError::fail)?;
        for c in &r.candidates {
            prop_assert!(!c.value().is_empty());
        }
    }
}
