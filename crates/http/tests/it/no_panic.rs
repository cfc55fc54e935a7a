//! No-panic properties of the fetcher's parsers over arbitrary input.

use std::time::Duration;

use proptest::prelude::*;
use wellknown_http::{
    BodyDecoder, Coding, DecodeError, ResolveOverride, parse_content_encoding, parse_duration, parse_retry_after,
};

fn codings() -> impl Strategy<Value = Vec<Coding>> {
    prop::collection::vec(prop_oneof![Just(Coding::Gzip), Just(Coding::Deflate), Just(Coding::Brotli)], 0..3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn decoder_never_panics_and_respects_the_cap(cs in codings(), data in prop::collection::vec(any::<u8>(), 0..2048), cap in 0usize..4096, chunk in 1usize..64) {
        let mut d = BodyDecoder::new(&cs, cap);
        let mut stopped = false;
        for part in data.chunks(chunk) {
            if let Err(DecodeError::Full | DecodeError::Corrupt(_)) = d.push(part) {
                stopped = true;
                break;
            }
        }
        if !stopped {
            let _ = d.finish();
        }
        prop_assert!(d.into_bytes().len() <= cap);
    }

    #[test]
    fn header_parsers_never_panic(s in ".{0,64}", b in prop::collection::vec(any::<u8>(), 0..64)) {
        let lossy = String::from_utf8_lossy(&b);
        let now = jiff::Timestamp::UNIX_EPOCH;
        let _ = parse_content_encoding(&s);
        let _ = parse_content_encoding(&lossy);
        let _ = parse_retry_after(&s, now);
        let _ = parse_retry_after(&lossy, now);
        let _ = parse_duration(&s);
        let _ = s.parse::<ResolveOverride>();
        let _ = lossy.parse::<ResolveOverride>();
    }

    #[test]
    fn resolve_round_trips(host in "[a-z]{1,10}(\\.[a-z]{1,10}){0,2}", port in 1u16.., a in any::<[u8; 4]>(), v6 in any::<[u16; 8]>()) {
        let v6 = std::net::Ipv6Addr::from(v6);
        let text = format!("{host}:{port}:{}.{}.{}.{},[{v6}]", a[0], a[1], a[2], a[3]);
        let parsed: ResolveOverride = text.parse().unwrap();
        prop_assert_eq!(parsed.port, port);
        prop_assert_eq!(parsed.addrs.len(), 2);
        let again: ResolveOverride = parsed.to_string().parse().unwrap();
        prop_assert_eq!(again, parsed);
    }

    #[test]
    fn retry_after_seconds(n in 0u64..1_000_000) {
        prop_assert_eq!(parse_retry_after(&n.to_string(), jiff::Timestamp::UNIX_EPOCH), Some(Duration::from_secs(n)));
    }
}
