//! `interpret` never panics, whatever the bytes or JSON shape.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::generate::json_value;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/csaf/provider-metadata.json").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_csaf::CsafProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn provider_shapes_never_panic(v in json_value(
        &["https://a.example/x/4005788070EAA8A5.txt", "http://b.example/", "csaf_provider", "WHITE", "2.0", "218E03479FE800223105FEA631905DED3EFD610A", ""],
        &["canonical_url", "distributions", "directory_url", "rolie", "feeds", "tlp_label", "url", "public_openpgp_keys", "fingerprint", "publisher", "role", "services", "categories"],
    )) {
        let body = serde_json::to_vec(&v).unwrap();
        let r = check_interpret(&wellknown_csaf::CsafProbe, &body, &meta(false)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }
}
