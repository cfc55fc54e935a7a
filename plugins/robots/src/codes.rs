//! Diagnostic codes emitted by the robots.txt parser and probe (documented in `docs/plugins/robots.md`).
//!
//! Codes are stable `snake_case` strings. Shared codes (`bom`, `invalid_utf8`, `html_document`,
//! `invalid_content_type`, `invalid_charset`, `too_large`) come from [`wellknown_core::diag::codes`].

pub use wellknown_core::diag::codes::{
    BOM, HTML_DOCUMENT, INVALID_CHARSET, INVALID_CONTENT_TYPE, INVALID_UTF8, TOO_LARGE,
};

/// Warning: the body is larger than the 500 KiB parse limit (RFC 9309 section 2.5); the lines that
/// end beyond the limit were ignored.
pub const OVER_PARSE_LIMIT: &str = "over_parse_limit";
/// Warning: a field this crate neither implements nor records (RFC 9309 section 2.2.4: crawlers
/// ignore records they do not understand).
pub const UNKNOWN_DIRECTIVE: &str = "unknown_directive";
/// Warning: a line that is not a `field: value` record (one token, or three or more tokens without a
/// colon); ignored.
pub const INVALID_LINE: &str = "invalid_line";
/// Warning: a field name read through one of the misspellings Google's parser accepts
/// (`disalow`, `useragent`, `user agent`, `site-map`, ...); RFC 9309 does not accept them.
pub const MISSPELLED_DIRECTIVE: &str = "misspelled_directive";
/// Warning: a field and value separated by whitespace instead of a colon (Google accepts exactly two
/// tokens; RFC 9309 section 2.2 requires the colon).
pub const MISSING_COLON: &str = "missing_colon";
/// Warning: an `allow` or `disallow` line before any `user-agent` line (RFC 9309 section 2.2: rules
/// belong to a group); ignored by the matcher, still listed as a path candidate.
pub const RULE_OUTSIDE_GROUP: &str = "rule_outside_group";
/// Warning: a `user-agent` value that is not a product token (RFC 9309 section 2.2.1), e.g.
/// `FooBot/1.0` or `Foo Bar`; matched on its leading token as Google does.
pub const INVALID_PRODUCT_TOKEN: &str = "invalid_product_token";
/// Warning: a non-empty rule path that starts with neither `/` nor `*` (RFC 9309 section 2.2.2:
/// the path pattern starts with `/`); it can never match.
pub const INVALID_PATTERN: &str = "invalid_pattern";
/// Warning: a `Sitemap:` value that is a relative reference (sitemaps.org requires a fully
/// qualified URL); not followed.
pub const RELATIVE_SITEMAP_URL: &str = "relative_sitemap_url";
/// Warning: a `Sitemap:` value that is not an http(s) URL; not followed.
pub const INVALID_SITEMAP_URL: &str = "invalid_sitemap_url";
/// Warning: the file was requested at a path other than `/robots.txt` (RFC 9309 section 2.3: the
/// rules are in the top-level `/robots.txt` of the origin); read anyway, but it governs nothing.
pub const WRONG_LOCATION: &str = "wrong_location";
/// Warning: a `Crawl-delay:` value that is not a non-negative number of seconds.
pub const INVALID_CRAWL_DELAY: &str = "invalid_crawl_delay";
/// Warning: a `Host:` value that is not a host name (with optional scheme and port).
pub const INVALID_HOST_DIRECTIVE: &str = "invalid_host_directive";
/// Warning: the robots.txt answered 4xx (or redirected too often): RFC 9309 section 2.3.1.3,
/// "unavailable", a crawler may access any resource.
pub const UNAVAILABLE: &str = "unavailable";
/// Warning: the robots.txt answered 5xx or 429, or the server could not be reached: RFC 9309
/// section 2.3.1.4, "unreachable", a crawler must assume complete disallow.
pub const UNREACHABLE: &str = "unreachable";

/// Every code the probe can emit, shared ones included (contract rule 7.3).
pub const ALL: &[&str] = &[
    BOM,
    HTML_DOCUMENT,
    INVALID_CHARSET,
    INVALID_CONTENT_TYPE,
    INVALID_UTF8,
    TOO_LARGE,
    OVER_PARSE_LIMIT,
    UNKNOWN_DIRECTIVE,
    INVALID_LINE,
    MISSPELLED_DIRECTIVE,
    MISSING_COLON,
    RULE_OUTSIDE_GROUP,
    INVALID_PRODUCT_TOKEN,
    INVALID_PATTERN,
    RELATIVE_SITEMAP_URL,
    INVALID_SITEMAP_URL,
    WRONG_LOCATION,
    INVALID_CRAWL_DELAY,
    INVALID_HOST_DIRECTIVE,
    UNAVAILABLE,
    UNREACHABLE,
];
