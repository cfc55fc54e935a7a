//! Property tests: `interpret` never panics, on arbitrary bytes or on arbitrary JSON built from the
//! AASA vocabulary, whatever the fetch metadata.

use proptest::prelude::*;
use serde_json::Value;
use wellknown_conformance::generate::{fetch_meta, json_content_type as content_type, json_value, word_or_text};
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::FetchMeta;

fn meta(https: bool, content_type: Option<&str>, redirected: bool, truncated: bool) -> FetchMeta {
    fetch_meta("/.well-known/apple-app-site-association", https, content_type, redirected, truncated)
}

const VALUES: &[&str] = &[
    "ABCDE12345.com.example.app",
    "abcde.x",
    "NOT /a/*",
    "/order/status",
    "//evil.example/x",
    "/\\evil.example",
    "/$(lang)/x",
    "NOT ",
    "",
];

const KEYS: &[&str] = &[
    "applinks",
    "details",
    "apps",
    "appID",
    "appIDs",
    "paths",
    "components",
    "/",
    "?",
    "#",
    "exclude",
    "comment",
    "webcredentials",
    "appclips",
    "activitycontinuation",
];

fn key() -> impl Strategy<Value = String> {
    word_or_text(KEYS, 8)
}

fn json() -> impl Strategy<Value = Value> {
    json_value(VALUES, KEYS)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in content_type(), redirected in any::<bool>(), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_apple_app_site_association::AppleAppSiteAssociationProbe, &body, &meta(https, ct, redirected, truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn arbitrary_documents_never_panic(members in prop::collection::vec((key(), json()), 0..6), https in any::<bool>()) {
        let body = serde_json::to_vec(&Value::Object(members.into_iter().collect())).expect("serialisable");
        let r = check_interpret(&wellknown_apple_app_site_association::AppleAppSiteAssociationProbe, &body, &meta(https, Some("application/json"), false, false)).map_err(TestCaseError::fail)?;
        for c in &r.candidates {
            prop_assert!(!c.value().is_empty());
        }
    }

    #[test]
    fn arbitrary_details_entries_never_panic(entries in prop::collection::vec(prop::collection::vec((key(), json()), 0..6), 0..4),
                                             components in prop::collection::vec(prop::collection::vec((key(), json()), 0..5), 0..6)) {
        let mut details: Vec<Value> = entries.into_iter().map(|kv| Value::Object(kv.into_iter().collect())).collect();
        let components: Vec<Value> = components.into_iter().map(|kv| Value::Object(kv.into_iter().collect())).collect();
        details.push(serde_json::json!({"appIDs": ["ABCDE12345.com.example.app"], "components": components}));
        let body = serde_json::to_vec(&serde_json::json!({"applinks": {"details": details}})).expect("serialisable");
        let r = check_interpret(&wellknown_apple_app_site_association::AppleAppSiteAssociationProbe, &body, &meta(true, None, false, false)).map_err(TestCaseError::fail)?;
        prop_assert!(r.candidates.iter().any(|c| c.value() == "apple:ABCDE12345.com.example.app"));
    }
}
