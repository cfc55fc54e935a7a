//! The sitemap parser's hand-written fast paths against the libraries they stand in front of, on
//! arbitrary bytes (kept because they matter to the whole `wellknown parse sitemap` command:
//! `docs/benchmarks.md`, "One parser per format"). Invariants, on every input:
//!
//! * the in-memory tokenizer (plain markup read by the crate, the rest by quick-xml) gives the same
//!   report as quick-xml alone (the same bytes gzipped are read as a stream by quick-xml only), but
//!   for the `compression` and `uncompressed_bytes` facts;
//! * the URL recognizer (`fast_url::canonical`) accepts a string only when the `url` crate
//!   serialises it to exactly that string, with the same scheme, host, port and path;
//! * the JSON written while parsing (`write_report_streaming`) is the value serde writes for the
//!   report built in memory.

#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::fast_url::canonical;
use wellknown_sitemap::{Limits, parse_sitemap, write_report_streaming};

fn without_compression_facts(mut v: Value) -> Value {
    if let Some(facts) = v.get_mut("facts").and_then(Value::as_object_mut) {
        facts.remove("compression");
        facts.remove("uncompressed_bytes");
    }
    v
}

fuzz_target!(|data: &[u8]| {
    let meta = FetchMeta::synthetic(
        Url::parse("https://a.example/maps/sitemap.xml").expect("a valid URL"),
        None,
        Timestamp::UNIX_EPOCH,
    );
    let limits = Limits { max_value_bytes: 512, ..Limits::default() };

    // The URL recognizer against the `url` crate.
    if let Ok(s) = std::str::from_utf8(data)
        && let Some(c) = canonical(s)
    {
        let u = Url::parse(s).expect("the fast path accepted a string the url crate refuses");
        assert_eq!(u.as_str(), c.url);
        assert_eq!(u.scheme(), c.scheme());
        assert_eq!(u.host_str(), Some(c.host));
        assert_eq!(u.port_or_known_default(), Some(c.port));
        assert_eq!(u.path(), c.path);
    }

    // The tokenizer against quick-xml alone (a gzipped body is read as a stream).
    if !data.starts_with(&[0x1f, 0x8b]) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).expect("writing to a Vec");
        let zipped = e.finish().expect("writing to a Vec");
        let fast = serde_json::to_value(parse_sitemap(data, &meta, &limits)).expect("a report serialises");
        let slow = serde_json::to_value(parse_sitemap(&zipped, &meta, &limits)).expect("a report serialises");
        assert_eq!(without_compression_facts(fast), without_compression_facts(slow));
    }

    // The JSON writer against serde.
    let mut out = Vec::new();
    let valid = write_report_streaming(data, &meta, &limits, &mut out).expect("writing to a Vec");
    let report = parse_sitemap(data, &meta, &limits);
    let streamed: Value = serde_json::from_slice(&out).expect("the streamed report is JSON");
    assert_eq!(streamed, serde_json::to_value(&report).expect("a report serialises"));
    assert_eq!(valid, report.valid());
});
