//! `write_report_streaming` writes the same JSON value as serialising `parse_sitemap`'s report: on every
//! conformance case, real fixtures (an index with follow-ups, hreflang alternates) and synthetic inputs
//! exercising duplicates, suppressed diagnostics, text sitemaps, feeds and gzip.

use std::io::Write;
use std::path::PathBuf;

use base64::Engine;
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
