//! Sitemaps protocol 0.9 parser and probe (urlset, index, text, RSS, Atom, gzip).
//!
//! [`parse_sitemap`] interprets one fetched file as a [`Report`]; [`visit_sitemap`] is the same pass
//! with a caller-supplied [`Visitor`] that receives each URL as it is read; [`write_report_streaming`]
//! writes the report as JSON during that pass, never holding its candidates. All are pure: no I/O but
//! the caller's writer, no clock, no panics, bounded memory and work for any input ([`Limits`]).
//!
//! Speed: URLs already in the form the `url` crate serialises are taken as they are ([`fast_url`]),
//! plain markup of an in-memory document is read by the crate itself and the rest by quick-xml, and
//! locators and hints are borrowed and formatted only when used.
//!
//! * **Format from the body** (after a BOM and whitespace): `<urlset>`, `<sitemapindex>`, `<rss>` /
//!   `<rdf:RDF>`, `<feed>` (Atom 0.3/1.0), plain text (one URL per line); gzip is sniffed by its magic
//!   bytes and peeled (at most two layers, first member only, decompression streamed into the XML
//!   reader); an HTML page is diagnosed `html_document`.
//! * **Leniency**: elements matched by local name in any namespace; text and CDATA concatenated and
//!   trimmed; a bare `&` kept literally; an undefined entity drops only its value; relative and
//!   non-http(s) URLs dropped with a diagnostic; UTF-16 (BOM or pattern) and declared non-UTF-8
//!   encodings decoded; a truncated file yields what was complete.
//! * **Safety**: no DTD, no external entity, no XInclude: a DOCTYPE declaring entities refuses the file
//!   (`doctype_rejected`). 50,000 URLs and 50 MB per file (sitemaps.org) are diagnosed; hard caps stop
//!   reading.
//! * **Location rule** ([`LocationRule`]): URLs outside the sitemap's directory are kept, flagged
//!   `out_of_location`, unless the robots.txt of their origin declared the sitemap.
//!
//! Candidates: `url`/`sitemap_loc` (pages), `sitemap`/`sitemap_child` (index children, also returned
//! as follow-ups), `sitemap_image`, `sitemap_video`, `sitemap_alternate`, `sitemap_enclosure`. See
//! `docs/plugins/sitemap.md`.

pub mod codes;
mod emit;
pub mod fast_url;
mod input;
pub mod limits;
pub mod location;
pub mod model;
pub mod probe;
pub mod report;
mod stream;
mod text;
pub mod values;
mod xml;

pub use limits::{Limits, MAX_INDEX_DEPTH, PROTOCOL_MAX_BYTES, PROTOCOL_MAX_URLS};
pub use location::LocationRule;
pub use model::{Format, Found, Hints, Place, Relation, Summary, Visitor};
pub use probe::{CONVENTIONAL_LOCATIONS, PROBE_ID, SUGGESTED_EXTRA_LOCATIONS, SitemapProbe, locations_for};
pub use report::ReportBuilder;
pub use stream::write_report_streaming;

use wellknown_core::{FetchMeta, Locator, Report};

use crate::emit::Emitter;
use crate::input::{PrepareError, prepare};

/// Interprets one sitemap file fetched as described by `meta` (final URL, requested URL, declaring
/// documents, `Content-Encoding`, truncation) and returns its report: kind `urlset | sitemapindex |
/// text | rss | atom | invalid`, diagnostics, candidates (deduplicated within the file), follow-ups for
/// child sitemaps, and facts (`format`, `compression`, `encoding`, `uncompressed_bytes`, `entries`,
/// `urls`, ...). Never panics; work and memory are bounded by `limits`.
pub fn parse_sitemap(body: &[u8], meta: &FetchMeta, limits: &Limits) -> Report {
    let expected = report::expected_values(body.len(), limits);
    let mut builder = ReportBuilder::with_capacity(PROBE_ID, &meta.url, limits.max_diagnostics_per_code, expected);
    let summary = visit_sitemap(body, meta, limits, &mut builder);
    builder.finish(&summary)
}

