//! `write_report_streaming` writes the same JSON value as serialising `parse_sitemap`'s report: on every
//! conformance case, real fixtures (an index with follow-ups, hreflang alternates), synthetic inputs
//! exercising duplicates, suppressed diagnostics, text sitemaps, feeds and gzip, and generated
//! hostile-ish documents (the differential test of the hand-written JSON writer against serde:
//! `docs/benchmarks.md`, "One parser per format").

use std::io::Write;
use std::path::PathBuf;

use base64::Engine;
use proptest::prelude::*;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::{Limits, parse_sitemap, write_report_streaming};

fn meta(url: &str) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).unwrap(), None, Timestamp::UNIX_EPOCH)
}

/// Streams the report of `body` and checks it equals the serialised report; returns the value.
fn same_value(body: &[u8], meta: &FetchMeta, what: &str) -> Value {
    let limits = Limits::default();
    let report = parse_sitemap(body, meta, &limits);
    let mut out = Vec::new();
    let valid = write_report_streaming(body, meta, &limits, &mut out).unwrap();
    let streamed: Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{what}: not JSON ({e})"));
    let expected = serde_json::to_value(&report).unwrap();
    assert_eq!(streamed, expected, "{what}");
    assert_eq!(valid, report.valid(), "{what}");
    let keys: Vec<&str> = streamed.as_object().unwrap().keys().map(String::as_str).collect();
    let want: Vec<&str> = expected.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, want, "{what}: keys");
    streamed
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

#[test]
fn every_conformance_case_streams_to_the_same_value() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/sitemap");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(case) = name.strip_suffix(".expect.json") else { continue };
        let expect: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(&name)).unwrap()).unwrap();
        let plain = dir.join(format!("{case}.input"));
        let body = if plain.exists() {
            std::fs::read(plain).unwrap()
        } else {
            let b64 = std::fs::read_to_string(dir.join(format!("{case}.input.b64"))).unwrap();
            let clean: String = b64.split_whitespace().collect();
            base64::engine::general_purpose::STANDARD.decode(clean).unwrap()
        };
        same_value(&body, &meta(expect["served_at"].as_str().unwrap()), case);
        n += 1;
    }
    assert!(n >= 33, "{n} cases");
}

#[test]
fn fixtures_stream_to_the_same_value() {
    let sites = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites");
    for (rel, follow_ups) in [
        ("geoconnex.us/sitemap/_sitemap.xml", true),
        ("sitemap.mykumi.com/live-sitemap.xml", true),
        ("ou7line.com/sitemap-en.xml", false),
        ("sitemap.mykumi.com/en-products-1.xml", false),
        ("geoconnex.us/sitemap/ref/pws/pws__3.xml", false),
    ] {
        let body = std::fs::read(sites.join(rel)).unwrap();
        let v = same_value(&body, &meta(&format!("https://{rel}")), rel);
        assert_eq!(v.get("follow_ups").is_some(), follow_ups, "{rel}");
        assert!(!v["candidates"].as_array().unwrap().is_empty(), "{rel}");
    }
}

#[test]
fn synthetic_inputs_stream_to_the_same_value() {
    let mut many = String::from("<urlset xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">");
    for i in 0..300 {
        // Repeats, bad hints (suppressed past 100), out-of-location URLs, alternates with hreflang.
        many.push_str(&format!(
            "<url><loc>https://a.example/s/p{}</loc><lastmod>bad</lastmod><priority>0.{}</priority>\
             <xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"https://a.example/de/p{i}\"/></url>",
            i % 120,
            i % 10
        ));
    }
    many.push_str("</urlset>");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("https://a.example/s/sitemap.xml", many.clone().into_bytes()),
        ("https://a.example/s/sitemap.xml.gz", gzip(many.as_bytes())),
        ("https://a.example/sitemap.txt", b"https://a.example/a\n\nhttps://a.example/a\nftp://x/\n/rel\r\n".to_vec()),
        (
            "https://a.example/index.xml",
            b"<sitemapindex><sitemap><loc>https://a.example/1.xml</loc></sitemap>\
              <sitemap><loc>https://b.example/2.xml</loc></sitemap><sitemap>https://a.example/3.xml</sitemap>\
              <sitemap><loc>https://a.example/1.xml</loc></sitemap></sitemapindex>"
                .to_vec(),
        ),
        (
            "https://a.example/feed.xml",
            br#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="/post/1"/><link rel="alternate" hreflang="fr" href="https://a.example/fr/1"/><link rel="enclosure" href="https://a.example/a.mp3"/><updated>2024-01-01</updated></entry></feed>"#
                .to_vec(),
        ),
        (
            "https://a.example/rss.xml",
            br#"<rss><channel><item><link>https://a.example/i"1</link><enclosure url="https://a.example/e&amp;1"/></item></channel></rss>"#
                .to_vec(),
        ),
        ("https://a.example/x.xml", b"<urlset><url><loc>https://a.example/\xff</loc></url>".to_vec()),
        ("https://a.example/x.xml", b"<html><body>nope</body></html>".to_vec()),
        ("https://a.example/x.xml", Vec::new()),
    ];
    for (url, body) in cases {
        same_value(&body, &meta(url), url);
    }
}

