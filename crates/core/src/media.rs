//! Media-type and byte-level helpers shared by parsers: `Content-Type` parsing (RFC 9110 section
//! 8.3), byte-order marks, and HTML sniffing (soft 404s, login pages and single-page-app shells served
//! with 200 where a data document was expected).

/// A parsed `Content-Type`: lower-case essence (`text/plain`) and the charset parameter, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaType {
    /// `type/subtype`, lower case, trimmed.
    pub essence: String,
    /// The `charset` parameter, lower case, quotes removed.
    pub charset: Option<String>,
}

impl MediaType {
    /// Parses a header value. Returns None for an empty or malformed value (no `/`).
    ///
    /// Hand-written on purpose, and lenient: the essence before the first `;` and a `charset`
    /// parameter wherever it is. Servers send values outside the RFC 9110 grammar, and a strict
    /// parser (the `mediatype` crate) returns nothing for `text/plain; charset` or
    /// `text/plain;;charset=utf-8`, which would turn such a security.txt into an
    /// `invalid_content_type` error it does not get today, and hide a JSON document's charset.
    pub fn parse(value: &str) -> Option<MediaType> {
        let mut parts = value.split(';');
        let essence = parts.next()?.trim().to_ascii_lowercase();
        if essence.is_empty() || !essence.contains('/') {
            return None;
        }
        let charset = parts.find_map(|p| {
            let (k, v) = p.split_once('=')?;
            k.trim().eq_ignore_ascii_case("charset").then(|| v.trim().trim_matches('"').to_ascii_lowercase())
        });
        Some(MediaType { essence, charset })
    }

    /// True for `application/json` and `+json` structured-syntax types (RFC 6839).
    pub fn is_json(&self) -> bool {
        self.essence == "application/json" || self.essence.ends_with("+json")
    }

    /// True for `text/html` and `application/xhtml+xml`.
    pub fn is_html(&self) -> bool {
        self.essence == "text/html" || self.essence == "application/xhtml+xml"
    }

    /// For a JSON document: the `invalid_charset` message when the `charset` parameter names
    /// anything but UTF-8 (`utf-8`, `utf8`), since JSON exchanged between systems MUST be UTF-8
    /// (RFC 8259 section 8.1); `None` without a charset or with UTF-8. The JSON probes report it
    /// with the same wording.
    pub fn json_charset_problem(&self) -> Option<String> {
        let cs = self.charset.as_deref().filter(|c| *c != "utf-8" && *c != "utf8")?;
        Some(format!("charset {cs:?}: JSON is UTF-8 (RFC 8259 section 8.1)"))
    }
}

/// Byte-order marks recognised at the start of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bom {
    /// EF BB BF
    Utf8,
    /// FF FE
    Utf16Le,
    /// FE FF
    Utf16Be,
}

/// Detects a byte-order mark; returns it and the body without it.
pub fn strip_bom(body: &[u8]) -> (Option<Bom>, &[u8]) {
    if let Some(rest) = body.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        (Some(Bom::Utf8), rest)
    } else if let Some(rest) = body.strip_prefix(&[0xFF, 0xFE]) {
        (Some(Bom::Utf16Le), rest)
    } else if let Some(rest) = body.strip_prefix(&[0xFE, 0xFF]) {
        (Some(Bom::Utf16Be), rest)
    } else {
        (None, body)
    }
}

/// A Unicode encoding other than UTF-8, recognised from a document's first bytes
/// ([`detect_wide_encoding`]). JSON exchanged between systems MUST be UTF-8 (RFC 8259 section 8.1),
/// and so must security.txt (RFC 9116 section 4), so finding one of these is an error; the text can
/// still be read with [`decode_wide`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WideEncoding {
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
}

impl WideEncoding {
    /// The encoding's name for messages: `UTF-16LE`, `UTF-16BE`, `UTF-32LE`, `UTF-32BE`.
    pub fn name(self) -> &'static str {
        match self {
            WideEncoding::Utf16Le => "UTF-16LE",
            WideEncoding::Utf16Be => "UTF-16BE",
            WideEncoding::Utf32Le => "UTF-32LE",
            WideEncoding::Utf32Be => "UTF-32BE",
        }
    }
}

