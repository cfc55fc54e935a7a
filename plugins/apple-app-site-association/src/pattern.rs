//! Path patterns of `applinks`: the old format's `paths` strings (with `NOT ` exclusions) and the
//! component `/` values of the iOS 13+ format. `*` matches any run of characters, `?` one character,
//! and `$(name)` is a substitution variable (Apple, "applinks" > "Details" > "Components").

use url::Url;
use wellknown_core::Origin;

/// Splits an old-format path string into (excluded, pattern): `"NOT /a/*"` is `(true, "/a/*")`.
pub fn split_not(path: &str) -> (bool, &str) {
    match path.strip_prefix("NOT ") {
        Some(rest) => (true, rest),
        None => (false, path),
    }
}

/// True when the pattern matches exactly one path: it has no wildcard (`*`, `?`) and no
/// substitution variable (`$(...)`).
pub fn is_literal(pattern: &str) -> bool {
    !pattern.contains(['*', '?']) && !pattern.contains("$(")
}

/// True when a `/`-separated segment of the pattern is a dot segment: `.` or `..`, also written
/// with percent-encoded dots (`%2e`, `%2E`, `.%2e`, ...), which URL parsers resolve too (RFC 3986
/// section 5.2.4; WHATWG URL "double-dot path segment"). A URL's path is normalised before it is
/// matched, so such a pattern names no URL as written.
pub fn has_dot_segment(pattern: &str) -> bool {
    pattern.split('/').any(|segment| {
        let lower = segment.to_ascii_lowercase();
        let dots = lower.replace("%2e", ".");
        dots == "." || dots == ".."
    })
}

/// The absolute URL a literal pattern names on `origin`, or None when the pattern is not literal,
/// does not start with `/`, carries a fragment, has a dot segment ([`has_dot_segment`]: resolving
/// it would name another path than the one written) or would leave the origin (`//other.host`).
pub fn url_for(origin: &Origin, pattern: &str) -> Option<Url> {
    if !is_literal(pattern)
        || !pattern.starts_with('/')
        || pattern.contains(['#', '\\'])
        || pattern.starts_with("//")
        || has_dot_segment(pattern)
    {
        return None;
    }
    let url = origin.root().join(pattern).ok()?;
    origin.contains(&url).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_patterns_become_urls() {
        let o = Origin::parse_target("https://example.com").unwrap();
        assert_eq!(url_for(&o, "/order/status").unwrap().as_str(), "https://example.com/order/status");
        assert_eq!(url_for(&o, "/").unwrap().as_str(), "https://example.com/");
        assert_eq!(url_for(&o, "/wiki/Am%E1%BA%93li").unwrap().as_str(), "https://example.com/wiki/Am%E1%BA%93li");
        for p in [
            "*",
            "/buy/*",
            "/help/????",
            "/$(food)/menu",
            "relative",
            "//evil.example/x",
            "/\\evil.example",
            "/a#b",
            "/../../etc/passwd",
            "/a/./b",
            "/a/..",
            "/%2e%2e/etc/passwd",
            "/.%2E/x",
            "/%2E/x",
        ] {
            assert_eq!(url_for(&o, p), None, "{p:?}");
        }
    }

    #[test]
    fn dot_segments() {
        for p in ["/../../etc/passwd", "/a/./b", "/a/..", "..", "/%2e%2e/x", "/.%2E/x", "/%2e/x", "/a/../*"] {
            assert!(has_dot_segment(p), "{p:?}");
        }
        for p in ["/a.b/c", "/.well-known/x", "/...", "/a..", "/%2e%2e%2e", "/..*", "/"] {
            assert!(!has_dot_segment(p), "{p:?}");
        }
    }

    #[test]
    fn not_prefix() {
        assert_eq!(split_not("NOT /ios/beta"), (true, "/ios/beta"));
        assert_eq!(split_not("/ios/*"), (false, "/ios/*"));
        assert_eq!(split_not("NOTE"), (false, "NOTE"));
    }
}
