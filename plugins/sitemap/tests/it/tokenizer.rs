//! The fast tokenizer for in-memory XML (plain markup read by the crate, everything else by
//! quick-xml) gives exactly the report of a quick-xml pass over the whole document. The oracle is the
//! same document gzipped: a compressed body is read as a stream by quick-xml alone. Every key of the
//! report must be equal but the `compression` and `uncompressed_bytes` facts (a stream is only
//! counted as far as it was read).

use std::io::Write;

use proptest::prelude::*;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::{Limits, parse_sitemap};

fn meta() -> FetchMeta {
    FetchMeta::synthetic(Url::parse("https://a.example/maps/sitemap.xml").unwrap(), None, Timestamp::UNIX_EPOCH)
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn report(body: &[u8]) -> Value {
    report_with(body, 12)
}

fn report_with(body: &[u8], max_depth: u32) -> Value {
    let limits = Limits { max_value_bytes: 512, max_depth, ..Limits::default() };
    let mut v = serde_json::to_value(parse_sitemap(body, &meta(), &limits)).unwrap();
    if let Some(facts) = v.get_mut("facts").and_then(Value::as_object_mut) {
        facts.remove("compression");
        facts.remove("uncompressed_bytes");
    }
    v
}

fn same(body: &[u8]) -> Result<(), TestCaseError> {
    let z = gzip(body);
    for max_depth in [12, 3, 2] {
        let plain = report_with(body, max_depth);
        let streamed = report_with(&z, max_depth);
        prop_assert_eq!(&plain, &streamed, "max_depth {}: {}", max_depth, String::from_utf8_lossy(body));
    }
    Ok(())
}

const ROOTS: &[&str] = &[
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:image=\"i\" xmlns:xhtml=\"x\">",
    "<urlset>",
    "<ns0:urlset xmlns:ns0=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
    "<sitemapindex>",
    "<rss><channel>",
    "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset>",
    "<!-- c --><urlset>",
];

const PIECES: &[&str] = &[
    "<url>",
    "</url>",
    "<sitemap>",
    "</sitemap>",
    "<item>",
    "</item>",
    "<entry>",
    "</entry>",
    "<loc>",
    "</loc>",
    "<ns0:loc>",
    "</ns0:loc>",
    "<link>",
    "</link>",
    "<link href=\"https://a.example/maps/atom\"/>",
    "<link rel=\"enclosure\" href=\"https://a.example/e.mp3\" />",
    "<lastmod>",
    "</lastmod>",
    "<changefreq>",
    "</changefreq>",
    "<priority>",
    "</priority>",
    "<image:image>",
    "</image:image>",
    "<image:loc>",
    "</image:loc>",
    "<image:caption>",
    "</image:caption>",
    "<video:video>",
    "<video:content_loc>",
    "</video:content_loc>",
    "</video:video>",
    "<news:news><news:title>",
    "</news:title></news:news>",
    "<xhtml:link rel=\"alternate\" hreflang=\"fr\" href=\"https://a.example/fr\"/>",
    "<enclosure url=\"https://c.example/a.mp3\"/>",
    "<pubDate>",
    "</pubDate>",
    "<updated>2024-01-01</updated>",
    "<x/>",
    "<x />",
    "<y>",
    "</y >",
    "</y>",
    "</>",
    "<a b>",
    "<:x>",
    "<x:>",
    "<1a>",
    "<é>",
    "https://a.example/maps/p",
    "https://a.example/maps/q?x=1",
    " https://b.example/x \n",
    "HTTPS://A.EXAMPLE/maps/%7e",
    "2024-05-08",
    "2021-10-28 22:36:21.705111",
    "weekly",
    "0.5",
    "/relative",
    "javascript:x",
    "&amp;",
    "&",
    "& ",
    "&Ouml;",
    "&#0;",
    "&#x1F600;",
    "&#38;",
    "&b=2;",
    "<![CDATA[",
    "]]>",
    "<![CDATA[https://a.example/maps/c]]>",
    "<!-- c -->",
    "<?pi x?>",
    "<!DOCTYPE urlset [<!ENTITY a \"b\">]>",
    "<!DOCTYPE html>",
    "</urlset>",
    "</sitemapindex>",
    "</channel></rss>",
    "</feed>",
    "\n",
    "\t\t",
    "   ",
    "\r\n",
    "\u{feff}",
    "\u{a0}",
    "\u{e9}",
    "<",
    ">",
    "</",
    "\"",
    "'",
    "=",
    "/",
];

/// Hostile-ish fragments after a root (also used by the JSON writer's differential test).
pub(crate) fn document() -> impl Strategy<Value = Vec<u8>> {
    (0..ROOTS.len(), prop::collection::vec((0..PIECES.len(), any::<u8>()), 0..120), any::<bool>()).prop_map(
        |(root, parts, close)| {
            let mut out = ROOTS[root].as_bytes().to_vec();
            for (i, b) in parts {
                if b < 6 {
                    // A stray byte now and then: invalid UTF-8, controls, markup characters.
                    out.push(b.wrapping_mul(51).wrapping_add(0x3c));
                } else {
                    out.extend_from_slice(PIECES[i].as_bytes());
                }
            }
            if close {
                out.extend_from_slice(b"</url></urlset>");
            }
            out
        },
    )
}

/// Well-formed entries, so that long runs stay on the fast path.
pub(crate) fn entries() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0..11usize, "[a-z0-9/._~%-]{0,12}", 0..3usize), 0..60).prop_map(|entries| {
        let mut out = b"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".to_vec();
        for (shape, path, pad) in entries {
            let ws = ["", "\n  ", " \t"][pad];
            let loc = format!("https://a.example/maps/{path}");
            let e = match shape {
                0 => format!("<url>{ws}<loc>{loc}</loc>{ws}</url>"),
                1 => format!("<url><loc>{ws}{loc}{ws}</loc><lastmod>2024-01-0{pad}</lastmod><priority>0.{pad}</priority></url>"),
                2 => format!("<url><loc>{loc}</loc><image:image><image:loc>{loc}.jpg</image:loc><image:caption>a &amp; b</image:caption></image:image></url>"),
                3 => format!("<url><loc>{loc}&amp;x=1</loc><changefreq>daily</changefreq></url>"),
                4 => format!("<url>{loc}</url><url/>"),
                5 => format!("<url><loc>{loc}</loc><loc>{loc}/2</loc><xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"{loc}/de\"/></url>"),
                6 => format!("<url><foo>{loc}</foo><a><b>{loc}</b></a><loc>{loc}</other></url>"),
                7 => format!("<url><video:video><video:content_loc>{loc}.mp4</video:content_loc><video:title>t</video:title></video:video><loc>{loc}</loc></url>"),
                8 => format!("<url><loc>{loc}</loc><news:news><news:title>{path}</news:title><news:publication_date>2024-01-01</news:publication_date></news:news><lastmod>{path}</lastmod><lastmod>2024</lastmod></url>"),
                9 => format!("<sitemap><loc>{loc}</loc></sitemap><url><image:image></image:image><image:loc>{loc}</image:loc><loc></loc><loc>{loc}</loc></url>"),
                _ => format!("<url><loc>{loc}<x/></loc><priority>{path}</priority><changefreq>{ws}</changefreq><ns0:loc>{loc}</ns0:loc></url>"),
            };
            out.extend_from_slice(e.as_bytes());
            out.push(b'\n');
        }
        out.extend_from_slice(b"</urlset>\n");
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fast_tokenizer_matches_quick_xml_on_fragments(body in document()) {
        same(&body)?;
    }

    #[test]
    fn fast_tokenizer_matches_quick_xml_on_entries(body in entries(), cut in 0usize..40) {
        same(&body)?;
        let keep = body.len().saturating_sub(cut);
        same(&body[..keep])?;
    }
}

#[test]
fn real_fixtures_match() {
    let sites = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites");
    for rel in
        ["ou7line.com/sitemap-en.xml", "sitemap.mykumi.com/en-products-1.xml", "geoconnex.us/sitemap/_sitemap.xml"]
    {
        let body = std::fs::read(sites.join(rel)).unwrap();
        assert_eq!(report(&body), report(&gzip(&body)), "{rel}");
    }
}

#[test]
fn long_and_invalid_leaves_match() {
    let long = "x".repeat(600);
    let body = format!(
        "<urlset><url><loc>https://a.example/maps/{long}</loc><lastmod>{long}</lastmod></url>\
         <url><loc>https://a.example/maps/\u{e9}</loc><lastmod>2024-01-01</lastmod></url></urlset>"
    );
    let mut bytes = body.into_bytes();
    same(&bytes).unwrap();
    // Invalid UTF-8 inside a leaf: replaced and diagnosed once, the same way.
    let at = bytes.windows(2).position(|w| w == "\u{e9}".as_bytes()).unwrap();
    bytes[at] = 0xff;
    same(&bytes).unwrap();
    let v = report(&bytes);
    assert!(v["errors"].as_array().unwrap().iter().any(|e| e["code"] == "invalid_utf8"), "{v}");
    assert!(v["errors"].as_array().unwrap().iter().any(|e| e["code"] == "invalid_loc"), "{v}");
}