/// Detects a UTF-16 or UTF-32 body: by its byte-order mark (UTF-32 `00 00 FE FF` / `FF FE 00 00`
/// first, then UTF-16 `FE FF` / `FF FE`), or without one by the zero bytes around an ASCII first
/// character (the pattern RFC 4627 section 3 describes: `00 00 00 xx`, `xx 00 00 00`, `00 xx`,
/// `xx 00`). Returns the encoding and the length of its BOM (0 when there is none); None for a body
/// that may be UTF-8. Looks at four bytes at most.
pub fn detect_wide_encoding(body: &[u8]) -> Option<(WideEncoding, usize)> {
    match body {
        [0x00, 0x00, 0xFE, 0xFF, ..] => Some((WideEncoding::Utf32Be, 4)),
        [0xFF, 0xFE, 0x00, 0x00, ..] => Some((WideEncoding::Utf32Le, 4)),
        [0xFE, 0xFF, ..] => Some((WideEncoding::Utf16Be, 2)),
        [0xFF, 0xFE, ..] => Some((WideEncoding::Utf16Le, 2)),
        [0x00, 0x00, 0x00, x, ..] if *x != 0 => Some((WideEncoding::Utf32Be, 0)),
        [x, 0x00, 0x00, 0x00, ..] if *x != 0 => Some((WideEncoding::Utf32Le, 0)),
        [0x00, x, ..] if *x != 0 => Some((WideEncoding::Utf16Be, 0)),
        [x, 0x00, ..] if *x != 0 => Some((WideEncoding::Utf16Le, 0)),
        _ => None,
    }
}

