//! `interpret` never panics, on arbitrary bytes or on JSON built from the set's vocabulary.

use proptest::prelude::*;
use wellknown_conformance::generate::{fetch_meta, json_content_type, json_value};
use wellknown_conformance::invariants::check_interpret;

const VALUES: &[&str] = &[
    "https://primary.example",
    "https://www.primary.example",
    "https://primary.co.uk",
    "http://a.example",
    "https://a.example:8443/x",
    "rationale",
    "",
];
const KEYS: &[&str] =
    &["primary", "associatedSites", "serviceSites", "ccTLDs", "ccTLDS", "rationaleBySite", "https://primary.example"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in json_content_type(), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_related_website_set_json::RelatedWebsiteSetJsonProbe, &body, &fetch_meta("/.well-known/related-website-set.json", https, ct, false, truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn vocabulary_documents_never_panic(doc in json_value(VALUES, KEYS)) {
        let body = serde_json::to_vec(&doc).expect("serialisable");
        let r = check_interpret(&wellknown_related_website_set_json::RelatedWebsiteSetJsonProbe, &body, &fetch_meta("/.well-known/related-website-set.json", true, Some("application/json"), false, false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
