//! Neither `interpret` (XRD) nor `interpret_json` (JRD) panics, whatever the bytes (arbitrary bytes,
//! XRD fragments put together, JRD shapes).

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::generate::json_value;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

const FRAGMENTS: &[&str] = &[
    "<?xml version=\"1.0\"?>",
    "<XRD xmlns=\"http://docs.oasis-open.org/ns/xri/xrd-1.0\">",
    "<XRD>",
    "</XRD>",
    "<Link rel=\"lrdd\" template=\"https://a.example/w?r={uri}\"/>",
    "<Link href=\"/x\" template=\"{\"/>",
    "<Link href=\"http://[::1\"/>",
    "<Link rel='a' href='https://b.example:99/&amp;'>",
    "</Link>",
    "<Subject>acct:x</Subject>",
    "<hm:Host xmlns:hm=\"http://host-meta.net/xrd/1.0\">a</hm:Host>",
    "<!DOCTYPE x [<!ENTITY a \"b\">]>",
    "&a;",
    "<!-- c -->",
    "<![CDATA[x]]>",
    "\u{feff}",
];

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/host-meta").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/xrd+xml"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

fn json_meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/host-meta.json").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_host_meta::HostMetaProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_host_meta::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn fragments_never_panic(parts in proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..24)) {
        let body = parts.concat();
        let r = check_interpret(&wellknown_host_meta::HostMetaProbe, body.as_bytes(), &meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_host_meta::PROBE_ID);
    }

    #[test]
    fn json_interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_host_meta::HostMetaJsonProbe, &body, &json_meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_host_meta::JSON_PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn jrd_shapes_never_panic(v in json_value(
        &["lrdd", "https://a.example/{uri}", "/rel{", "http://[::1", "{x}{y}", ""],
        &["links", "rel", "href", "template", "type", "subject", "aliases"],
    )) {
        let body = serde_json::to_vec(&v).unwrap();
        let r = check_interpret(&wellknown_host_meta::HostMetaJsonProbe, &body, &json_meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
