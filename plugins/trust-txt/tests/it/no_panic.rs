//! `interpret` never panics, whatever the bytes (arbitrary bytes, and records put together).

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

const FRAGMENTS: &[&str] = &[
    "belongto=",
    "member=",
    "control=",
    "controlledby=",
    "social=",
    "contact=",
    "vendor=",
    "customer=",
    "disclosure=",
    "datatrainingallowed=",
    "x=",
    "https://a.example/",
    "a.example/*",
    "mailto:a@b",
    "a@b",
    "yes",
    "no",
    "http://[::1",
    "://",
    "#",
    " ",
    "\n",
    "\r\n",
    "=",
    "\u{feff}",
    "é",
];

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/trust.txt").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("text/plain"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_trust_txt::TrustTxtProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_trust_txt::PROBE_ID);
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn records_never_panic(parts in proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..48), truncated in any::<bool>()) {
        let body = parts.concat();
        let r = check_interpret(&wellknown_trust_txt::TrustTxtProbe, body.as_bytes(), &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
