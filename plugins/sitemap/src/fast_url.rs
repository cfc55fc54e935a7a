//! A byte-level fast path for URL normalisation.
//!
//! Almost every `<loc>` of a real sitemap is already written the way the `url` crate (WHATWG URL
//! Standard, <https://url.spec.whatwg.org/>) serialises it: `https://www.example.com/catalog/item-1`.
//! For such a string the serialisation is the string itself, so running the full parser only to get
//! the same bytes back is wasted work (it costs more than the XML pass). [`canonical`] recognises
//! that form with one scan over the bytes and returns the parts the location rule needs; anything it
//! does not recognise is left to `Url::parse` (the slow path), so the fast path never decides a
//! different value than the `url` crate would (property-tested against `Url::parse(..).as_str()`).
//!
//! Accepted (every condition must hold, else `None`):
//!
//! * scheme `http://` or `https://`, lower case (special schemes; no `\`, no missing slashes);
//! * host: one or more non-empty labels of `[a-z0-9-]` (at most 63 bytes each, 253 in all), no label
//!   starting with `xn--` (punycode is validated by IDNA: slow path), separated by `.`, no trailing
//!   dot; when the last label starts with a digit the host must be a dotted-quad IPv4 address in
//!   canonical decimal form (`192.0.2.1`: no leading zeros, each part at most 255), since the WHATWG
//!   host parser reads such hosts as numbers ("ends in a number");
//! * no userinfo (`@`), no IPv6 literal (`[`), no percent-escape in the host;
//! * an optional port of 1 to 5 digits without a leading zero, at most 65535, and not the scheme's
//!   default (80, 443), which the serialiser would drop;
//! * a path starting with `/` (the serialiser adds a missing one) made only of bytes the path
//!   percent-encode set leaves alone (printable ASCII except `"`, `<`, `>`, `` ` ``, `{`, `}`) and no
//!   `\` (a path separator in special URLs), with no `.` or `..` segment (also not as `%2e`);
//! * an optional query of printable ASCII except `"`, `<`, `>`, `'` (the special-query
//!   percent-encode set);
//! * an optional fragment of printable ASCII except `"`, `<`, `>`, `` ` `` (the fragment
//!   percent-encode set), kept as the `url` crate keeps it;
//! * every `%` followed by two hexadecimal digits; no space, tab, newline, control or non-ASCII byte.

/// A URL already in the exact form the `url` crate serialises it, with the parts the location rule
/// compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CanonicalUrl<'a> {
    /// The whole URL (also its normalised serialisation).
    pub url: &'a str,
    /// `https` (true) or `http` (false).
    pub https: bool,
    /// The host, lower case ASCII, without a trailing dot.
    pub host: &'a str,
    /// The effective port (the scheme's default when none is written).
    pub port: u16,
    /// The path, from its leading `/` up to the query or fragment (excluded).
    pub path: &'a str,
}

impl CanonicalUrl<'_> {
    /// The scheme, `http` or `https`.
    pub fn scheme(&self) -> &'static str {
        if self.https { "https" } else { "http" }
    }
}

/// Byte classes, one bit each.
const PATH: u8 = 1;
const QUERY: u8 = 2;
const FRAGMENT: u8 = 4;
const HOST: u8 = 8;
/// `%`, whose escapes are checked apart.
const PERCENT: u8 = 16;
/// `/`, which separates path segments.
const SLASH: u8 = 32;
/// `.` and `%`, with which a dot segment (`.`, `..`, `%2e`, ...) starts.
const DOT_START: u8 = 64;

/// Which parts of a URL may hold each byte unchanged (`%` is allowed here; that it starts an escape
/// is checked apart).
static CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0x21;
    while b <= 0x7e {
        let c = b as u8;
        let mut bits = 0;
        if !matches!(c, b'"' | b'<' | b'>' | b'`' | b'{' | b'}' | b'\\' | b'#' | b'?' | b'/') {
            bits |= PATH;
        }
        if !matches!(c, b'"' | b'<' | b'>' | b'\'' | b'#') {
            bits |= QUERY;
        }
        if !matches!(c, b'"' | b'<' | b'>' | b'`') {
            bits |= FRAGMENT;
        }
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' {
            bits |= HOST;
        }
        if c == b'%' {
            bits |= PERCENT;
        }
        if c == b'/' {
            bits |= SLASH;
        }
        if c == b'.' || c == b'%' {
            bits |= DOT_START;
        }
        t[b] = bits;
        b += 1;
    }
    t
};

