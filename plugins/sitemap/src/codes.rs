//! Diagnostic codes of the sitemap parser (stable; documented in `docs/plugins/sitemap.md`).
//!
//! Severity is fixed per code: errors make the report invalid, warnings (marked (w)) are advisory.

pub use wellknown_core::diag::codes::{HTML_DOCUMENT, INVALID_UTF8, TOO_LARGE};

/// The body is empty or only whitespace.
pub const EMPTY_DOCUMENT: &str = "empty_document";
/// The XML root element is not `urlset`, `sitemapindex`, `rss`, `rdf:RDF` or `feed`.
pub const UNKNOWN_ROOT: &str = "unknown_root";
/// A text body none of whose lines is an absolute URL.
pub const NOT_A_SITEMAP: &str = "not_a_sitemap";
/// A DOCTYPE declaring entities (billion laughs, XXE): the file is refused.
pub const DOCTYPE_REJECTED: &str = "doctype_rejected";
/// More than 50,000 URLs in one file (sitemaps.org).
pub const TOO_MANY_URLS: &str = "too_many_urls";
/// A hard cap (bytes, values, nesting depth, compression layers) stopped reading.
pub const OVER_PARSE_LIMIT: &str = "over_parse_limit";
/// The document ends before its root element closes, or the fetch was cut.
pub const TRUNCATED: &str = "truncated";
/// The XML is not well-formed at a point where reading cannot go on.
pub const MALFORMED_XML: &str = "malformed_xml";
/// The gzip (or deflate/brotli) layer is corrupt.
pub const INVALID_COMPRESSION: &str = "invalid_compression";
/// A sitemap index found below another sitemap index (w).
pub const NESTED_INDEX: &str = "nested_index";
/// An entry (`<url>`, or `<sitemap>` of an index) below another element than the root, e.g. a
/// `<urlset>` nested in a `<urlset>`; read anyway, by local name at any depth (w, once per file).
pub const NESTED_ENTRY: &str = "nested_entry";
/// An entry without a `<loc>` (or feed item without a link).
pub const MISSING_LOC: &str = "missing_loc";
/// A value that is not a URL at all (or longer than the value cap).
pub const INVALID_LOC: &str = "invalid_loc";
/// A relative URL where an absolute one is required.
pub const RELATIVE_LOC: &str = "relative_loc";
/// A URL whose scheme is not http or https (`file:`, `ftp:`, `javascript:`, `data:`, ...).
pub const UNSUPPORTED_SCHEME: &str = "unsupported_scheme";
/// A `<loc>` longer than 2,048 characters (w).
pub const LONG_LOC: &str = "long_loc";
/// A URL outside the sitemap's location and not cross-submitted by robots.txt.
pub const OUT_OF_LOCATION: &str = "out_of_location";
/// A value holding an entity reference the document never defines; that value is dropped.
pub const UNDEFINED_ENTITY: &str = "undefined_entity";
/// `<lastmod>` is not W3C Datetime.
pub const INVALID_LASTMOD: &str = "invalid_lastmod";
/// `<changefreq>` is not one of always, hourly, daily, weekly, monthly, yearly, never.
pub const INVALID_CHANGEFREQ: &str = "invalid_changefreq";
/// `<priority>` is not a decimal between 0.0 and 1.0.
pub const INVALID_PRIORITY: &str = "invalid_priority";
/// The same URL listed again in the same file (w).
pub const DUPLICATE_URL: &str = "duplicate_url";
/// A second `<loc>` in one entry; the first one is used (w).
pub const MULTIPLE_LOC: &str = "multiple_loc";
/// A sitemap index lists its own URL (as requested or as finally fetched) as a child (w): recorded,
/// never fetched again (the scan's visited set also ends longer cycles).
pub const SELF_LISTING: &str = "self_listing";
/// The document is not UTF-8 (declared another encoding, or UTF-16) and was decoded (w).
pub const NOT_UTF8: &str = "not_utf8";

/// Every code the probe can emit, shared ones included (contract rule 7.3).
pub const ALL: &[&str] = &[
    HTML_DOCUMENT,
    INVALID_UTF8,
    TOO_LARGE,
    EMPTY_DOCUMENT,
    UNKNOWN_ROOT,
    NOT_A_SITEMAP,
    DOCTYPE_REJECTED,
    TOO_MANY_URLS,
    OVER_PARSE_LIMIT,
    TRUNCATED,
    MALFORMED_XML,
    INVALID_COMPRESSION,
    NESTED_INDEX,
    NESTED_ENTRY,
    MISSING_LOC,
    INVALID_LOC,
    RELATIVE_LOC,
    UNSUPPORTED_SCHEME,
    LONG_LOC,
    OUT_OF_LOCATION,
    UNDEFINED_ENTITY,
    INVALID_LASTMOD,
    INVALID_CHANGEFREQ,
    INVALID_PRIORITY,
    DUPLICATE_URL,
    MULTIPLE_LOC,
    SELF_LISTING,
    NOT_UTF8,
];
