//! RFC 8615 well-known URIs: suffix validation and URL construction at the origin root.
//!
//! Well-known URIs exist only at the root of an origin (`/.well-known/<suffix>`), never under a path
//! (RFC 8615 section 3). A suffix is a `segment-nz` (RFC 3986 section 3.3): one or more `pchar`s,
//! no `/`.

use url::Url;

use crate::origin::Origin;

/// The path prefix of every well-known URI.
pub const PREFIX: &str = "/.well-known/";

/// True when `suffix` is a valid `segment-nz` (RFC 3986 `pchar`s: unreserved, pct-encoded,
/// sub-delims, `:` and `@`; at least one; no `/`).
pub fn is_valid_suffix(suffix: &str) -> bool {
    let b = suffix.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let ok = c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&c);
        if c == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

/// The well-known URL `scheme://host[:port]/.well-known/<suffix>` of `origin`. Returns None when the
/// suffix is not a valid `segment-nz`.
pub fn url(origin: &Origin, suffix: &str) -> Option<Url> {
    is_valid_suffix(suffix).then(|| origin.url_for_path(&format!("{PREFIX}{suffix}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes() {
        assert!(is_valid_suffix("security.txt"));
        assert!(is_valid_suffix("apple-app-site-association"));
        assert!(is_valid_suffix("a%2Fb"));
        assert!(!is_valid_suffix(""));
        assert!(!is_valid_suffix("a/b"));
        assert!(!is_valid_suffix("a%2"));
        assert!(!is_valid_suffix("a b"));
    }

    #[test]
    fn built_at_root() {
        let o = Origin::parse_target("https://a.example:8443/app/").unwrap();
        assert_eq!(url(&o, "security.txt").unwrap().as_str(), "https://a.example:8443/.well-known/security.txt");
    }
}
