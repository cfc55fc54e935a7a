//! Property-test generators shared by the JSON probes' no-panic tests: fetch metadata in every
//! shape a fetch can take, and arbitrary JSON built from a document type's own vocabulary (member
//! names and telling values mixed with arbitrary text), so generated documents reach the deep paths
//! of an interpreter instead of failing at the first member.

use proptest::prelude::*;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, RedirectHop, Timestamp};

/// Fetch metadata for `https://a.example<path>` (or `http://` when `https` is false), optionally
/// reached through a redirect (a 302 hop) and cut at the fetch cap.
pub fn fetch_meta(path: &str, https: bool, content_type: Option<&str>, redirected: bool, truncated: bool) -> FetchMeta {
    let scheme = if https { "https" } else { "http" };
    let url = Url::parse(&format!("{scheme}://a.example{path}")).expect("generated URL parses");
    let mut m = FetchMeta::synthetic(url.clone(), content_type, Timestamp::UNIX_EPOCH);
    if redirected {
        m.redirect_chain = vec![RedirectHop { url, status: 302 }];
    }
    m.truncated = truncated;
    m
}

/// Media types a JSON document arrives with: none, right, wrong, with a wrong charset, malformed.
pub fn json_content_type() -> impl Strategy<Value = Option<&'static str>> {
    prop::sample::select(vec![
        None,
        Some("application/json"),
        Some("text/html"),
        Some("application/json; charset=latin1"),
        Some(";"),
    ])
}

/// One of `words` or arbitrary printable text of up to `max_chars` characters.
pub fn word_or_text(words: &'static [&'static str], max_chars: usize) -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        prop::sample::select(words).prop_map(str::to_string),
        proptest::string::string_regex(&format!("\\PC{{0,{max_chars}}}")).expect("valid regex"),
    ]
}

/// Arbitrary JSON up to 5 levels deep: leaves are null, booleans, integers and [`word_or_text`] of
/// `values`; object member names are [`word_or_text`] of `keys`.
pub fn json_value(values: &'static [&'static str], keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        word_or_text(values, 24).prop_map(Value::from)
    ];
    leaf.prop_recursive(5, 96, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((word_or_text(keys, 8), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}
