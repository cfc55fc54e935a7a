//! `interpret` never panics, whatever the bytes.

use proptest::prelude::*;
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let url = Url::parse("https://www.example.com/.well-known/nodeinfo").unwrap();
        let mut meta = FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH);
        meta.truncated = truncated;
        let r = wellknown_nodeinfo::interpret(&body, &meta);
        prop_assert_eq!(r.probe.as_str(), wellknown_nodeinfo::PROBE_ID);
    }
}
