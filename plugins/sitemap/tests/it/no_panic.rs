//! No input makes the parser panic: arbitrary bytes, arbitrary bytes gzipped (once and twice), and
//! arbitrary sequences of sitemap-shaped fragments (plain and gzipped, with random Content-Encoding).

use std::io::Write;

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_report;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::{Limits, SitemapProbe, parse_sitemap};

fn meta(content_encoding: Option<&str>, declared: bool) -> FetchMeta {
    let mut m =
        FetchMeta::synthetic(Url::parse("https://a.example/maps/sitemap.xml").unwrap(), None, Timestamp::UNIX_EPOCH);
    m.content_encoding = content_encoding.map(String::from);
    if declared {
        m.declared_by = vec![Url::parse("https://a.example/robots.txt").unwrap()];
    }
    m
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn check(body: &[u8], m: &FetchMeta) {
    let limits = Limits { max_value_bytes: 256, hard_cap_values: 500, ..Limits::default() };
    let r = parse_sitemap(body, m, &limits);
    assert!(["urlset", "sitemapindex", "text", "rss", "atom", "invalid"].contains(&r.kind.as_str()));
    assert_eq!(r.valid(), r.errors.is_empty());
    for c in &r.candidates {
        let u = Url::parse(c.value()).expect("candidate values are URLs");
        assert!(u.scheme() == "http" || u.scheme() == "https");
    }
    // The shared report invariants (codes declared, JSON form, bounded candidates): a decompressed
    // body may hold more than its compressed bytes, up to the value cap.
    let problems =
        check_report(&SitemapProbe, &r, body.len() + usize::try_from(limits.hard_cap_values).unwrap_or(0), m);
    assert!(problems.is_empty(), "{problems:?}");
}

const FRAGMENTS: &[&str] = &[
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
    "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>",
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
    "<sitemapindex>",
    "<rss><channel>",
    "<feed>",
    "<url>",
    "</url>",
    "<sitemap>",
    "</sitemap>",
    "<item>",
    "</item>",
    "<entry>",
    "<link href=\"x\"/>",
    "<link>",
    "</link>",
    "<loc>",
    "</loc>",
    "<lastmod>2024-01-01</lastmod>",
    "<priority>0.5</priority>",
    "<image:image><image:loc>",
    "</image:loc></image:image>",
    "<video:video><video:content_loc>",
    "<xhtml:link rel=\"alternate\" hreflang=\"fr\" href=\"https://a.example/fr\"/>",
    "<enclosure url=\"https://c.example/a.mp3\"/>",
    "https://a.example/maps/p",
    "https://b.example/x",
    "/relative",
    "javascript:x",
    "&amp;",
    "&",
    "&Ouml;",
    "&#0;",
    "&#x1F600;",
    "<![CDATA[",
    "]]>",
    "<!-- c -->",
    "<!DOCTYPE urlset [<!ENTITY a \"b\">]>",
    "<!DOCTYPE html>",
    "<html>",
    "</urlset>",
    "\n",
    "   ",
    "\u{feff}",
    "\u{e9}",
    "<",
    ">",
    "</",
    "\"",
];

fn assembled() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0..FRAGMENTS.len(), any::<u8>()), 0..80).prop_map(|parts| {
        let mut out = Vec::new();
        for (i, b) in parts {
            if b < 8 {
                out.push(b.wrapping_mul(37));
            } else {
                out.extend_from_slice(FRAGMENTS[i].as_bytes());
            }
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes(body in prop::collection::vec(any::<u8>(), 0..2048), ce in prop::option::of("(gzip|br|deflate|identity|x)"), declared: bool) {
        check(&body, &meta(ce.as_deref(), declared));
    }

    #[test]
    fn arbitrary_bytes_gzipped(body in prop::collection::vec(any::<u8>(), 0..2048), twice: bool, cut in 0usize..64) {
        let mut z = gzip(&body);
        if twice {
            z = gzip(&z);
        }
        check(&z, &meta(None, false));
        let keep = z.len().saturating_sub(cut);
        check(&z[..keep], &meta(None, false));
    }

    #[test]
    fn gzip_header_followed_by_junk(tail in prop::collection::vec(any::<u8>(), 0..512)) {
        let mut body = vec![0x1f, 0x8b];
        body.extend(tail);
        check(&body, &meta(None, false));
        check(&body, &meta(Some("br"), false));
        check(&body, &meta(Some("deflate"), false));
    }

    #[test]
    fn sitemap_shaped_fragments(body in assembled(), gz: bool, utf16: bool) {
        let mut b = body;
        if utf16 {
            let s = String::from_utf8_lossy(&b).into_owned();
            b = vec![0xFF, 0xFE];
            for u in s.encode_utf16() {
                b.extend(u.to_le_bytes());
            }
        }
        if gz {
            b = gzip(&b);
        }
        check(&b, &meta(None, false));
    }
}