fn class(b: u8) -> u8 {
    CLASSES[usize::from(b)]
}

/// True when `seg` is a single- or double-dot path segment as the WHATWG path parser sees it (`.`,
/// `..`, `%2e`, `.%2E`, ...), which the serialiser would remove.
fn is_dot_segment(seg: &[u8]) -> bool {
    let dot = |s: &[u8]| s == b"." || s.eq_ignore_ascii_case(b"%2e");
    match seg.len() {
        1 | 3 => dot(seg),
        2 => seg == b"..",
        4 => dot(&seg[..1]) && dot(&seg[1..]) || dot(&seg[..3]) && dot(&seg[3..]),
        6 => dot(&seg[..3]) && dot(&seg[3..]),
        _ => false,
    }
}

/// True when `label` is a canonical decimal IPv4 part (`0`..`255`, no leading zero).
fn is_ipv4_part(label: &[u8]) -> bool {
    match label {
        [d] => d.is_ascii_digit(),
        [b'1'..=b'9', rest @ ..] if rest.len() <= 2 && rest.iter().all(u8::is_ascii_digit) => {
            label.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0')) <= 255
        }
        _ => false,
    }
}

/// Scans `bytes` from `i` while the bytes are of class `bit`; returns where it stopped, and the
/// union of the classes of the bytes scanned (to know whether a `%` was among them).
fn scan(bytes: &[u8], mut i: usize, bit: u8, seen: &mut u8) -> usize {
    while let Some(&c) = bytes.get(i) {
        let k = class(c);
        if k & bit == 0 {
            break;
        }
        *seen |= k;
        i += 1;
    }
    i
}

/// True when a segment of `path` (which starts with `/`) is a dot segment.
fn has_dot_segment(path: &[u8]) -> bool {
    memchr::memchr2_iter(b'.', b'%', path).any(|j| {
        j > 0 && path.get(j - 1) == Some(&b'/') && {
            let seg = path.get(j..).unwrap_or_default();
            let end = seg.iter().position(|&c| c == b'/').unwrap_or(seg.len());
            is_dot_segment(seg.get(..end).unwrap_or_default())
        }
    })
}

/// True when every `%` in `b` starts a two-hex-digit escape.
fn escapes_valid(b: &[u8]) -> bool {
    memchr::memchr_iter(b'%', b).all(|i| b.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)))
}

