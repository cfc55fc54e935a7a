//! `interpret_server` and `interpret_client` never panic, on arbitrary bytes or on JSON built from
//! the documents' vocabulary.

use proptest::prelude::*;
use serde_json::Value;
use wellknown_conformance::generate::{fetch_meta, json_content_type, json_value};
use wellknown_conformance::invariants::check_interpret;

const VALUES: &[&str] = &[
    "matrix.example.org:8448",
    "https://matrix.example.org",
    "[2001:db8::1]:443",
    "a.example:99999",
    "http://a.example/path",
    "",
];
const KEYS: &[&str] = &[
    "m.server",
    "m.homeserver",
    "m.identity_server",
    "base_url",
    "org.matrix.msc3575.proxy",
    "org.matrix.msc2965.authentication",
    "issuer",
    "account",
    "url",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in json_content_type(), truncated in any::<bool>()) {
        let meta = fetch_meta("/.well-known/matrix/server", https, ct, false, truncated);
        let r = check_interpret(&wellknown_matrix::MatrixServerProbe, &body, &meta).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
        let r = check_interpret(&wellknown_matrix::MatrixClientProbe, &body, &meta).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn vocabulary_documents_never_panic(doc in json_value(VALUES, KEYS)) {
        let body = serde_json::to_vec(&Value::Object([("m.homeserver".to_string(), doc.clone()), ("m.server".to_string(), doc)].into_iter().collect())).expect("serialisable");
        let meta = fetch_meta("/.well-known/matrix/client", true, Some("application/json"), false, false);
        for r in [check_interpret(&wellknown_matrix::MatrixServerProbe, &body, &meta).map_err(TestCaseError::fail)?, check_interpret(&wellknown_matrix::MatrixClientProbe, &body, &meta).map_err(TestCaseError::fail)?] {
            for c in &r.candidates {
                prop_assert!(!c.value().is_empty());
            }
        }
    }
}
