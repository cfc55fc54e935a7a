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
