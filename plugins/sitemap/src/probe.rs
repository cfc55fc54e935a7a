//! The `sitemap` probe: where sitemaps live, how they are fetched, and the registration.
//!
//! * Origin target: the conventional `<origin>/sitemap.xml` ([`CONVENTIONAL_LOCATIONS`]); the engine
//!   may add more with [`locations_for`] (e.g. [`SUGGESTED_EXTRA_LOCATIONS`]).
//! * URL target (roles `robots_sitemap`, `child_sitemap`, ...): that URL. The engine must pass the
//!   declaring documents (the robots.txt, the parent index) as `declared_by`, which the location rule
//!   and the `nested_index` warning read.
//! * Child sitemaps come back as follow-ups `("sitemap", url, "child_sitemap")`. The engine keys its
//!   visited set on (probe, final URL) and caps hops at [`crate::MAX_INDEX_DEPTH`], so an index that
//!   lists itself, or a child that redirects back to its index, ends cleanly. A child that answers 404
//!   is a document with that status (no report); what the index declared stays in the index's report.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Origin, OriginOrder, Report, Target, WellKnownProbe};

use crate::limits::{Limits, PROTOCOL_MAX_BYTES};

/// The probe id.
pub const PROBE_ID: &str = "sitemap";

/// Paths fetched on every origin (sitemaps.org does not mandate a name; `/sitemap.xml` is the
/// convention search engines try).
pub static CONVENTIONAL_LOCATIONS: &[&str] = &["/sitemap.xml"];

/// Further conventional paths a configuration may add (not fetched by default): common CMS and
/// generator defaults.
pub static SUGGESTED_EXTRA_LOCATIONS: &[&str] =
    &["/sitemap_index.xml", "/sitemap-index.xml", "/sitemap.xml.gz", "/sitemap.txt", "/wp-sitemap.xml"];

/// Body bytes the fetcher may read: the protocol's 50 MB plus a 1 MiB margin, so an oversized plain
/// file is still seen as oversized (`too_large`). Compressed bodies are smaller than that.
pub const MAX_BODY_BYTES: u64 = PROTOCOL_MAX_BYTES + 1024 * 1024;

/// The sitemap URLs to try for `origin`: [`CONVENTIONAL_LOCATIONS`] then `extra` paths (absolute
/// paths such as `/sitemap_index.xml`; a full URL on the same origin is accepted too), without
/// duplicates. Paths that do not resolve on the origin are skipped.
pub fn locations_for(origin: &Origin, extra: &[&str]) -> Vec<Url> {
    let root = origin.root();
    let mut out: Vec<Url> = Vec::new();
    for p in CONVENTIONAL_LOCATIONS.iter().chain(extra) {
        if let Ok(u) = root.join(p)
            && origin.contains(&u)
            && !out.contains(&u)
        {
            out.push(u);
        }
    }
    out
}

/// The sitemap probe (sitemaps.org 0.9): urlset, sitemapindex, text, RSS, Atom, gzip.
#[derive(Debug, Clone, Copy, Default)]
pub struct SitemapProbe;

impl SitemapProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: None,
        summary: "XML sitemaps, sitemap indexes, text, RSS and Atom sitemaps (gzip peeled)",
        spec: "sitemaps.org 0.9",
        page: "sitemap",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for SitemapProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    /// After robots.txt: `/sitemap.xml` may be one of its `Sitemap:` lines, fetched once with that
    /// declaration attached (the sitemap location rule needs it).
    fn origin_order(&self) -> OriginOrder {
        OriginOrder::AfterFirst
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            follow_redirects: true,
            max_redirects: 5,
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some(
                "application/xml, text/xml;q=0.9, application/gzip;q=0.8, application/rss+xml;q=0.8, \
                 application/atom+xml;q=0.8, text/plain;q=0.5, */*;q=0.1"
                    .to_string(),
            ),
            decode_content_encoding: false,
        }
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => locations_for(origin, &[]),
            Target::Url { url, .. } => vec![url.clone()],
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::parse_sitemap(body, meta, &Limits::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        let o = Origin::parse_target("https://a.example:8443").unwrap();
        let v = locations_for(&o, &["/sitemap_index.xml", "/sitemap.xml", "https://b.example/x.xml", "sitemap.txt"]);
        let v: Vec<&str> = v.iter().map(Url::as_str).collect();
        assert_eq!(
            v,
            [
                "https://a.example:8443/sitemap.xml",
                "https://a.example:8443/sitemap_index.xml",
                "https://a.example:8443/sitemap.txt"
            ]
        );
        let t = Target::Url {
            url: Url::parse("https://a.example/s.xml.gz").unwrap(),
            role: "robots_sitemap".into(),
            declared_by: vec![],
        };
        assert_eq!(SitemapProbe.locations(&t), vec![Url::parse("https://a.example/s.xml.gz").unwrap()]);
        assert!(!SitemapProbe.policy().decode_content_encoding);
    }

    #[test]
    fn registered() {
        let p = wellknown_core::probe_by_id("sitemap").expect("registered");
        assert_eq!(p.spec(), "sitemaps.org 0.9");
        assert_eq!(p.suffix(), None);
    }
}
