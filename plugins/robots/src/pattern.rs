//! Path patterns: percent-encoding normalisation (RFC 9309 section 2.2.2) and wildcard matching
//! (section 2.2.3).
//!
//! Both sides of a comparison, the rule's path pattern and the URI's path, are brought to one
//! canonical octet form before they are compared:
//!
//! * `%XX` triplets: the hex digits are upper-cased (RFC 3986 section 2.1); a triplet that encodes an
//!   *unreserved* character (`A-Z a-z 0-9 - . _ ~`) is decoded, every other triplet stays encoded
//!   (RFC 9309 2.2.2: "unless it is a reserved character ... or the character is outside the unreserved
//!   character range");
//! * octets outside printable US-ASCII (controls, space, and every octet >= 0x80, i.e. UTF-8 text) and
//!   the ASCII characters that may not appear raw in a URI (`" < > \ ^ ` { | }`) are percent-encoded;
//!   a `%` that does not start a valid triplet becomes `%25`;
//! * in a URI path, `*` and `$` are ordinary characters and are encoded as `%2A` and `%24`, so that a
//!   pattern that spells them `%2A` / `%24` matches them (RFC 9309 2.2.3); in a pattern, `*` is the
//!   wildcard and a final `$` the end anchor, and a `$` anywhere else is the literal `%24`.
//!
//! Everything else (reserved characters such as `/ ? = & :`) is compared as written on both sides, so
//! a pattern and a URI written in the same form always compare equal.
//!
//! The normalised form is pure ASCII.

use std::borrow::Cow;

/// Upper-case hex digits, indexed by a nibble (always < 16).
const HEX: [u8; 16] = *b"0123456789ABCDEF";

/// Which side of the comparison is being normalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// A rule's path pattern: `*` is the wildcard (the caller has already removed a final `$`).
    Pattern,
    /// A URI's path and query: `*` and `$` are literal.
    Path,
}

/// True for RFC 3986 `unreserved` characters.
#[inline]
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// True for octets that are always percent-encoded before comparison.
#[inline]
fn must_encode(b: u8) -> bool {
    b <= 0x20 || b >= 0x7F || matches!(b, b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}')
}

#[inline]
fn needs_work(b: u8, side: Side) -> bool {
    must_encode(b) || b == b'%' || b == b'$' || (side == Side::Path && b == b'*')
}

#[inline]
fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[inline]
fn push_encoded(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0x0F)]));
}

/// Normalises `input` (a pattern without its final `$`, or a path and query) to the canonical
/// comparison form described in the module documentation. Borrows when nothing changes (the common
/// case: plain ASCII without `%`).
pub(crate) fn normalize(input: &[u8], side: Side) -> Cow<'_, str> {
    let Some(first) = input.iter().position(|&b| needs_work(b, side)) else {
        // Only printable ASCII: valid UTF-8 by construction.
        return match std::str::from_utf8(input) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => Cow::Owned(String::new()),
        };
    };
    let mut out = String::with_capacity(input.len() + 8);
    let (head, rest) = input.split_at(first);
    for &b in head {
        out.push(char::from(b));
    }
    let mut i = 0;
    while let Some(&b) = rest.get(i) {
        if b == b'%' {
            let hi = rest.get(i + 1).copied().and_then(hex_value);
            let lo = rest.get(i + 2).copied().and_then(hex_value);
            if let (Some(hi), Some(lo)) = (hi, lo) {
                let v = (hi << 4) | lo;
                if is_unreserved(v) {
                    out.push(char::from(v));
                } else {
                    push_encoded(&mut out, v);
                }
                i += 3;
                continue;
            }
            push_encoded(&mut out, b'%');
        } else if must_encode(b) || b == b'$' || (side == Side::Path && b == b'*') {
            push_encoded(&mut out, b);
        } else {
            out.push(char::from(b));
        }
        i += 1;
    }
    Cow::Owned(out)
}

/// Splits a raw rule value into (pattern body, end-anchored): a final `$` is the end anchor
/// (RFC 9309 section 2.2.3) and is removed from the body.
pub(crate) fn split_anchor(raw: &[u8]) -> (&[u8], bool) {
    match raw.split_last() {
        Some((b'$', body)) => (body, true),
        _ => (raw, false),
    }
}

