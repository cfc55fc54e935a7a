//! The sitemap location rule (sitemaps.org protocol, "Sitemap file location" and "Sitemaps & Cross
//! Submits"; Google's sitemap index rules).
//!
//! A sitemap may list only URLs on the same scheme, host and port as itself whose path starts with the
//! sitemap's directory (the path up to and including its last `/`; the sitemap URL's query is
//! ignored). A sitemap at `https://a.example/catalog/sitemap.xml` may list `https://a.example/catalog/x`
//! but not `https://a.example/images/x`, `http://a.example/catalog/x` or `https://b.a.example/catalog/x`.
//! The same rule applies to the child sitemaps an index lists (Google: "in the same directory as the
//! sitemap index file, or lower").
//!
//! Exception (cross-submission): when the robots.txt of the listed URL's origin declared this sitemap
//! (`FetchMeta::declared_by` holds that robots.txt URL), any URL of that origin is allowed.
//!
//! The sitemap's location is both its final URL and the URL first requested (before redirects): a URL
//! allowed by either is in location.

use url::Url;
use wellknown_core::{FetchMeta, Origin};

use crate::fast_url::CanonicalUrl;
use crate::values::{same_bytes, starts_with_bytes};

/// The location rule for one fetched sitemap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocationRule {
    /// (origin, directory path ending in `/`) of the sitemap's final and requested URLs.
    bases: Vec<(Key, String)>,
    /// Origins whose robots.txt declared this sitemap.
    cross_submitted: Vec<Key>,
}

/// An origin compared without allocating: scheme, host as the `url` crate serialises it (lower case,
/// punycode, IPv6 in brackets) without a trailing dot, effective port.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    scheme: String,
    /// `Some(true)` for https, `Some(false)` for http.
    https: Option<bool>,
    host: String,
    port: u16,
}

impl Key {
    fn of(url: &Url) -> Option<Key> {
        let o = Origin::from_url(url).ok()?;
        let https = match o.scheme() {
            "https" => Some(true),
            "http" => Some(false),
            _ => None,
        };
        Some(Key { scheme: o.scheme().to_string(), https, host: o.host().as_url_host(), port: o.port() })
    }

    fn matches(&self, url: &Url) -> bool {
        url.scheme() == self.scheme
            && url.port_or_known_default() == Some(self.port)
            && url.host_str().is_some_and(|h| h.strip_suffix('.').unwrap_or(h) == self.host)
    }

    /// The same comparison for a URL recognised by the fast path (lower-case ASCII host without a
    /// trailing dot, effective port): equal strings exactly when the `url` crate's parts are equal.
    fn matches_canonical(&self, url: &CanonicalUrl<'_>) -> bool {
        url.port == self.port && Some(url.https) == self.https && same_bytes(url.host.as_bytes(), self.host.as_bytes())
    }
}

/// The directory of a URL's path: everything up to and including the last `/` (`/catalog/` for
/// `/catalog/sitemap.xml?x=1`, `/` for `/sitemap.xml`).
pub fn directory(url: &Url) -> &str {
    let path = url.path();
    match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "/",
    }
}

impl LocationRule {
    /// The rule for a sitemap fetched as described by `meta` (final URL, requested URL, and the
    /// documents that declared it).
    pub fn for_meta(meta: &FetchMeta) -> LocationRule {
        let mut bases = Vec::new();
        for u in [&meta.url, &meta.requested_url] {
            if let Some(k) = Key::of(u) {
                let base = (k, directory(u).to_string());
                if !bases.contains(&base) {
                    bases.push(base);
                }
            }
        }
        let cross_submitted =
            meta.declared_by.iter().filter(|d| d.path() == "/robots.txt").filter_map(Key::of).collect();
        LocationRule { bases, cross_submitted }
    }

    /// True when `url` may be listed by this sitemap: under its directory on the same origin, or on an
    /// origin whose robots.txt declared the sitemap.
    pub fn allows(&self, url: &Url) -> bool {
        self.bases.iter().any(|(k, dir)| k.matches(url) && url.path().starts_with(dir.as_str()))
            || self.cross_submitted.iter().any(|k| k.matches(url))
    }

    /// [`LocationRule::allows`] for a URL already in canonical form ([`crate::fast_url::canonical`]),
    /// without parsing it: same scheme, host and effective port, path under the directory.
    pub fn allows_canonical(&self, url: &CanonicalUrl<'_>) -> bool {
        self.bases
            .iter()
            .any(|(k, dir)| k.matches_canonical(url) && starts_with_bytes(url.path.as_bytes(), dir.as_bytes()))
            || self.cross_submitted.iter().any(|k| k.matches_canonical(url))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn meta(url: &str, declared_by: &[&str]) -> FetchMeta {
        let mut m = FetchMeta::synthetic(Url::parse(url).unwrap(), None, Timestamp::UNIX_EPOCH);
        m.declared_by = declared_by.iter().map(|d| Url::parse(d).unwrap()).collect();
        m
    }

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    /// Both comparisons agree whenever the fast path accepts the URL.
    fn allows(r: &LocationRule, s: &str) -> bool {
        let slow = r.allows(&u(s));
        if let Some(c) = crate::fast_url::canonical(s) {
            assert_eq!(r.allows_canonical(&c), slow, "{s}");
        }
        slow
    }

    #[test]
    fn directory_rule() {
        let r = LocationRule::for_meta(&meta("https://a.example/catalog/sitemap.xml?page=2", &[]));
        assert!(allows(&r, "https://a.example/catalog/x"));
        assert!(allows(&r, "https://A.EXAMPLE:443/catalog/sub/y?q"));
        assert!(!allows(&r, "https://a.example/catalog"));
        assert!(!allows(&r, "https://a.example/images/x"));
        assert!(!allows(&r, "http://a.example/catalog/x"));
        assert!(!allows(&r, "https://a.example:8443/catalog/x"));
        assert!(!allows(&r, "https://www.a.example/catalog/x"));
        assert!(allows(&r, "https://a.example./catalog/x"));
        let r = LocationRule::for_meta(&meta("http://[2001:db8::1]:8080/s.xml", &[]));
        assert!(allows(&r, "http://[2001:DB8:0::1]:8080/p"));
        assert!(!allows(&r, "http://[2001:db8::1]/p"));
        assert_eq!(directory(&u("https://a.example/sitemap.xml")), "/");
    }

    #[test]
    fn cross_submission_by_robots() {
        let r = LocationRule::for_meta(&meta("https://cdn.example/maps/s.xml", &["https://b.example/robots.txt"]));
        assert!(allows(&r, "https://b.example/anything"));
        assert!(!allows(&r, "http://b.example/anything"));
        assert!(!allows(&r, "https://c.example/"));
        // A sitemap (not a robots.txt) declaring it gives no exception.
        let r = LocationRule::for_meta(&meta("https://cdn.example/s.xml", &["https://b.example/index.xml"]));
        assert!(!allows(&r, "https://b.example/x"));
    }

    #[test]
    fn requested_url_counts_too() {
        let mut m = meta("https://cdn.example/bucket/s.xml", &[]);
        m.requested_url = u("https://www.a.example/sitemap.xml");
        let r = LocationRule::for_meta(&m);
        assert!(allows(&r, "https://www.a.example/p"));
        assert!(allows(&r, "https://cdn.example/bucket/p"));
        assert!(!allows(&r, "https://cdn.example/p"));
    }
}
