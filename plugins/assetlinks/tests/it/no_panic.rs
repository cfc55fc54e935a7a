//! Property tests: `interpret` never panics, on arbitrary bytes or on arbitrary JSON built from the
//! statement-list vocabulary, whatever the fetch metadata.

use proptest::prelude::*;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, RedirectHop, Timestamp};

fn meta(https: bool, content_type: Option<&str>, redirected: bool, truncated: bool) -> FetchMeta {
    let scheme = if https { "https" } else { "http" };
    let url = Url::parse(&format!("{scheme}://a.example/.well-known/assetlinks.json")).expect("url");
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
            "delegate_permission/common.handle_all_urls",
            "android_app",
            "web",
            "https://b.example",
            "https://b.example:443/",
            "http://[::1]:99999",
            "org.example.app",
            "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
            "",
        ])
        .prop_map(str::to_string),
        "\\PC{0,24}",
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "relation",
            "target",
            "namespace",
            "package_name",
            "sha256_cert_fingerprints",
            "site",
            "include"
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
        let r = wellknown_assetlinks::interpret(&body, &meta(https, ct, redirected, truncated));
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn arbitrary_statement_lists_never_panic(items in prop::collection::vec(json(), 0..6), https in any::<bool>()) {
        let body = serde_json::to_vec(&Value::Array(items)).expect("serialisable");
        let r = wellknown_assetlinks::interpret(&body, &meta(https, Some("application/json"), false, false));
        for c in &r.candidates {
            prop_assert!(!c.value.is_empty());
        }
    }
}
