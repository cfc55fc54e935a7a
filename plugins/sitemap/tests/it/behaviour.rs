//! Behaviour on synthetic inputs: encodings, compression, feeds, hints, limits, location rule,
//! follow-ups, the streaming visitor.

use std::io::Write;
use std::ops::ControlFlow;

use url::Url;
use wellknown_core::{CandidateKind, Diagnostic, FetchMeta, Locator, Report, Timestamp};
use wellknown_sitemap::{Found, Limits, Relation, Visitor, parse_sitemap, visit_sitemap};

fn meta(url: &str) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).unwrap(), None, Timestamp::UNIX_EPOCH)
}

fn parse(body: &[u8], url: &str) -> Report {
    parse_sitemap(body, &meta(url), &Limits::default())
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fn codes(r: &Report) -> Vec<&str> {
    r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
}

fn locs(r: &Report) -> Vec<&str> {
    r.candidates
        .iter()
        .filter(|c| c.relation() == "sitemap_loc" || c.relation() == "sitemap_child")
        .map(|c| c.value())
        .collect()
}

fn urlset(n: usize) -> String {
    let mut s =
        String::from("<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for i in 0..n {
        s.push_str(&format!("<url><loc>https://a.example/p/{i}</loc></url>\n"));
    }
    s.push_str("</urlset>\n");
    s
}

#[test]
fn hints_recorded_as_declared_and_bad_values_diagnosed() {
    let body = br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://a.example/1</loc><lastmod>2024-05-08</lastmod><changefreq>weekly</changefreq><priority>0.8</priority></url>
<url><loc>https://a.example/2</loc><lastmod>08/05/2024</lastmod><changefreq>Daily</changefreq><priority>1.5</priority></url>
</urlset>"#;
    let r = parse(body, "https://a.example/sitemap.xml");
    assert_eq!(r.kind, "urlset");
    assert_eq!(locs(&r), ["https://a.example/1", "https://a.example/2"]);
    let h = r.candidates.get(0).unwrap();
    assert_eq!(
        (h.hint("lastmod").unwrap(), h.hint("changefreq").unwrap(), h.hint("priority").unwrap()),
        ("2024-05-08", "weekly", "0.8")
    );
    let h = r.candidates.get(1).unwrap();
    assert_eq!(
        (h.hint("lastmod").unwrap(), h.hint("changefreq").unwrap(), h.hint("priority").unwrap()),
        ("08/05/2024", "Daily", "1.5")
    );
    let errs: Vec<(&str, Option<&Locator>)> = r.errors.iter().map(|d| (d.code.as_str(), d.locator.as_ref())).collect();
    assert_eq!(
        errs,
        [
            ("invalid_lastmod", Some(&Locator::Xml("/urlset/url[2]/lastmod".into()))),
            ("invalid_changefreq", Some(&Locator::Xml("/urlset/url[2]/changefreq".into()))),
            ("invalid_priority", Some(&Locator::Xml("/urlset/url[2]/priority".into()))),
        ]
    );
    assert_eq!(r.candidates.get(1).unwrap().locator(), Some(Locator::Xml("/urlset/url[2]/loc".into())));
}

#[test]
fn utf16_with_bom_and_declared_latin1_are_decoded() {
    let xml =
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?><urlset><url><loc>https://a.example/caf\u{e9}</loc></url></urlset>";
    for be in [false, true] {
        let mut body = if be { vec![0xFE, 0xFF] } else { vec![0xFF, 0xFE] };
        for u in xml.encode_utf16() {
            body.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        let r = parse(&body, "https://a.example/sitemap.xml");
        assert_eq!(locs(&r), ["https://a.example/caf%C3%A9"], "be={be}");
        assert!(codes(&r).contains(&"not_utf8"));
        assert_eq!(r.facts["encoding"], if be { "UTF-16BE" } else { "UTF-16LE" });
        // The same through gzip.
        let r = parse(&gzip(&body), "https://a.example/sitemap.xml.gz");
        assert_eq!(locs(&r), ["https://a.example/caf%C3%A9"]);
    }
    let mut latin1 =
        b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<urlset><url><loc>https://a.example/caf".to_vec();
    latin1.push(0xE9);
    latin1.extend_from_slice(b"</loc></url></urlset>");
    let r = parse(&latin1, "https://a.example/sitemap.xml");
    assert_eq!(locs(&r), ["https://a.example/caf%C3%A9"]);
    assert_eq!(r.facts["encoding"], "windows-1252");
    // Undeclared Latin-1 bytes in a UTF-8 document: replaced, diagnosed once.
    let mut bad = b"<urlset><url><loc>https://a.example/".to_vec();
    bad.extend_from_slice(&[0xE9, b'<', b'/', b'l', b'o', b'c', b'>', b'<', b'/', b'u', b'r', b'l', b'>']);
    bad.extend_from_slice(b"</urlset>");
    let r = parse(&bad, "https://a.example/sitemap.xml");
    assert_eq!(locs(&r), ["https://a.example/%EF%BF%BD"]);
    assert_eq!(codes(&r), ["invalid_utf8"]);
}

#[test]
fn truncated_gzip_keeps_complete_entries() {
    let z = gzip(urlset(2000).as_bytes());
    let cut = &z[..z.len() / 2];
    let r = parse(cut, "https://a.example/sitemap.xml.gz");
    assert_eq!(r.kind, "urlset");
    let n = locs(&r).len();
    assert!(n > 100 && n < 2000, "{n}");
    assert_eq!(locs(&r)[n - 1], format!("https://a.example/p/{}", n - 1));
    assert!(codes(&r).contains(&"truncated"), "{:?}", codes(&r));
    assert_eq!(r.facts["incomplete"], true);
}

#[test]
fn corrupt_and_layered_compression() {
    let r = parse(&[0x1f, 0x8b, 0x08, 0x00, 0xff, 0xff], "https://a.example/s.xml.gz");
    assert_eq!(r.kind, "invalid");
    assert!(codes(&r).iter().any(|c| *c == "invalid_compression" || *c == "truncated"), "{:?}", codes(&r));
    let three = gzip(&gzip(&gzip(urlset(1).as_bytes())));
    let r = parse(&three, "https://a.example/s.xml.gz");
    assert_eq!((r.kind.as_str(), codes(&r)), ("invalid", vec!["over_parse_limit"]));
    // Nothing was decoded: no encoding is claimed.
    assert_eq!(r.facts.get("encoding"), None, "{:?}", r.facts);
    let two = gzip(&gzip(urlset(1).as_bytes()));
    let r = parse(&two, "https://a.example/s.xml.gz");
    assert_eq!(r.facts["compression"], serde_json::json!(["gzip", "gzip"]));
    assert_eq!(r.facts["encoding"], "UTF-8");
    // deflate Content-Encoding on top of a gzip file.
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&gzip(urlset(3).as_bytes())).unwrap();
    let mut m = meta("https://a.example/s.xml.gz");
    m.content_encoding = Some("deflate".into());
    let r = parse_sitemap(&z.finish().unwrap(), &m, &Limits::default());
    assert_eq!(locs(&r).len(), 3);
    assert_eq!(r.facts["compression"], serde_json::json!(["deflate", "gzip"]));
    // A Content-Encoding header over a body that is plainly XML is ignored.
    let mut m = meta("https://a.example/s.xml");
    m.content_encoding = Some("br".into());
    assert_eq!(locs(&parse_sitemap(urlset(2).as_bytes(), &m, &Limits::default())).len(), 2);
}

#[test]
fn protocol_limits_are_diagnosed_hard_caps_stop() {
    let limits = Limits { max_urls: 10, ..Limits::default() };
    let r = parse_sitemap(urlset(12).as_bytes(), &meta("https://a.example/sitemap.xml"), &limits);
    assert_eq!(r.kind, "invalid");
    assert_eq!(r.facts["format"], "urlset");
    assert_eq!(locs(&r).len(), 12);
    assert_eq!(codes(&r), ["too_many_urls"]);
    assert_eq!(r.errors[0].locator, Some(Locator::Xml("/urlset/url[11]/loc".into())));

    let limits = Limits { hard_cap_values: 5, ..Limits::default() };
    let r = parse_sitemap(urlset(12).as_bytes(), &meta("https://a.example/sitemap.xml"), &limits);
    assert_eq!(locs(&r).len(), 5);
    assert_eq!(codes(&r), ["over_parse_limit"]);

    let body = urlset(100);
    let limits = Limits { max_bytes: 1000, hard_cap_bytes: 2000, ..Limits::default() };
    for b in [body.as_bytes().to_vec(), gzip(body.as_bytes())] {
        let r = parse_sitemap(&b, &meta("https://a.example/sitemap.xml"), &limits);
        assert_eq!(r.kind, "invalid");
        assert_eq!(r.facts["uncompressed_bytes"], 2000);
        let n = locs(&r).len();
        assert!(n > 10 && n < 100, "{n}");
        for c in ["over_parse_limit", "too_large", "truncated"] {
            assert!(codes(&r).contains(&c), "{c} in {:?}", codes(&r));
        }
    }
    let limits = Limits { max_depth: 4, ..Limits::default() };
    let r = parse_sitemap(
        b"<urlset><url><loc>https://a.example/x</loc></url><url><a><b><c>",
        &meta("https://a.example/s.xml"),
        &limits,
    );
    assert_eq!(locs(&r), ["https://a.example/x"]);
    assert_eq!(codes(&r), ["over_parse_limit"]);
}

#[test]
fn text_sitemaps() {
    let body = b"https://a.example/one\n/relative\nftp://a.example/f\n\n  https://a.example/two  \r\nnot a url\n";
    let r = parse(body, "https://a.example/sitemap.txt");
    assert_eq!(r.kind, "text");
    assert_eq!(locs(&r), ["https://a.example/one", "https://a.example/two"]);
    assert_eq!(r.candidates.get(1).unwrap().locator(), Some(Locator::Line(5)));
    let diags: Vec<(&str, Option<&Locator>)> = r.errors.iter().map(|d| (d.code.as_str(), d.locator.as_ref())).collect();
    assert_eq!(
        diags,
        [
            ("relative_loc", Some(&Locator::Line(2))),
            ("unsupported_scheme", Some(&Locator::Line(3))),
            ("relative_loc", Some(&Locator::Line(6))),
        ]
    );
    let r = parse(&gzip(body), "https://a.example/sitemap.txt.gz");
    assert_eq!(locs(&r), ["https://a.example/one", "https://a.example/two"]);
    let r = parse(b"https://a.example/1\rhttps://a.example/2\r\rhttps://a.example/3", "https://a.example/sitemap.txt");
    assert_eq!(locs(&r), ["https://a.example/1", "https://a.example/2", "https://a.example/3"]);
    assert_eq!(r.candidates.get(2).unwrap().locator(), Some(Locator::Line(3)));
    let r = parse(b"Service temporarily unavailable\n", "https://a.example/sitemap.txt");
    assert_eq!((r.kind.as_str(), codes(&r).last().copied()), ("invalid", Some("not_a_sitemap")));
    let r = parse(b" \n\t\r\n", "https://a.example/sitemap.txt");
    assert_eq!((r.kind.as_str(), codes(&r)), ("invalid", vec!["empty_document"]));
    let r = parse(b"", "https://a.example/sitemap.txt");
    assert_eq!((r.kind.as_str(), codes(&r)), ("invalid", vec!["empty_document"]));
}

#[test]
fn html_and_unknown_roots_are_invalid() {
    let r = parse(
        b"<!DOCTYPE html>\n<html><head><title>404</title></head><body>nope</body></html>",
        "https://a.example/sitemap.xml",
    );
    assert_eq!((r.kind.as_str(), codes(&r)), ("invalid", vec!["html_document"]));
    assert_eq!(r.facts["format"], "html");
    let r = parse(b"<?xml version=\"1.0\"?><error><code>NoSuchKey</code></error>", "https://a.example/sitemap.xml");
    assert_eq!((r.kind.as_str(), codes(&r)), ("invalid", vec!["unknown_root"]));
    assert_eq!(r.errors[0].locator, Some(Locator::Xml("/error".into())));
}

#[test]
fn feeds() {
    let rss = br#"<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<item><link>https://a.example/post/1</link><dc:date>2024-01-01</dc:date><enclosure url="https://cdn.example/a.mp3" length="1" type="audio/mpeg"/>
<media:group><media:content url="https://cdn.example/v.mp4"/><media:thumbnail url="https://cdn.example/t.jpg"/></media:group></item>
<item><title>no link</title></item>
</channel></rss>"#;
    let r = parse(rss, "https://a.example/feed.xml");
    assert_eq!(r.kind, "rss");
    assert_eq!(locs(&r), ["https://a.example/post/1"]);
    assert_eq!(r.candidates.get(0).unwrap().hint("lastmod").unwrap(), "2024-01-01");
    assert_eq!(r.candidates.get(0).unwrap().locator(), Some(Locator::Xml("/rss/channel/item[1]/link".into())));
    let ext: Vec<(&str, &str)> = r.candidates.iter().skip(1).map(|c| (c.relation(), c.value())).collect();
    assert_eq!(
        ext,
        [
            ("sitemap_enclosure", "https://cdn.example/a.mp3"),
            ("sitemap_enclosure", "https://cdn.example/v.mp4"),
            ("sitemap_image", "https://cdn.example/t.jpg")
        ]
    );
    assert_eq!(codes(&r), ["missing_loc"]);

    let rdf = br#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="https://a.example/"><link>https://a.example/</link></channel>
<item rdf:about="https://a.example/x"><link>https://a.example/x</link></item></rdf:RDF>"#;
    let r = parse(rdf, "https://a.example/index.rdf");
    assert_eq!((r.kind.as_str(), locs(&r)), ("rss", vec!["https://a.example/x"]));

    let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><entry><link rel="self" href="https://a.example/self"/>
<link href="posts/1"/><link rel="alternate" hreflang="fr" href="https://a.example/fr/posts/1"/><updated>2024-01-01T00:00:00Z</updated></entry></feed>"#;
    let r = parse(atom, "https://a.example/blog/atom.xml");
    assert_eq!(r.kind, "atom");
    assert_eq!(locs(&r), ["https://a.example/blog/posts/1"]);
    assert_eq!(r.candidates.get(0).unwrap().hint("lastmod").unwrap(), "2024-01-01T00:00:00Z");
    assert_eq!(
        (r.candidates.get(1).unwrap().relation(), r.candidates.get(1).unwrap().hint("hreflang").unwrap()),
        ("sitemap_alternate", "fr")
    );
}

#[test]
fn extensions_video_news_and_alternates() {
    let body = br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://a.example/n</loc>
<news:news><news:publication><news:name>A</news:name></news:publication><news:publication_date>2024-01-01</news:publication_date><news:title>T &amp; U</news:title></news:news>
<video:video><video:thumbnail_loc>https://a.example/t.jpg</video:thumbnail_loc><video:player_loc>https://a.example/p?x=1&amp;y=2</video:player_loc></video:video>
<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de/n?a=1&amp;b=2"/>
<xhtml:link rel="canonical" href="https://a.example/ignored"/>
<image:loc>https://a.example/not-the-page.jpg</image:loc>
</url></urlset>"#;
    let r = parse(body, "https://a.example/sitemap.xml");
    let all: Vec<(&str, &str)> = r.candidates.iter().map(|c| (c.relation(), c.value())).collect();
    assert_eq!(
        all,
        [
            ("sitemap_loc", "https://a.example/n"),
            ("sitemap_video", "https://a.example/t.jpg"),
            ("sitemap_video", "https://a.example/p?x=1&y=2"),
            ("sitemap_alternate", "https://a.example/de/n?a=1&b=2"),
        ]
    );
    assert_eq!(r.candidates.get(0).unwrap().hint("news_title").unwrap(), "T & U");
    assert_eq!(r.candidates.get(0).unwrap().hint("news_publication_date").unwrap(), "2024-01-01");
    assert_eq!(r.candidates.get(2).unwrap().locator(), Some(Locator::Xml("/urlset/url[1]/video[1]/player_loc".into())));
    assert_eq!(r.candidates.get(3).unwrap().hint("hreflang").unwrap(), "de");
}

#[test]
fn follow_ups_location_and_nested_index() {
    let body = br#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://a.example/maps/one.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
<sitemap><loc>https://a.example/other/two.xml</loc></sitemap>
<sitemap><loc>https://b.example/three.xml</loc></sitemap>
<sitemap><loc>https://a.example/maps/one.xml.gz</loc></sitemap>
</sitemapindex>"#;
    let r = parse(body, "https://a.example/maps/index.xml");
    assert_eq!(r.kind, "sitemapindex");
    assert_eq!(r.values(CandidateKind::Sitemap).count(), 3);
    let follow: Vec<&str> = r.follow_ups.iter().map(|f| f.url.as_str()).collect();
    assert_eq!(follow, ["https://a.example/maps/one.xml.gz"]);
    assert_eq!(r.candidates.get(0).unwrap().hint("lastmod").unwrap(), "2024-01-01");
    assert_eq!(codes(&r), ["out_of_location", "out_of_location", "duplicate_url"]);
    assert_eq!(r.facts["duplicates"], 1);

    // Declared by robots.txt of a.example and b.example: both cross-submissions are legal.
    let mut m = meta("https://a.example/maps/index.xml");
    m.declared_by =
        vec![Url::parse("https://a.example/robots.txt").unwrap(), Url::parse("https://b.example/robots.txt").unwrap()];
    let r = parse_sitemap(body, &m, &Limits::default());
    assert_eq!(r.follow_ups.len(), 3);
    assert_eq!(codes(&r), ["duplicate_url"]);

    // Declared by another index: nested.
    let mut m = meta("https://a.example/maps/index.xml");
    m.declared_by = vec![Url::parse("https://a.example/sitemap.xml").unwrap()];
    assert!(codes(&parse_sitemap(body, &m, &Limits::default())).contains(&"nested_index"));

    // Redirected: the requested URL's directory counts too.
    let mut m = meta("https://a.example/other/index.xml");
    m.requested_url = Url::parse("https://a.example/maps/index.xml").unwrap();
    assert_eq!(parse_sitemap(body, &m, &Limits::default()).follow_ups.len(), 2);
}

#[test]
fn fetch_truncation_is_reported() {
    let mut m = meta("https://a.example/sitemap.xml");
    m.truncated = true;
    m.size = 50;
    let r = parse_sitemap(urlset(2).as_bytes(), &m, &Limits::default());
    assert_eq!(locs(&r).len(), 2);
    assert_eq!(codes(&r), ["truncated"]);
}

#[test]
fn attribute_and_text_entities() {
    let body = b"<urlset xmlns:xhtml=\"x\"><url><loc><![CDATA[https://a.example/a?b=1&c=2]]>&amp;d=&#51;</loc>\
<xhtml:link rel=\"alternate\" href=\"https://a.example/&Ouml;\"/><xhtml:link href=\"https://a.example/q?a&b\"/></url></urlset>";
    let r = parse(body, "https://a.example/sitemap.xml");
    let all: Vec<&str> = r.candidates.iter().map(|c| c.value()).collect();
    assert_eq!(all, ["https://a.example/a?b=1&c=2&d=3", "https://a.example/q?a&b"]);
    assert_eq!(codes(&r), ["undefined_entity"]);
    assert_eq!(r.errors[0].locator, Some(Locator::Xml("/urlset/url[1]/link[1]".into())));
}

struct Stopper {
    seen: Vec<(Relation, String, bool)>,
    diags: Vec<Diagnostic>,
}

impl Visitor for Stopper {
    fn found(&mut self, found: &Found) -> ControlFlow<()> {
        self.seen.push((found.relation, found.url.to_string(), found.out_of_location));
        if self.seen.len() == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
    fn diagnostic(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
}

#[test]
fn visitor_streams_and_can_stop() {
    let mut v = Stopper { seen: Vec::new(), diags: Vec::new() };
    let body = gzip(urlset(1000).as_bytes());
    let s = visit_sitemap(&body, &meta("https://a.example/x/sitemap.xml"), &Limits::default(), &mut v);
    assert_eq!(v.seen.len(), 3);
    assert_eq!(v.seen[0], (Relation::Loc, "https://a.example/p/0".to_string(), true));
    assert_eq!(v.diags.iter().filter(|d| d.code == "out_of_location").count(), 3);
    assert_eq!(s.urls, 3);
    assert!(s.incomplete);
    assert!(s.bytes < 100_000);
    assert_eq!(s.kind(), "urlset");
}

#[test]
fn repeated_extension_urls_are_counted_apart_from_repeated_pages() {
    let body = br#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc>https://a.example/p1</loc><image:image><image:loc>https://a.example/logo.png</image:loc></image:image></url>
<url><loc>https://a.example/p2</loc><image:image><image:loc>https://a.example/logo.png</image:loc></image:image></url>
<url><loc>https://a.example/p2</loc></url>
</urlset>"#;
    let r = parse(body, "https://a.example/sitemap.xml");
    assert_eq!(r.facts["entries"], 3);
    assert_eq!(r.facts["urls"], 3);
    assert_eq!(r.facts["duplicates"], 1, "only the repeated page");
    assert_eq!(r.facts["duplicate_extensions"], 1, "the logo shared by two pages");
    assert_eq!(codes(&r), ["duplicate_url"]);
}

#[test]
fn an_index_listing_itself_is_diagnosed() {
    let body = br#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://a.example/sitemap_index.xml</loc></sitemap>
<sitemap><loc>https://a.example/posts.xml</loc></sitemap>
</sitemapindex>"#;
    let r = parse(body, "https://a.example/sitemap_index.xml");
    assert_eq!(codes(&r), ["self_listing"]);
    assert_eq!(r.warnings[0].locator, Some(Locator::Xml("/sitemapindex/sitemap[1]/loc".into())));
    assert!(r.valid());
    assert_eq!(r.values(CandidateKind::Sitemap).count(), 2, "still recorded as declared");
}

#[test]
fn an_unescaped_lt_stops_reading_with_malformed_xml_and_never_joins_entries() {
    let mut body = String::from(r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#);
    for i in 1..=50 {
        let loc = if i == 2 { "https://a.example/p2?q=a<b".to_string() } else { format!("https://a.example/p{i}") };
        body.push_str(&format!("<url><loc>{loc}</loc></url>\n"));
    }
    body.push_str("</urlset>");
    for bytes in [body.as_bytes().to_vec(), gzip(body.as_bytes())] {
        let r = parse(&bytes, "https://a.example/sitemap.xml");
        assert_eq!(locs(&r), ["https://a.example/p1"], "what was complete before the `<` is kept, nothing joined");
        assert!(r.has_code("malformed_xml"), "{:?}", r.errors);
        assert!(r.candidates.iter().all(|c| c.value().len() < 40));
    }
    // A `<` followed by a space, and one in a lastmod.
    let r = parse(
        br#"<urlset><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/4 < 5</loc></url><url><loc>https://a.example/6</loc></url></urlset>"#,
        "https://a.example/sitemap.xml",
    );
    assert_eq!(locs(&r), ["https://a.example/1"]);
    assert!(r.has_code("malformed_xml"));
    let r = parse(
        br#"<urlset><url><loc>https://a.example/1</loc><lastmod>2024-01-02 <x</lastmod></url><url><loc>https://a.example/3</loc><lastmod>2024-01-03</lastmod></url></urlset>"#,
        "https://a.example/sitemap.xml",
    );
    assert!(r.candidates.iter().all(|c| c.hint("lastmod").is_none_or(|v| !v.contains("https"))));
    assert!(r.has_code("malformed_xml"));
}

#[test]
fn a_url_with_elements_inside_is_not_used() {
    let r = parse(
        br#"<urlset><url><loc>https://a.example/a<b>c</b></loc></url><url><loc>https://a.example/d</loc><lastmod>2024<i>-01</i></lastmod></url></urlset>"#,
        "https://a.example/sitemap.xml",
    );
    assert_eq!(locs(&r), ["https://a.example/d"], "well-formed, but <loc> with markup is not a URL");
    assert!(r.has_code("invalid_loc") && r.has_code("invalid_lastmod"), "{:?}", r.errors);
    assert_eq!(r.candidates.get(0).unwrap().hint("lastmod"), None);
}

#[test]
fn empty_hints_are_kept_as_declared_and_diagnosed() {
    let r = parse(
        br#"<urlset><url><loc>https://a.example/1</loc><lastmod></lastmod><changefreq> </changefreq><priority/></url></urlset>"#,
        "https://a.example/sitemap.xml",
    );
    let c = r.candidates.get(0).unwrap();
    assert_eq!((c.hint("lastmod"), c.hint("changefreq")), (Some(""), Some("")));
    assert!(r.has_code("invalid_lastmod") && r.has_code("invalid_changefreq"), "{:?}", r.errors);
}

#[test]
fn entries_below_a_nested_urlset_are_read_and_said_once() {
    // ultimate-sitemap-parser#86: `<urlset>` inside `<urlset>`, no namespace, 12-hour lastmod values.
    let body = br#"<?xml version="1.0" encoding="UTF-8"?>
<urlset>
  <urlset>
    <url><loc>https://a.example/1</loc><lastmod>2024-05-08 08:53:11 AM</lastmod></url>
    <url><loc>https://a.example/2</loc><image:image><image:loc>https://a.example/2.png</image:loc></image:image></url>
  </urlset>
  <url><loc>https://a.example/3</loc></url>
  <x><y><z><url><loc>https://a.example/4</loc></url></z></y></x>
</urlset>"#;
    for (what, bytes) in [("plain", body.to_vec()), ("gzip", gzip(body))] {
        let r = parse(&bytes, "https://a.example/sitemap.xml");
        assert_eq!(r.kind, "urlset", "{what}");
        assert_eq!(
            locs(&r),
            ["https://a.example/1", "https://a.example/2", "https://a.example/3", "https://a.example/4"]
        );
        assert_eq!(
            r.values(CandidateKind::Url).filter(|v| v.ends_with(".png")).collect::<Vec<_>>(),
            ["https://a.example/2.png"]
        );
        // The bad lastmod is diagnosed and kept as declared; its URL is not dropped.
        assert_eq!(codes(&r), ["invalid_lastmod", "nested_entry"], "{what}");
        assert_eq!(r.candidates.get(0).and_then(|c| c.hint("lastmod")), Some("2024-05-08 08:53:11 AM"));
        let nested = &r.warnings[0];
        assert_eq!(nested.locator, Some(Locator::Xml("/urlset/urlset/url[1]".into())), "{what}");
        assert!(nested.message.contains("not directly under the root element"), "{}", nested.message);
        let loc = |i: usize| r.candidates.get(i).and_then(|c| c.locator());
        assert_eq!(loc(0), Some(Locator::Xml("/urlset/urlset/url[1]/loc".into())));
        assert_eq!(loc(3), Some(Locator::Xml("/urlset/url[3]/loc".into())));
        assert_eq!(loc(4), Some(Locator::Xml("/urlset/x/y/z/url[4]/loc".into())));
    }
    // The same in a sitemap index; a document whose entries are all in place says nothing.
    let index = br#"<sitemapindex><sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex></sitemapindex>"#;
    let r = parse(index, "https://a.example/sitemap.xml");
    assert_eq!((r.kind.as_str(), locs(&r)), ("sitemapindex", vec!["https://a.example/s1.xml"]));
    assert_eq!(codes(&r), ["nested_entry"]);
    assert!(codes(&parse(urlset(3).as_bytes(), "https://a.example/sitemap.xml")).is_empty());
}