/// Decodes `body` (without its BOM) from `encoding` into a String, leniently: an unpaired
/// surrogate, a value that is not a Unicode scalar value, or trailing bytes that do not fill a code
/// unit become U+FFFD. Returns the text and whether anything was replaced. Linear, never panics.
pub fn decode_wide(body: &[u8], encoding: WideEncoding) -> (String, bool) {
    let mut out = String::with_capacity(body.len() / 2);
    let mut replaced = false;
    match encoding {
        WideEncoding::Utf16Le | WideEncoding::Utf16Be => {
            let units = body.chunks_exact(2).map(|c| match (encoding, c) {
                (WideEncoding::Utf16Le, [a, b]) => u16::from_le_bytes([*a, *b]),
                (_, [a, b]) => u16::from_be_bytes([*a, *b]),
                _ => 0xFFFD,
            });
            for ch in char::decode_utf16(units) {
                out.push(ch.unwrap_or_else(|_| {
                    replaced = true;
                    char::REPLACEMENT_CHARACTER
                }));
            }
            if !body.len().is_multiple_of(2) {
                replaced = true;
                out.push(char::REPLACEMENT_CHARACTER);
            }
        }
        WideEncoding::Utf32Le | WideEncoding::Utf32Be => {
            for c in body.chunks_exact(4) {
                let bytes = [c.first(), c.get(1), c.get(2), c.get(3)].map(|b| b.copied().unwrap_or(0));
                let v = if encoding == WideEncoding::Utf32Le {
                    u32::from_le_bytes(bytes)
                } else {
                    u32::from_be_bytes(bytes)
                };
                out.push(char::from_u32(v).unwrap_or_else(|| {
                    replaced = true;
                    char::REPLACEMENT_CHARACTER
                }));
            }
            if !body.len().is_multiple_of(4) {
                replaced = true;
                out.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    (out, replaced)
}

/// True when the body looks like an HTML page: after a BOM and whitespace it starts with
/// `<!doctype html`, `<html`, `<head`, `<body`, or `<!--` followed by one of those within the first
/// kilobyte. Case-insensitive. Bounded work: looks at most at the first 1 KiB.
pub fn looks_like_html(body: &[u8]) -> bool {
    let (_, b) = strip_bom(body);
    let head = &b[..b.len().min(1024)];
    let start = head.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(head.len());
    let head = &head[start..];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    const MARKERS: [&[u8]; 5] = [b"<!doctype html", b"<html", b"<head", b"<body", b"<meta"];
    if MARKERS.iter().any(|m| lower.starts_with(m)) {
        return true;
    }
    if lower.starts_with(b"<!--") || lower.starts_with(b"<?xml") {
        return MARKERS.iter().any(|m| memchr::memmem::find(&lower, m).is_some());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_charset_problem_names_anything_but_utf8() {
        let problem = |ct: &str| MediaType::parse(ct).and_then(|m| m.json_charset_problem());
        assert_eq!(problem("application/json"), None);
        assert_eq!(problem("application/json; charset=UTF-8"), None);
        assert_eq!(problem("application/json;charset=\"utf8\""), None);
        assert_eq!(
            problem("application/json; charset=ISO-8859-1").as_deref(),
            Some("charset \"iso-8859-1\": JSON is UTF-8 (RFC 8259 section 8.1)")
        );
    }

    #[test]
    fn wide_encodings_by_bom_and_pattern() {
        assert_eq!(detect_wide_encoding(b"\xFF\xFE\0\0{\0\0\0"), Some((WideEncoding::Utf32Le, 4)));
        assert_eq!(detect_wide_encoding(b"\0\0\xFE\xFF"), Some((WideEncoding::Utf32Be, 4)));
        assert_eq!(detect_wide_encoding(b"\xFF\xFEC\0"), Some((WideEncoding::Utf16Le, 2)));
        assert_eq!(detect_wide_encoding(b"\xFE\xFF\0C"), Some((WideEncoding::Utf16Be, 2)));
        assert_eq!(detect_wide_encoding(b"C\0o\0"), Some((WideEncoding::Utf16Le, 0)));
        assert_eq!(detect_wide_encoding(b"\0C\0o"), Some((WideEncoding::Utf16Be, 0)));
        assert_eq!(detect_wide_encoding(b"\0\0\0["), Some((WideEncoding::Utf32Be, 0)));
        assert_eq!(detect_wide_encoding(b"[\0\0\0"), Some((WideEncoding::Utf32Le, 0)));
        assert_eq!(detect_wide_encoding(b"\xEF\xBB\xBF{}"), None);
        assert_eq!(detect_wide_encoding(b"{}"), None);
        assert_eq!(detect_wide_encoding(b""), None);
        assert_eq!(decode_wide(b"C\0o\0", WideEncoding::Utf16Le), ("Co".to_string(), false));
        assert_eq!(decode_wide(b"\0C\xD8\0", WideEncoding::Utf16Be), ("C\u{FFFD}".to_string(), true));
        assert_eq!(decode_wide(b"C\0o", WideEncoding::Utf16Le), ("C\u{FFFD}".to_string(), true));
        assert_eq!(decode_wide(b"\0\x11\0\0", WideEncoding::Utf32Be), ("\u{FFFD}".to_string(), true));
    }

    #[test]
    fn parses_content_type() {
        let m = MediaType::parse("Text/Plain; Charset=\"UTF-8\"").unwrap();
        assert_eq!(m.essence, "text/plain");
        assert_eq!(m.charset.as_deref(), Some("utf-8"));
        assert!(MediaType::parse("garbage").is_none());
        assert!(MediaType::parse("application/jrd+json").unwrap().is_json());
    }

    #[test]
    fn sniffs_html() {
        assert!(looks_like_html(b"\xEF\xBB\xBF  <!DOCTYPE html><html>"));
        assert!(looks_like_html(b"<!-- x --><html>"));
        assert!(!looks_like_html(b"User-agent: *\nDisallow: /"));
        assert!(!looks_like_html(b"<?xml version=\"1.0\"?><urlset/>"));
    }
}