/// Streams one sitemap file through `visitor`: every declared URL ([`Found`]) and every diagnostic, in
/// document order, as they are read; returns what is known at the end. Same rules as
/// [`parse_sitemap`], without deduplication (that is the [`ReportBuilder`]'s job).
pub fn visit_sitemap<V: Visitor>(body: &[u8], meta: &FetchMeta, limits: &Limits, visitor: &mut V) -> Summary {
    let mut em = Emitter::new(visitor, meta, limits);
    let mut summary = Summary {
        format: Format::Unknown,
        layers: Vec::new(),
        encoding: None,
        bytes: 0,
        entries: 0,
        urls: 0,
        too_large: false,
        too_many_urls: false,
        refused: false,
        incomplete: false,
    };
    if meta.truncated {
        em.truncated(
            format!("the fetch stopped at its size cap after {} bytes", meta.size),
            Some(Locator::Byte(meta.size)),
        );
    }
    let prepared = match prepare(body, meta, limits) {
        Ok(p) => p,
        Err(e) => {
            let msg = match e {
                PrepareError::Compression(layer, m) => format!("the {layer} layer cannot be decoded: {m}"),
                PrepareError::TooManyLayers(n) => format!("more than {n} nested gzip layers; the file is refused"),
            };
            let code = if msg.contains("nested gzip") { codes::OVER_PARSE_LIMIT } else { codes::INVALID_COMPRESSION };
            em.error(code, msg, Some(Locator::Byte(0)));
            summary.refused = true;
            return summary;
        }
    };
    summary.layers = prepared.layers.clone();
    summary.encoding = Some(prepared.encoding.name());
    if prepared.encoding != encoding_rs::UTF_8 {
        let msg = format!("the document is {}; sitemaps must be UTF-8 (decoded anyway)", prepared.encoding.name());
        em.error(codes::NOT_UTF8, msg, None);
    }
    let head = prepared.head.trim_ascii_start();
    let meter = prepared.meter.clone();
    if head.is_empty() && prepared.head.len() < input::HEAD_BYTES {
        em.error(codes::EMPTY_DOCUMENT, "the document is empty", None);
        summary.refused = true;
    } else if !head.starts_with(b"<?xml") && wellknown_core::media::looks_like_html(head) {
        em.error(codes::HTML_DOCUMENT, "an HTML page was served where a sitemap was expected", None);
        summary.format = Format::Html;
        summary.refused = true;
    } else if head.starts_with(b"<") {
        let out = xml::XmlParser::new(&mut em, meta.url.clone()).run(prepared.source);
        summary.format = out.format;
        summary.refused = out.refused;
    } else {
        summary.format = text::parse_text(prepared.source, &mut em);
    }
    summary.bytes = meter.bytes();
    if meter.hit_cap() {
        let msg = format!("more than {} uncompressed bytes; reading stopped at the hard cap", limits.hard_cap_bytes);
        em.over_limit(msg, Some(Locator::Byte(meter.bytes())));
    }
    if meter.hit_cap() || meter.bytes() > limits.max_bytes {
        summary.too_large = true;
        let msg = format!("more than {} bytes uncompressed (sitemaps.org limit: 50 MB)", limits.max_bytes);
        em.error(codes::TOO_LARGE, msg, Some(Locator::Byte(limits.max_bytes)));
    }
    if summary.format == Format::SitemapIndex && meta.declared_by.iter().any(|d| d.path() != "/robots.txt") {
        let msg = "a sitemap index listed by another sitemap (sitemaps.org: an index lists sitemaps, not indexes)";
        em.warn(codes::NESTED_INDEX, msg, None);
    }
    summary.entries = em.entries;
    summary.urls = em.urls;
    summary.too_many_urls = em.too_many_urls;
    summary.incomplete = em.incomplete;
    summary
}

inventory::submit! { wellknown_core::ProbeRegistration::new(&SitemapProbe) }
