//! `interpret` never panics, on arbitrary bytes or on JSON built from the document's vocabulary.

use proptest::prelude::*;
use serde_json::Value;
use wellknown_conformance::generate::{fetch_meta, json_content_type, json_value};
use wellknown_conformance::invariants::check_interpret;

const VALUES: &[&str] = &[
    "https://example.co.uk",
    "https://login.example.com:8443/",
    "http://localhost:8093",
    "app://local",
    "https://[2001:db8::1]",
    "https://xn--bcher-kva.example",
    "",
];
const KEYS: &[&str] = &["origins", "rpId", "trustedOrigins"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in json_content_type(), redirected in any::<bool>(), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_webauthn::WebauthnProbe, &body, &fetch_meta("/.well-known/webauthn", https, ct, redirected, truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn vocabulary_documents_never_panic(origins in prop::collection::vec(json_value(VALUES, KEYS), 0..12)) {
        let body = serde_json::to_vec(&serde_json::json!({ "origins": Value::Array(origins) })).expect("serialisable");
        let r = check_interpret(&wellknown_webauthn::WebauthnProbe, &body, &fetch_meta("/.well-known/webauthn", true, Some("application/json"), false, false)).map_err(TestCaseError::fail)?;
        for c in &r.candidates {
            prop_assert!(!c.value().is_empty() || c.has_flag("invalid"));
        }
    }
}
