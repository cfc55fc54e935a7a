//! Field validators for statement lists: relation strings, Android package names, SHA-256
//! certificate fingerprints and web sites. Pure functions over `&str`; none panics.
//!
//! Sources: `google/digitalassetlinks` `well-known/details.md` ("Relation", "AssetDescriptor"), the
//! Digital Asset Links API reference (`WebAsset.site`) and the compatibility test suite
//! (`2000-web-statement-list-parsing`).

use url::Url;
use wellknown_core::Origin;

/// Checks a relation string `kind/detail`: kind `[a-z0-9_]+`, detail `[a-z0-9_.]+`, exactly one `/`,
/// no whitespace (details.md "Relation"; comptest2107-2124).
///
/// Errors: a short reason (`invalid 'kind' field`, `invalid 'detail' field`, `not of the form
/// kind/detail`).
pub fn check_relation(relation: &str) -> Result<(), &'static str> {
    let Some((kind, detail)) = relation.split_once('/') else {
        return Err("not of the form kind/detail");
    };
    if detail.contains('/') {
        return Err("not of the form kind/detail (more than one '/')");
    }
    if kind.is_empty() || !kind.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_') {
        return Err("invalid 'kind' field (expected [a-z0-9_]+)");
    }
    if detail.is_empty()
        || !detail.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_' || c == b'.')
    {
        return Err("invalid 'detail' field (expected [a-z0-9_.]+)");
    }
    Ok(())
}

/// True for an Android application id / Java package name: at least two `.`-separated segments, each
/// starting with an ASCII letter and made of ASCII letters, digits and `_` (Android `applicationId`
/// rules; comptest2307-2308 reject empty and `B A D`).
pub fn is_valid_package_name(name: &str) -> bool {
    let mut segments = 0usize;
    for seg in name.split('.') {
        let mut bytes = seg.bytes();
        match bytes.next() {
            Some(c) if c.is_ascii_alphabetic() => {}
            _ => return false,
        }
        if !bytes.all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return false;
        }
        segments += 1;
    }
    segments >= 2
}

/// True for a SHA-256 certificate fingerprint as Digital Asset Links requires it: 32 bytes written as
/// upper-case hex pairs separated by `:` (95 characters, e.g. `14:6D:E9:...:E5`). Lower-case hex, a
/// `SHA256:` prefix, missing bytes or other separators are rejected (comptest2310-2314).
pub fn is_valid_fingerprint(fingerprint: &str) -> bool {
    let b = fingerprint.as_bytes();
    let upper_hex = |c: u8| c.is_ascii_digit() || (b'A'..=b'F').contains(&c);
    b.len() == 95
        && b.chunks(3).all(|chunk| match chunk {
            [h, l, b':'] | [h, l] => upper_hex(*h) && upper_hex(*l),
            _ => false,
        })
}

/// The result of checking a `web` target's `site`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteCheck {
    /// The site's origin when the value is an http(s) URL with a host (even a non-conforming one, so
    /// candidates are kept leniently). A trailing dot on the host is dropped.
    pub origin: Option<Origin>,
    /// The whole value as a URL when it is an http(s) URL with a host and something after the
    /// authority (a path, even `/`, a query or a fragment): such a site is invalid, and the URL it
    /// names is kept as a candidate too.
    pub url: Option<Url>,
    /// Why the value is not a valid site, None when it is.
    pub problem: Option<&'static str>,
}

