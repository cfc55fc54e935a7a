//! Where issuer metadata lives: the two URL constructions and their inverse.
//!
//! * **Appended** (OpenID Connect Discovery 1.0 section 4): the issuer with any trailing `/`
//!   removed, then `/.well-known/openid-configuration`. Issuer `https://id.example.com/tenant` →
//!   `https://id.example.com/tenant/.well-known/openid-configuration`.
//! * **Inserted** (RFC 8414 section 3.1): `/.well-known/<suffix>` inserted between the host and the
//!   issuer's path (any terminating `/` of the path removed first). Issuer
//!   `https://id.example.com/tenant` → `https://id.example.com/.well-known/oauth-authorization-server/tenant`.
//! * For an issuer without a path both constructions give the same URL
//!   (`https://id.example.com/.well-known/openid-configuration`): [`Construction::Root`].
//!
//! RFC 8414 section 5 notes that the inserted form may also be used with the
//! `openid-configuration` suffix; clients (MCP among them) try it, so the OpenID probe falls back to
//! it and reports `rfc8414_style_location` when that is where the document was found.

use url::Url;
use wellknown_core::{Origin, Target};

/// The OpenID Connect Discovery well-known suffix.
pub const OIDC_SUFFIX: &str = "openid-configuration";
/// The RFC 8414 well-known suffix.
pub const RFC8414_SUFFIX: &str = "oauth-authorization-server";

/// How a metadata URL was built from its issuer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Construction {
    /// The issuer has no path: appended and inserted forms coincide.
    Root,
    /// `issuer + /.well-known/<suffix>` (OpenID Connect Discovery 1.0 section 4).
    Appended,
    /// `origin + /.well-known/<suffix> + issuer path` (RFC 8414 section 3.1).
    Inserted,
}

impl Construction {
    /// The name used in report facts: `root`, `appended`, `inserted`.
    pub fn as_str(self) -> &'static str {
        match self {
            Construction::Root => "root",
            Construction::Appended => "appended",
            Construction::Inserted => "inserted",
        }
    }
}

impl std::fmt::Display for Construction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The issuer's path without a terminating `/` (`""` for `https://a.example` and `https://a.example/`).
fn issuer_path(issuer: &Url) -> &str {
    issuer.path().trim_end_matches('/')
}

/// `scheme://host[:port]` of `url` (no userinfo, no trailing slash), as the `url` crate serialises it.
fn origin_prefix(url: &Url) -> Option<String> {
    Origin::from_url(url).ok().map(|o| o.ascii())
}

/// Builds `origin + path`, dropping userinfo, query and fragment. Falls back to `issuer` itself when
/// the path cannot be joined (it always can for http(s) URLs).
fn with_path(issuer: &Url, path: &str) -> Url {
    let mut u = issuer.clone();
    u.set_path(path);
    u.set_query(None);
    u.set_fragment(None);
    // Userinfo is not part of an issuer; ignore the error for URLs that cannot carry it.
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u
}

/// The OpenID Connect Discovery URL of `issuer` (appended construction, OIDC Discovery section 4.1):
/// `https://id.example.com/tenant` → `https://id.example.com/tenant/.well-known/openid-configuration`.
/// A trailing `/` of the issuer is removed first; query, fragment and userinfo are dropped.
pub fn oidc_discovery_url(issuer: &Url) -> Url {
    with_path(issuer, &format!("{}/.well-known/{OIDC_SUFFIX}", issuer_path(issuer)))
}

/// The RFC 8414 metadata URL of `issuer` for well-known `suffix` (inserted construction, RFC 8414
/// section 3.1): `https://id.example.com/tenant` with `oauth-authorization-server` →
/// `https://id.example.com/.well-known/oauth-authorization-server/tenant`. A terminating `/` of the
/// issuer's path is removed first; query, fragment and userinfo are dropped.
pub fn rfc8414_metadata_url(issuer: &Url, suffix: &str) -> Url {
    with_path(issuer, &format!("/.well-known/{suffix}{}", issuer_path(issuer)))
}

/// The issuer a probe works on for `target`: the origin itself (`https://a.example`, no path) for an
/// origin target, the URL for a URL target with role `issuer` (from `--issuer` or revealed by another
/// document). None for other URL targets: their URL is the metadata document itself.
pub fn issuer_of_target(target: &Target) -> Option<Url> {
    match target {
        Target::Origin { origin } => Some(origin.root()),
        Target::Url { url, role, .. } if role == "issuer" => Some(url.clone()),
        Target::Url { .. } => None,
    }
}

