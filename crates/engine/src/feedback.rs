//! Feedback into the inventory: which scan units a candidate reveals.
//!
//! * `url`, `sitemap`, `endpoint`, `origin`: the URL's origin (http and https only);
//! * `host`: `https://<host>`;
//! * `issuer`: the issuer's origin, and the issuer itself as an issuer unit when its path is not
//!   `/` (a tenant issuer such as `https://login.example/tenant/v2.0`; a root issuer is covered by
//!   its origin's own `openid-configuration` and `oauth-authorization-server` documents);
//! * `path`, `contact`, `app`, `key`: nothing.

use url::Url;
use wellknown_core::{CandidateKind, Host, Origin};

use wellknown_records::UnitTarget;

/// The units `value` (a candidate of `kind`) reveals.
pub(crate) fn revealed(kind: CandidateKind, value: &str) -> Vec<UnitTarget> {
    match kind {
        CandidateKind::Url | CandidateKind::Sitemap | CandidateKind::Endpoint | CandidateKind::Origin => {
            url_origin(value).map(UnitTarget::Origin).into_iter().collect()
        }
        CandidateKind::Host => Host::parse(value)
            .ok()
            .and_then(|h| Origin::new("https", h, None).ok())
            .map(UnitTarget::Origin)
            .into_iter()
            .collect(),
        CandidateKind::Issuer => {
            let Ok(url) = Url::parse(value) else { return Vec::new() };
            let mut v: Vec<UnitTarget> = url_origin(value).map(UnitTarget::Origin).into_iter().collect();
            if matches!(url.scheme(), "http" | "https") && url.path() != "/" {
                v.push(UnitTarget::Issuer(url));
            }
            v
        }
        CandidateKind::Path | CandidateKind::Contact | CandidateKind::App | CandidateKind::Key => Vec::new(),
    }
}

fn url_origin(value: &str) -> Option<Origin> {
    let url = Url::parse(value).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    Origin::from_url(&url).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(kind: CandidateKind, v: &str) -> Vec<String> {
        revealed(kind, v)
            .into_iter()
            .map(|t| match t {
                UnitTarget::Origin(o) => o.ascii(),
                UnitTarget::Issuer(u) => format!("issuer {u}"),
            })
            .collect()
    }

    #[test]
    fn kinds_reveal_origins() {
        assert_eq!(origins(CandidateKind::Url, "https://b.example/x?y"), ["https://b.example"]);
        assert_eq!(origins(CandidateKind::Sitemap, "http://b.example:8080/s.xml"), ["http://b.example:8080"]);
        assert_eq!(origins(CandidateKind::Host, "API.example"), ["https://api.example"]);
        assert_eq!(
            origins(CandidateKind::Issuer, "https://login.example/tenant/v2.0"),
            ["https://login.example", "issuer https://login.example/tenant/v2.0"]
        );
        assert_eq!(origins(CandidateKind::Issuer, "https://login.example"), ["https://login.example"]);
        assert!(origins(CandidateKind::Contact, "mailto:a@b.example").is_empty());
        assert!(origins(CandidateKind::Url, "ftp://b.example/").is_empty());
        assert!(origins(CandidateKind::Path, "/admin").is_empty());
    }
}
