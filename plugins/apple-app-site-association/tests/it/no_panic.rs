//! Property tests: `interpret` never panics, on arbitrary bytes or on arbitrary JSON built from the
//! AASA vocabulary, whatever the fetch metadata.

use proptest::prelude::*;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, RedirectHop, Timestamp};

fn meta(https: bool, content_type: Option<&str>, redirected: bool, truncated: bool) -> FetchMeta {
    let scheme = if https { "https" } else { "http" };
    let url = Url::parse(&format!("{scheme}://a.example/.well-known/apple-app-site-association")).expect("url");
    let mut m = FetchMeta::synthetic(url.clone(), content_type, Timestamp::UNIX_EPOCH);
    if redirected {
        m.redirect_chain = vec![RedirectHop { url, status: 302 }];
    }
    m.truncated = truncated;
    m
}

fn content_type() -> impl Strategy<Value = Option<&'static str>> {
    prop::sample::select(vec![
        None,
        Some("application/json"),
        Some("text/html"),
        Some("application/json; charset=latin1"),
        Some(";"),
    ])
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "ABCDE12345.com.example.app",
            "abcde.x",
            "NOT /a/*",
            "/order/status",
            "//evil.example/x",
            "/\\evil.example",
            "/$(lang)/x",
            "NOT ",
            "",
        ])
        .prop_map(str::to_string),
        "\\PC{0,24}",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
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
        ])
        .prop_map(str::to_string),
        "\\PC{0,8}",
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from)
    ];
    leaf.prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   ct in content_type(), redirected in any::<bool>(), truncated in any::<bool>()) {
        let r = wellknown_apple_app_site_association::interpret(&body, &meta(https, ct, redirected, truncated));
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn arbitrary_documents_never_panic(members in prop::collection::vec((key(), json()), 0..6), https in any::<bool>()) {
        let body = serde_json::to_vec(&Value::Object(members.into_iter().collect())).expect("serialisable");
        let r = wellknown_apple_app_site_association::interpret(&body, &meta(https, Some("application/json"), false, false));
        for c in &r.candidates {
            prop_assert!(!c.value.is_empty());
        }
    }

    #[test]
    fn arbitrary_details_entries_never_panic(entries in prop::collection::vec(prop::collection::vec((key(), json()), 0..6), 0..4),
                                             components in prop::collection::vec(prop::collection::vec((key(), json()), 0..5), 0..6)) {
        let mut details: Vec<Value> = entries.into_iter().map(|kv| Value::Object(kv.into_iter().collect())).collect();
        let components: Vec<Value> = components.into_iter().map(|kv| Value::Object(kv.into_iter().collect())).collect();
        details.push(serde_json::json!({"appIDs": ["ABCDE12345.com.example.app"], "components": components}));
        let body = serde_json::to_vec(&serde_json::json!({"applinks": {"details": details}})).expect("serialisable");
        let r = wellknown_apple_app_site_association::interpret(&body, &meta(true, None, false, false));
        prop_assert!(r.candidates.iter().any(|c| c.value == "apple:ABCDE12345.com.example.app"));
    }
}