/// The inverse of both constructions: the issuer a metadata document fetched from `url` must declare,
/// and the construction `url` follows, for well-known `suffix`.
///
/// * path `/.well-known/<suffix>` → (`scheme://host[:port]`, [`Construction::Root`]);
/// * path `/.well-known/<suffix>/p...` → (`scheme://host[:port]/p...`, [`Construction::Inserted`]);
/// * path `/p.../.well-known/<suffix>` → (`scheme://host[:port]/p...`, [`Construction::Appended`]).
///
/// The issuer is returned as a string (issuers compare as strings, OIDC Discovery section 4.3,
/// RFC 8414 section 3.3), without a trailing `/`, with the path as the `url` crate serialises it
/// (percent-encoded). Query and fragment of `url` are ignored. None when `url` follows neither
/// construction (or is not an http(s) URL).
pub fn expected_issuer_from(url: &Url, suffix: &str) -> Option<(String, Construction)> {
    let origin = origin_prefix(url)?;
    let wk = format!("/.well-known/{suffix}");
    let path = url.path();
    if path == wk {
        return Some((origin, Construction::Root));
    }
    if let Some(rest) = path.strip_prefix(&wk)
        && rest.starts_with('/')
    {
        let rest = rest.trim_end_matches('/');
        return Some(if rest.is_empty() {
            (origin, Construction::Root)
        } else {
            (format!("{origin}{rest}"), Construction::Inserted)
        });
    }
    if let Some(prefix) = path.strip_suffix(&wk) {
        let prefix = prefix.trim_end_matches('/');
        return Some((format!("{origin}{prefix}"), Construction::Appended));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn appended_and_inserted() {
        let issuer = u("https://id.example.com/tenant");
        assert_eq!(
            oidc_discovery_url(&issuer).as_str(),
            "https://id.example.com/tenant/.well-known/openid-configuration"
        );
        assert_eq!(
            rfc8414_metadata_url(&issuer, RFC8414_SUFFIX).as_str(),
            "https://id.example.com/.well-known/oauth-authorization-server/tenant"
        );
        let slash = u("https://id.example.com/tenant/");
        assert_eq!(
            oidc_discovery_url(&slash).as_str(),
            "https://id.example.com/tenant/.well-known/openid-configuration"
        );
        assert_eq!(
            rfc8414_metadata_url(&slash, OIDC_SUFFIX).as_str(),
            "https://id.example.com/.well-known/openid-configuration/tenant"
        );
    }

    #[test]
    fn root_issuer_both_same() {
        let issuer = u("https://id.example.com");
        assert_eq!(oidc_discovery_url(&issuer).as_str(), "https://id.example.com/.well-known/openid-configuration");
        assert_eq!(rfc8414_metadata_url(&issuer, OIDC_SUFFIX), oidc_discovery_url(&issuer));
        let q = u("https://user@id.example.com:8443/?q=1#f");
        assert_eq!(oidc_discovery_url(&q).as_str(), "https://id.example.com:8443/.well-known/openid-configuration");
    }

    #[test]
    fn inverse() {
        let e = |s: &str, suffix: &str| expected_issuer_from(&u(s), suffix);
        assert_eq!(
            e("https://a.example/.well-known/openid-configuration", OIDC_SUFFIX),
            Some(("https://a.example".into(), Construction::Root))
        );
        assert_eq!(
            e("https://a.example/t1/v2.0/.well-known/openid-configuration", OIDC_SUFFIX),
            Some(("https://a.example/t1/v2.0".into(), Construction::Appended))
        );
        assert_eq!(
            e("https://a.example/.well-known/openid-configuration/t1", OIDC_SUFFIX),
            Some(("https://a.example/t1".into(), Construction::Inserted))
        );
        assert_eq!(
            e("https://a.example:444/.well-known/oauth-authorization-server/t/x", RFC8414_SUFFIX),
            Some(("https://a.example:444/t/x".into(), Construction::Inserted))
        );
        assert_eq!(e("https://a.example/config.json", OIDC_SUFFIX), None);
        assert_eq!(e("https://a.example/.well-known/openid-configurationx", OIDC_SUFFIX), None);
        assert_eq!(e("mailto:a@b.example", OIDC_SUFFIX), None);
    }

    #[test]
    fn round_trip() {
        for s in ["https://a.example", "https://a.example/tenant", "https://a.example/a/b%20c"] {
            let issuer = u(s);
            let (e, c) = expected_issuer_from(&oidc_discovery_url(&issuer), OIDC_SUFFIX).unwrap();
            assert_eq!(e, s);
            assert!(c != Construction::Inserted);
            let (e, c) = expected_issuer_from(&rfc8414_metadata_url(&issuer, RFC8414_SUFFIX), RFC8414_SUFFIX).unwrap();
            assert_eq!(e, s);
            assert!(c != Construction::Appended);
        }
    }
}