/// Returns the parts of `s` when `s` is an absolute http(s) URL already in the exact form the `url`
/// crate serialises it (`Url::parse(s).unwrap().as_str() == s`), else `None` (use the slow path).
/// `s` must already be trimmed. Never panics; one pass over the bytes.
pub fn canonical(s: &str) -> Option<CanonicalUrl<'_>> {
    let b = s.as_bytes();
    let (https, start) = if b.starts_with(b"https://") {
        (true, 8)
    } else if b.starts_with(b"http://") {
        (false, 7)
    } else {
        return None;
    };
    // Host: labels of [a-z0-9-].
    let mut i = start;
    let mut label = start;
    let mut labels = 0u32;
    let mut last_label: usize;
    loop {
        let c = b.get(i).copied();
        if c.is_some_and(|c| class(c) & HOST != 0) {
            i += 1;
            continue;
        }
        // End of a label.
        let l = b.get(label..i)?;
        if l.is_empty() || l.len() > 63 || l.starts_with(b"xn--") {
            return None;
        }
        labels += 1;
        last_label = label;
        if c == Some(b'.') {
            i += 1;
            label = i;
            continue;
        }
        break;
    }
    let host_end = i;
    let host = s.get(start..host_end)?;
    if host.len() > 253 {
        return None;
    }
    if b.get(last_label).is_some_and(u8::is_ascii_digit) {
        // The WHATWG host parser reads this host as an IPv4 address: accept only the canonical
        // dotted quad, which it serialises unchanged.
        if labels != 4 || !host.as_bytes().split(|&c| c == b'.').all(is_ipv4_part) {
            return None;
        }
    }
    // Port.
    let default = if https { 443 } else { 80 };
    let mut port = default;
    if b.get(i) == Some(&b':') {
        i += 1;
        let digits = b.get(i..)?.iter().take_while(|c| c.is_ascii_digit()).count();
        let p = b.get(i..i + digits)?;
        if p.is_empty() || p.len() > 5 || p.first() == Some(&b'0') {
            return None;
        }
        let n = p.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        port = u16::try_from(n).ok()?;
        if port == default {
            return None;
        }
        i += digits;
    }
    // Path: must start with '/'.
    if b.get(i) != Some(&b'/') {
        return None;
    }
    // The path runs to the first byte that is neither a path byte nor `/` (a `?` or `#` ends it):
    // one loop over it, whatever its segments; dot segments are looked for only when a `.` or `%`
    // is in it.
    let path_start = i;
    let mut seen = 0u8;
    let tail = b.get(i..)?;
    i += tail
        .iter()
        .position(|&c| {
            let k = class(c);
            seen |= k;
            k & (PATH | SLASH) == 0
        })
        .unwrap_or(tail.len());
    let path = s.get(path_start..i)?;
    if seen & DOT_START != 0 && has_dot_segment(path.as_bytes()) {
        return None;
    }
    if b.get(i) == Some(&b'?') {
        i = scan(b, i + 1, QUERY, &mut seen);
    }
    if b.get(i) == Some(&b'#') {
        i = scan(b, i + 1, FRAGMENT, &mut seen);
    }
    if i != b.len() || seen & PERCENT != 0 && !escapes_valid(b.get(path_start..)?) {
        return None;
    }
    Some(CanonicalUrl { url: s, https, host, port, path })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(s: &str) {
        let c = canonical(s).unwrap_or_else(|| panic!("fast path refused {s:?}"));
        assert_eq!(url::Url::parse(s).unwrap().as_str(), s);
        assert_eq!(c.url, s);
    }

    #[test]
    fn accepts_canonical_urls() {
        same("https://geoconnex.us/ref/pws/IL1615450");
        same("http://a.example:8080/p?q=1&b=%20#frag");
        same("https://192.0.2.1/x/");
        same("https://a-b.c0.example/a/b.c/..d/.e/?a=.&b=..#x");
        same("https://a.example/%2Fx%e2%82%ac|^[]");
        let c = canonical("https://www.example.com:8443/catalog/x?y").unwrap();
        assert_eq!((c.https, c.host, c.port, c.path), (true, "www.example.com", 8443, "/catalog/x"));
        let c = canonical("http://a.example/").unwrap();
        assert_eq!((c.scheme(), c.port, c.path), ("http", 80, "/"));
    }

    #[test]
    fn refuses_what_the_serialiser_changes() {
        for s in [
            "HTTPS://a.example/",
            "https://A.example/",
            "https://a.example",
            "https://a.example:443/",
            "http://a.example:80/",
            "https://a.example:0443/",
            "https://a.example:/",
            "https://a.example./",
            "https://a..example/",
            "https://xn--bcher-kva.example/",
            "https://bücher.example/",
            "https://a.example/a/../b",
            "https://a.example/a/./b",
            "https://a.example/a/%2e%2E/b",
            "https://a.example/a/.%2e",
            "https://a.example/a b",
            "https://a.example/a\tb",
            "https://a.example/a\\b",
            "https://a.example/a{b}",
            "https://a.example/é",
            "https://a.example/?q='x'",
            "https://a.example/%zz",
            "https://a.example/%2",
            "https://u@a.example/",
            "https://[::1]/",
            "https://1.2.3/",
            "https://01.2.3.4/",
            "https://1.2.3.256/",
            "https://a.1/",
            "https://a.0x1/",
            "http:/a.example/",
            "ftp://a.example/",
            "https://a.example:99999/",
        ] {
            assert!(canonical(s).is_none(), "{s:?} must take the slow path");
        }
    }

    #[test]
    fn dot_segments() {
        for s in [".", "..", "%2e", "%2E", ".%2e", "%2e.", "%2e%2E"] {
            assert!(is_dot_segment(s.as_bytes()), "{s}");
        }
        for s in ["...", ".a", "a.", "%2f", "%2e%2e%2e", "", "%2ex"] {
            assert!(!is_dot_segment(s.as_bytes()), "{s}");
        }
    }
}
