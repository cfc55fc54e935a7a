//! Size and work limits of one sitemap file.
//!
//! Two kinds of limit apply (sitemaps.org protocol, "Sitemap file location" and "Using Sitemap index
//! files"): the *protocol* limits (50,000 URLs, 50 MB = 52,428,800 bytes uncompressed per file), which
//! are diagnosed (`too_many_urls`, `too_large`) while reading goes on, and the *hard caps*, above which
//! reading stops (`over_parse_limit`) so that a hostile file (gzip bomb, deep nesting, millions of
//! extension URLs) costs no more than the cap.

/// sitemaps.org: a sitemap file may list at most 50,000 URLs.
pub const PROTOCOL_MAX_URLS: u64 = 50_000;

/// sitemaps.org: a sitemap file may be at most 50 MB (52,428,800 bytes) uncompressed.
pub const PROTOCOL_MAX_BYTES: u64 = 52_428_800;

/// Recommended maximum depth of nested sitemap indexes the engine follows (index → index → ... →
/// urlset). sitemaps.org allows no nesting at all, but real sites nest (six index levels are seen in
/// the wild), so the engine should follow up to this many `child_sitemap` hops from the first sitemap
/// and key its visited set on `(probe, final URL)` so that self-listing indexes and redirect loops end.
pub const MAX_INDEX_DEPTH: u8 = 8;

/// Limits applied while reading one sitemap file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Protocol limit on page (or child sitemap) URLs per file; exceeding it is diagnosed
    /// `too_many_urls`. Default [`PROTOCOL_MAX_URLS`].
    pub max_urls: u64,
    /// Protocol limit on uncompressed bytes per file; exceeding it is diagnosed `too_large`.
    /// Default [`PROTOCOL_MAX_BYTES`].
    pub max_bytes: u64,
    /// Hard cap on uncompressed bytes read from one file (each gzip layer is capped separately);
    /// reading stops there (`over_parse_limit`). Default 100 MiB.
    pub hard_cap_bytes: u64,
    /// Hard cap on values (page, child and extension URLs) reported from one file; reading stops
    /// there (`over_parse_limit`). Default 250,000.
    pub hard_cap_values: u64,
    /// Maximum element nesting depth; a deeper document stops reading there (`over_parse_limit`).
    /// Sitemaps need 5 levels. Default 64.
    pub max_depth: u32,
    /// Maximum length in bytes of one value (a `<loc>`, a text line, a hint); longer values are
    /// dropped (`invalid_loc`). Default 64 KiB.
    pub max_value_bytes: usize,
    /// Compression layers peeled at most (gzip file plus a gzip `Content-Encoding`). Default 2.
    pub max_layers: u8,
    /// Diagnostics kept per code; further ones are only counted (fact `suppressed_diagnostics`).
    /// Default 100.
    pub max_diagnostics_per_code: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_urls: PROTOCOL_MAX_URLS,
            max_bytes: PROTOCOL_MAX_BYTES,
            hard_cap_bytes: 100 * 1024 * 1024,
            hard_cap_values: 250_000,
            max_depth: 64,
            max_value_bytes: 64 * 1024,
            max_layers: 2,
            max_diagnostics_per_code: 100,
        }
    }
}
