//! `interpret` never panics, whatever the bytes or JSON shape.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::generate::json_value;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/host-meta.json").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_host_meta_json::HostMetaJsonProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_host_meta_json::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn jrd_shapes_never_panic(v in json_value(
        &["lrdd", "https://a.example/{uri}", "/rel{", "http://[::1", "{x}{y}", ""],
        &["links", "rel", "href", "template", "type", "subject", "aliases"],
    )) {
        let body = serde_json::to_vec(&v).unwrap();
        let r = check_interpret(&wellknown_host_meta_json::HostMetaJsonProbe, &body, &meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
