//! Property tests: `interpret` never panics, on arbitrary bytes or on arbitrary JSON built from the
//! statement-list vocabulary, whatever the fetch metadata.

use proptest::prelude::*;
use serde_json::Value;
use wellknown_conformance::generate::{fetch_meta, json_content_type as content_type, json_value};
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::FetchMeta;

fn meta(https: bool, content_type: Option<&str>, redirected: bool, truncated: bool) -> FetchMeta {
    fetch_meta("/.well-known/assetlinks.json", https, content_type, redirected, truncated)
}

const VALUES: &[&str] = &[
    "delegate_permission/common.handle_all_urls",
    "android_app",
    "web",
    "https://b.example",
    "https://b.example:443/",
    "http://[::1]:99999",
    "org.example.app",
    "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
    "",
];

const KEYS: &[&str] =
    &["relation", "target", "namespace", "package_name", "sha256_cert_fingerprints", "site", "include"];

fn json() -> impl Strategy<Value = Value> {
    json_value(VALUES, KEYS)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in content_type(), redirected in any::<bool>(), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_assetlinks::AssetLinksProbe, &body, &meta(https, ct, redirected, truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn arbitrary_statement_lists_never_panic(items in prop::collection::vec(json(), 0..6), https in any::<bool>()) {
        let body = serde_json::to_vec(&Value::Array(items)).expect("serialisable");
        let r = check_interpret(&wellknown_assetlinks::AssetLinksProbe, &body, &meta(https, Some("application/json"), false, false)).map_err(TestCaseError::fail)?;
        for c in &r.candidates {
            prop_assert!(!c.value().is_empty());
        }
    }
}
