//! Neither interpretation panics, whatever the bytes or JSON shape.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::generate::json_value;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

fn meta(truncated: bool) -> FetchMeta {
    let url = Url::parse("https://www.example.com/.well-known/nodeinfo").unwrap();
    let mut meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    meta.truncated = truncated;
    meta
}

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let r = check_interpret(&wellknown_nodeinfo::NodeinfoProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
        let r = check_interpret(&wellknown_nodeinfo::NodeinfoDocumentProbe, &body, &meta(truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn shapes_never_panic(v in json_value(
        &["http://nodeinfo.diaspora.software/ns/schema/2.1", "https://b.example/n", "1.0", "2.0", "activitypub", "mailto:x", ""],
        &["links", "rel", "href", "version", "software", "name", "repository", "protocols", "inbound", "usage", "users", "metadata"],
    )) {
        let body = serde_json::to_vec(&v).unwrap();
        check_interpret(&wellknown_nodeinfo::NodeinfoProbe, &body, &meta(false)).map_err(TestCaseError::fail)?;
        check_interpret(&wellknown_nodeinfo::NodeinfoDocumentProbe, &body, &meta(false)).map_err(TestCaseError::fail)?;
    }
}