/// A pattern in matchable form: where its normalised text (final `$` removed) lies in the index's
/// pattern arena, its end anchor, the length of its literal prefix (before the first `*`) and that
/// prefix's first eight octets packed for a one-compare rejection test.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    start: usize,
    len: usize,
    prefix_len: usize,
    anchored: bool,
    head: u64,
    head_mask: u64,
}

/// Up to eight leading octets of `b`, little-endian, zero-padded.
#[inline]
fn load8(b: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    let n = b.len().min(8);
    if let (Some(dst), Some(src)) = (buf.get_mut(..n), b.get(..n)) {
        dst.copy_from_slice(src);
    }
    u64::from_le_bytes(buf)
}

impl Compiled {
    /// Appends the normalised pattern `pat` (final `$` already removed; `anchored` says it was
    /// present) to `arena` and compiles it.
    pub(crate) fn new(arena: &mut String, pat: &str, anchored: bool) -> Compiled {
        let start = arena.len();
        arena.push_str(pat);
        let prefix_len = memchr::memchr(b'*', pat.as_bytes()).unwrap_or(pat.len());
        let n = prefix_len.min(8);
        let head = load8(pat.as_bytes().get(..n).unwrap_or_default());
        let head_mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
        Compiled { start, len: pat.len(), prefix_len, anchored, head, head_mask }
    }

    /// The normalised pattern without the final `$`.
    #[inline]
    pub(crate) fn pattern<'a>(&self, arena: &'a str) -> &'a [u8] {
        arena.as_bytes().get(self.start..self.start + self.len).unwrap_or_default()
    }

    /// True when the pattern matches the normalised `path` from its first octet (RFC 9309 sections
    /// 2.2.2 and 2.2.3). `path_head` is [`path_head`]`(path)`, computed once per query.
    #[inline]
    pub(crate) fn matches(&self, arena: &str, path: &[u8], path_head: u64) -> bool {
        if (path_head ^ self.head) & self.head_mask != 0 {
            return false;
        }
        let pat = self.pattern(arena);
        if self.prefix_len == pat.len() {
            return if self.anchored { path == pat } else { path.starts_with(pat) };
        }
        match_wildcards(pat, self.prefix_len, self.anchored, path)
    }
}

/// Loads the first eight octets of a path for [`Compiled::matches`].
#[inline]
pub(crate) fn path_head(path: &[u8]) -> u64 {
    load8(path)
}

/// True when the normalised pattern `pat` (with `anchored` for a final `$`) matches the normalised
/// `path` from its first octet (RFC 9309 section 2.2.2 and 2.2.3): `*` matches any run of octets,
/// an anchored pattern must consume the whole path.
#[cfg(test)]
pub(crate) fn matches(pat: &[u8], anchored: bool, path: &[u8]) -> bool {
    match memchr::memchr(b'*', pat) {
        None => {
            if anchored {
                path == pat
            } else {
                path.starts_with(pat)
            }
        }
        Some(star) => match_wildcards(pat, star, anchored, path),
    }
}