#[test]
fn a_write_error_is_returned() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "closed"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let body = b"<urlset><url><loc>https://a.example/</loc></url></urlset>";
    let e = write_report_streaming(body, &meta("https://a.example/s.xml"), &Limits::default(), Broken).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
}

/// Values a JSON writer must escape or pass through: quotes, backslashes, control characters (as
/// character references), non-ASCII, in URLs, hints and text lines.
const AWKWARD: &[&str] = &[
    "\"",
    "\\",
    "&#1;",
    "&#x1f;",
    "&#9;",
    "&#10;",
    "&#13;",
    "&#8;",
    "&#12;",
    "&#x7f;",
    "&#xe9;",
    "&#x1F600;",
    "\u{e9}",
    "\u{2028}",
    "/",
    "%22",
    "?a=\"b\"",
    "#f",
    "&amp;",
    "&lt;",
    " ",
    "",
];

fn awkward_document() -> impl Strategy<Value = (Vec<u8>, bool)> {
    (prop::collection::vec((0..AWKWARD.len(), 0..AWKWARD.len(), 0..5usize), 0..30), any::<bool>()).prop_map(
        |(parts, text)| {
            if text {
                let mut out = String::new();
                for (a, b, _) in parts {
                    out.push_str(&format!("https://a.example/maps/{}x{}\n", AWKWARD[a], AWKWARD[b]));
                }
                return (out.into_bytes(), true);
            }
            let mut out = String::from("<urlset xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">");
            for (a, b, shape) in parts {
                let (a, b) = (AWKWARD[a], AWKWARD[b]);
                out.push_str(&match shape {
                    0 => format!("<url><loc>https://a.example/maps/{a}p{b}</loc></url>"),
                    1 => format!("<url><loc>https://a.example/maps/q</loc><lastmod>{a}2024{b}</lastmod><changefreq>{b}</changefreq></url>"),
                    2 => format!("<url><loc>https://o.example/{a}</loc><priority>{b}</priority></url>"),
                    3 => format!("<url><loc>https://a.example/maps/{a}</loc><xhtml:link rel=\"alternate\" hreflang=\"{b}\" href=\"https://a.example/{b}\"/></url>"),
                    _ => format!("<url><loc>https://a.example/maps/n</loc><news:news><news:title>{a}{b}</news:title></news:news></url>"),
                });
            }
            out.push_str("</urlset>");
            (out.into_bytes(), false)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_json_writer_agrees_with_serde_on_fragments(body in crate::tokenizer::document()) {
        same_value(&body, &meta("https://a.example/maps/sitemap.xml"), "fragments");
    }

    #[test]
    fn the_json_writer_agrees_with_serde_on_entries(body in crate::tokenizer::entries()) {
        same_value(&body, &meta("https://a.example/maps/sitemap.xml"), "entries");
    }

    #[test]
    fn the_json_writer_agrees_with_serde_on_awkward_values((body, text) in awkward_document()) {
        let url = if text { "https://a.example/maps/sitemap.txt" } else { "https://a.example/maps/sitemap.xml" };
        same_value(&body, &meta(url), "awkward");
    }
}