/// Checks a site value: `http[s]://<domain>[:<port>]`, scheme case-insensitive, a trailing dot on
/// the domain allowed, no path (not even `/`), query, fragment or userinfo, no explicit default
/// port, no IP literal (WebAsset reference: "only the scheme, hostname and port parts"; "port numbers
/// ... must be omitted if the standard port numbers are used"; comptest2204-2216).
pub fn check_site(site: &str) -> SiteCheck {
    let Some((scheme, rest)) = site.split_once("://") else {
        return SiteCheck { origin: None, url: None, problem: Some("not an absolute http(s) URL") };
    };
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return SiteCheck { origin: None, url: None, problem: Some("not an http or https URL") };
    }
    let parsed = Url::parse(site).ok();
    let origin = parsed.as_ref().and_then(|u| Origin::from_url(u).ok());
    let Some(origin) = origin else {
        return SiteCheck { origin: None, url: None, problem: Some("not a valid URL") };
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let url = parsed.filter(|_| !tail.is_empty());
    let problem = if tail.starts_with('/') {
        Some("a site cannot contain a path (not even '/')")
    } else if tail.starts_with('?') {
        Some("a site cannot contain query parameters")
    } else if tail.starts_with('#') {
        Some("a site cannot contain a fragment identifier")
    } else if authority.contains('@') {
        Some("a site cannot contain login information")
    } else if explicit_port(authority).is_some_and(|p| Some(p) == wellknown_core::origin::default_port(&scheme)) {
        Some("the default port must be omitted")
    } else if origin.host().ip().is_some() {
        Some("only fully qualified domain names are permitted, not IP addresses")
    } else {
        None
    };
    SiteCheck { origin: Some(origin), url, problem }
}

/// The port written in an authority (`host:port`, `[v6]:port`), if any and numeric.
fn explicit_port(authority: &str) -> Option<u16> {
    let after_host = match authority.rfind(']') {
        Some(i) => authority.get(i + 1..)?,
        None => authority,
    };
    let (_, port) = after_host.rsplit_once(':')?;
    port.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relations() {
        assert!(check_relation("delegate_permission/common.handle_all_urls").is_ok());
        assert!(check_relation("navigate/yellow_brick_road").is_ok());
        for bad in [
            "",
            "delegate_permission",
            "/x",
            "/",
            "INVALID_KIND/x",
            "delegate_permission/",
            "delegate_permission/*",
            "delegate_permission/a/b",
            "delegate_permission/write on the walls",
            "delegate_permission/write_on_the_WALLS",
            " delegate_permission/x",
            "delegate_permission/x ",
            "delegate_permission,x",
        ] {
            assert!(check_relation(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn package_names() {
        assert!(is_valid_package_name("org.wikipedia"));
        assert!(is_valid_package_name("io.homeassistant.companion.android.minimal.debug"));
        assert!(is_valid_package_name("org.a5calls.android.a5calls"));
        for bad in ["", "B A D", "wikipedia", "org..x", "org.5calls", ".org.x", "org.x-y"] {
            assert!(!is_valid_package_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn fingerprints() {
        let good = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5";
        assert!(is_valid_fingerprint(good));
        assert!(!is_valid_fingerprint(&good.to_ascii_lowercase()));
        assert!(!is_valid_fingerprint(&good[3..]));
        assert!(!is_valid_fingerprint(&format!("SHA256:{good}")));
        assert!(!is_valid_fingerprint(&good.replace(':', "-")));
        assert!(!is_valid_fingerprint(""));
        assert!(!is_valid_fingerprint(&format!("GG{}", &good[2..])));
    }

    #[test]
    fn sites() {
        let ok = check_site("https://auth.wikimedia.org");
        assert_eq!(ok.problem, None);
        assert_eq!(ok.origin.map(|o| o.ascii()), Some("https://auth.wikimedia.org".to_string()));
        let fq = check_site("HtTpS://Target.Example.ORG.");
        assert_eq!(fq.problem, None);
        assert_eq!(fq.origin.map(|o| o.ascii()), Some("https://target.example.org".to_string()));
        assert_eq!(check_site("http://a.example:8080").problem, None);
        for bad in [
            "https://a.example/",
            "https://a.example/x",
            "https://a.example?x",
            "https://a.example#x",
            "https://x:y@a.example",
            "https://a.example:443",
            "https://a.example:999999",
            "a.example",
            "mailto://user@a.example",
            "https://10.0.0.1",
        ] {
            assert!(check_site(bad).problem.is_some(), "{bad:?}");
        }
        // Lenient: the origin of a site with a path is still known.
        assert_eq!(check_site("https://a.example/").origin.map(|o| o.ascii()), Some("https://a.example".to_string()));
    }
}