/// The wildcard case: `pat[star]` is the first `*`.
///
/// Work is linear in `path.len()` times the number of wildcard segments: literal segments are found
/// left to right with `memchr::memmem`; taking the leftmost occurrence of each segment is optimal
/// for glob patterns, and an anchored final segment is checked against the end of the path.
fn match_wildcards(pat: &[u8], star: usize, anchored: bool, path: &[u8]) -> bool {
    let (first, mut rest) = pat.split_at(star.min(pat.len()));
    if !path.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    // `rest` starts with '*'.
    loop {
        rest = rest.get(1..).unwrap_or_default();
        let (seg, tail) = match memchr::memchr(b'*', rest) {
            Some(i) => rest.split_at(i),
            None => (rest, &[][..]),
        };
        let last = tail.is_empty();
        if last && anchored {
            return path.len() >= pos + seg.len() && path.ends_with(seg);
        }
        if !seg.is_empty() {
            let hay = path.get(pos..).unwrap_or_default();
            match memchr::memmem::find(hay, seg) {
                Some(i) => pos += i + seg.len(),
                None => return false,
            }
        }
        if last {
            return true;
        }
        rest = tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str, side: Side) -> String {
        normalize(s.as_bytes(), side).into_owned()
    }

    #[test]
    fn rfc_9309_table_1() {
        // RFC 9309 section 2.2.2, table 1, applied to both sides.
        assert_eq!(n("/foo/bar?baz=quz", Side::Path), "/foo/bar?baz=quz");
        assert_eq!(n("/foo/bar?baz=https%3A%2F%2Ffoo.bar", Side::Path), "/foo/bar?baz=https%3A%2F%2Ffoo.bar");
        assert_eq!(n("/foo/bar/ツ", Side::Pattern), "/foo/bar/%E3%83%84");
        assert_eq!(n("/foo/bar/%E3%83%84", Side::Path), "/foo/bar/%E3%83%84");
        assert_eq!(n("/foo/bar/%62%61%7A", Side::Pattern), "/foo/bar/baz");
    }

    #[test]
    fn hex_case_stray_percent_and_specials() {
        assert_eq!(n("/%e3%83%84", Side::Pattern), "/%E3%83%84");
        assert_eq!(n("/%7Emak", Side::Path), "/~mak");
        assert_eq!(n("/a%2fb", Side::Path), "/a%2Fb");
        assert_eq!(n("/100%", Side::Path), "/100%25");
        assert_eq!(n("/a b", Side::Path), "/a%20b");
        assert_eq!(n("/a*$", Side::Path), "/a%2A%24");
        assert_eq!(n("/a*$b", Side::Pattern), "/a*%24b");
        assert!(matches!(normalize(b"/plain/path?x=1", Side::Path), Cow::Borrowed(_)));
    }

    #[test]
    fn wildcard_matching() {
        assert!(matches(b"/fish", false, b"/fish.html"));
        assert!(!matches(b"/fish", false, b"/Fish"));
        assert!(matches(b"/*.php", false, b"/folder/any.php.file.html"));
        assert!(matches(b"/*.php", true, b"/folder/filename.php"));
        assert!(!matches(b"/*.php", true, b"/filename.php/"));
        assert!(matches(b"/fish*", true, b"/fish/fins"));
        assert!(!matches(b"/fish*", true, b"/shark/fish"));
        assert!(matches(b"*", false, b"/"));
        assert!(matches(b"/a*b*c", true, b"/abxbc"));
        assert!(!matches(b"/a*bc*bc", true, b"/abc"));
        assert!(matches(b"/", true, b"/"));
        assert!(!matches(b"/", true, b"/x"));
        assert!(!matches(b"", true, b"/"));
        assert!(matches(b"/*?", false, b"/search?q"));
        assert!(!matches(b"/*?", false, b"/search"));
    }

    #[test]
    fn compiled_agrees_with_plain_matching() {
        let pats = ["/", "/a", "/abcdefgh", "/abcdefghij", "/a*b", "*", "/*.php", "/fish*", "/x/y/z/page.html"];
        let paths = ["/", "/a", "/ab", "/abcdefgh", "/abcdefghij/k", "/axxb", "/x.php", "/fish", "/x/y/z/page.html"];
        for p in pats {
            for anchored in [false, true] {
                let mut arena = String::from("/junk*");
                let c = Compiled::new(&mut arena, p, anchored);
                assert_eq!(c.pattern(&arena), p.as_bytes());
                for path in paths {
                    let want = matches(p.as_bytes(), anchored, path.as_bytes());
                    assert_eq!(
                        c.matches(&arena, path.as_bytes(), path_head(path.as_bytes())),
                        want,
                        "{p} {anchored} {path}"
                    );
                }
            }
        }
    }

    #[test]
    fn split_anchor_only_final_dollar() {
        assert_eq!(split_anchor(b"/a$"), (&b"/a"[..], true));
        assert_eq!(split_anchor(b"/a$b"), (&b"/a$b"[..], false));
        assert_eq!(split_anchor(b""), (&b""[..], false));
    }
}
