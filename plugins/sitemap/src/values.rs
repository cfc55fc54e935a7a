//! Values inside a sitemap: URLs, entity references, and the declared hints (lastmod, changefreq,
//! priority) checked against the sitemaps.org 0.9 schema.

use url::Url;

/// Why a `<loc>` (or text line, feed link) is not usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocError {
    /// Empty after trimming.
    Empty,
    /// A relative reference (`/page`, `//host/page`, `page.html`).
    Relative,
    /// Absolute, but not http or https; carries the scheme.
    Scheme(String),
    /// Not a URL at all.
    Invalid,
}

/// Trims XML whitespace (space, tab, CR, LF) and the no-break/BOM characters some generators pad with.
pub fn trim(s: &str) -> &str {
    const PADS: [char; 2] = ['\u{feff}', '\u{a0}'];
    let mut t = s.trim_ascii();
    // The other pads are not ASCII: ASCII at both ends means nothing more to trim.
    if t.as_bytes().first().is_none_or(u8::is_ascii) && t.as_bytes().last().is_none_or(u8::is_ascii) {
        return t;
    }
    loop {
        let u = t.trim_ascii().trim_start_matches(PADS).trim_end_matches(PADS);
        if u.len() == t.len() {
            return u;
        }
        t = u;
    }
}

/// Parses a declared URL: trimmed, absolute, http or https. When `base` is given (Atom links,
/// RFC 4287 section 4.2.7 / RFC 3986 section 5), a relative reference is resolved against it.
pub fn check_url(text: &str, base: Option<&Url>) -> Result<Url, LocError> {
    let t = trim(text);
    if t.is_empty() {
        return Err(LocError::Empty);
    }
    let url = match Url::parse(t) {
        Ok(u) => u,
        Err(url::ParseError::RelativeUrlWithoutBase) => match base {
            Some(b) => b.join(t).map_err(|_| LocError::Invalid)?,
            None => return Err(LocError::Relative),
        },
        Err(_) => return Err(LocError::Invalid),
    };
    match url.scheme() {
        "http" | "https" if url.host().is_some() => Ok(url),
        "http" | "https" => Err(LocError::Invalid),
        other => Err(LocError::Scheme(other.to_string())),
    }
}

/// Byte equality for the short strings compared on every URL (host names, directories, element
/// names): whole words, the last one overlapping the one before, inline, instead of a `memcmp` call.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    fn word(s: &[u8], at: usize) -> u64 {
        s.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()).map_or(0, u64::from_ne_bytes)
    }
    fn half(s: &[u8], at: usize) -> u32 {
        s.get(at..at + 4).and_then(|w| <[u8; 4]>::try_from(w).ok()).map_or(0, u32::from_ne_bytes)
    }
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 4 {
        // Bytes 0, n / 2 and n - 1 are every byte of a string of 1 to 3 bytes.
        let small = |s: &[u8]| {
            let at = |i: usize| u32::from(s.get(i).copied().unwrap_or(0));
            at(0) | at(n / 2) << 8 | at(n.saturating_sub(1)) << 16
        };
        return n == 0 || small(a) == small(b);
    }
    if n <= 8 {
        return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4);
    }
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    word(a, n - 8) == word(b, n - 8)
}

/// True when `s` starts with `prefix` ([`same_bytes`] on the prefix).
pub(crate) fn starts_with_bytes(s: &[u8], prefix: &[u8]) -> bool {
    s.get(..prefix.len()).is_some_and(|head| same_bytes(head, prefix))
}

/// How an entity or character reference (`&name;` without the `&` and `;`) resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefValue {
    /// A predefined entity or a valid character reference.
    Char(char),
    /// Not a reference at all (`&b=2;` in a query string): kept literally as `&...;`.
    Literal,
    /// A well-formed name that the document never defines (`&Ouml;`).
    Undefined,
}

/// Resolves the inside of `&...;`: the five predefined entities (XML 1.0 section 4.6) and decimal or
/// hexadecimal character references (section 4.1). Nothing from a DTD is ever expanded.
pub fn resolve_ref(name: &[u8]) -> RefValue {
    match name {
        b"amp" => return RefValue::Char('&'),
        b"lt" => return RefValue::Char('<'),
        b"gt" => return RefValue::Char('>'),
        b"quot" => return RefValue::Char('"'),
        b"apos" => return RefValue::Char('\''),
        _ => {}
    }
    if let Some(num) = name.strip_prefix(b"#") {
        let (digits, radix) = match num.strip_prefix(b"x") {
            Some(h) => (h, 16),
            None => (num, 10),
        };
        if digits.is_empty() || digits.len() > 8 {
            return RefValue::Literal;
        }
        let Ok(s) = std::str::from_utf8(digits) else {
            return RefValue::Literal;
        };
        return match u32::from_str_radix(s, radix).ok().and_then(char::from_u32) {
            Some(c) if c != '\0' => RefValue::Char(c),
            _ => RefValue::Literal,
        };
    }
    if is_xml_name(name) { RefValue::Undefined } else { RefValue::Literal }
}

/// True when `b` is an XML `Name` (ASCII subset checked strictly; non-ASCII bytes accepted).
fn is_xml_name(b: &[u8]) -> bool {
    let Some((&first, rest)) = b.split_first() else {
        return false;
    };
    let start = |c: u8| c.is_ascii_alphabetic() || c == b'_' || c == b':' || c >= 0x80;
    start(first) && rest.iter().all(|&c| start(c) || c.is_ascii_digit() || c == b'-' || c == b'.')
}

/// Appends the text of an attribute value or text run `raw` (still escaped) to `out`, resolving
/// references per [`resolve_ref`]; a bare `&` stays literal. Returns the first undefined entity name.
pub fn unescape_into(raw: &[u8], out: &mut String) -> Option<String> {
    let mut undefined = None;
    let mut i = 0;
    let mut start = 0;
    while i < raw.len() {
        if raw[i] != b'&' {
            i += 1;
            continue;
        }
        push_utf8(&raw[start..i], out);
        let end = raw[i + 1..]
            .iter()
            .take(40)
            .position(|&c| c == b';' || c == b'&' || c == b'<' || c.is_ascii_whitespace())
            .map(|p| i + 1 + p);
        match end {
            Some(e) if raw[e] == b';' => {
                let name = &raw[i + 1..e];
                match resolve_ref(name) {
                    RefValue::Char(c) => out.push(c),
                    RefValue::Literal => {
                        push_utf8(&raw[i..=e], out);
                    }
                    RefValue::Undefined => {
                        if undefined.is_none() {
                            undefined = Some(String::from_utf8_lossy(name).into_owned());
                        }
                        push_utf8(&raw[i..=e], out);
                    }
                }
                i = e + 1;
            }
            _ => {
                out.push('&');
                i += 1;
            }
        }
        start = i;
    }
    push_utf8(&raw[start.min(raw.len())..], out);
    undefined
}

/// Appends bytes as UTF-8, replacing invalid sequences (U+FFFD). Returns false when a replacement
/// happened.
pub fn push_utf8(bytes: &[u8], out: &mut String) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            out.push_str(s);
            true
        }
        Err(_) => {
            out.push_str(&String::from_utf8_lossy(bytes));
            false
        }
    }
}

/// True when `s` is a W3C Datetime (<https://www.w3.org/TR/NOTE-datetime>), the format sitemaps.org
/// requires for `<lastmod>`: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDThh:mmTZD`,
/// `YYYY-MM-DDThh:mm:ssTZD` or `YYYY-MM-DDThh:mm:ss.sTZD`, with TZD `Z` or `+hh:mm`/`-hh:mm`, and a
/// real calendar date.
pub fn is_w3c_datetime(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b.get(r)?.iter().try_fold(0u32, |n, &c| c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0')))
    };
    let Some(year) = num(0..4) else { return false };
    if b.len() == 4 {
        return true;
    }
    if b.get(4) != Some(&b'-') {
        return false;
    }
    let Some(month) = num(5..7) else { return false };
    if !(1..=12).contains(&month) {
        return false;
    }
    if b.len() == 7 {
        return true;
    }
    if b.get(7) != Some(&b'-') {
        return false;
    }
    let Some(day) = num(8..10) else { return false };
    // A real date of the proleptic Gregorian calendar (ISO 8601), as jiff's calendar says: four
    // digits make a year of at most 9999 and two a day of at most 99, so the casts are exact.
    if wellknown_core::jiff::civil::Date::new(year as i16, month as i8, day as i8).is_err() {
        return false;
    }
    if b.len() == 10 {
        return true;
    }
    if b.get(10) != Some(&b'T') {
        return false;
    }
    let (Some(h), Some(mi)) = (num(11..13), num(14..16)) else { return false };
    if b.get(13) != Some(&b':') || h > 23 || mi > 59 {
        return false;
    }
    let mut i = 16;
    if b.get(i) == Some(&b':') {
        let Some(sec) = num(17..19) else { return false };
        if sec > 60 {
            return false;
        }
        i = 19;
        if b.get(i) == Some(&b'.') {
            let digits = b.get(i + 1..).unwrap_or_default().iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return false;
            }
            i += 1 + digits;
        }
    }
    match b.get(i..).unwrap_or_default() {
        b"Z" => true,
        [sign, rest @ ..] if (*sign == b'+' || *sign == b'-') && rest.len() == 5 => {
            let (Some(th), Some(tm)) = (num(i + 1..i + 3), num(i + 4..i + 6)) else { return false };
            rest[2] == b':' && th <= 23 && tm <= 59
        }
        _ => false,
    }
}

/// The `<changefreq>` values of the sitemaps.org 0.9 schema (exact, lower case).
pub const CHANGEFREQ_VALUES: [&str; 7] = ["always", "hourly", "daily", "weekly", "monthly", "yearly", "never"];

/// True when `s` is a valid `<changefreq>` (sitemaps.org 0.9 schema enumeration).
pub fn is_changefreq(s: &str) -> bool {
    CHANGEFREQ_VALUES.contains(&s)
}

/// True when `s` is a valid `<priority>`: an XML Schema decimal between 0.0 and 1.0 inclusive.
pub fn is_priority(s: &str) -> bool {
    let body = s.strip_prefix('+').unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty() {
        return false;
    }
    if !int.bytes().all(|c| c.is_ascii_digit()) || !frac.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    // Compared as written (exact for any number of digits): below 1 when the integer part is zero,
    // 1 itself only with a fraction of zeros.
    let int = int.trim_start_matches('0');
    int.is_empty() || int == "1" && frac.bytes().all(|c| c == b'0')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(check_url("  https://example.org \n", None).unwrap().as_str(), "https://example.org/");
        assert_eq!(check_url("/page", None), Err(LocError::Relative));
        assert_eq!(check_url("//cdn.example/p", None), Err(LocError::Relative));
        assert_eq!(check_url("file:///etc/passwd", None), Err(LocError::Scheme("file".into())));
        assert_eq!(check_url("javascript:alert(1)", None), Err(LocError::Scheme("javascript".into())));
        assert_eq!(check_url("http://", None), Err(LocError::Invalid));
        assert_eq!(check_url(" \n ", None), Err(LocError::Empty));
        let base = Url::parse("https://a.example/feed/atom.xml").unwrap();
        assert_eq!(check_url("post/1", Some(&base)).unwrap().as_str(), "https://a.example/feed/post/1");
    }

    #[test]
    fn byte_equality_agrees_with_slices_at_every_length_and_position() {
        for n in 0..40 {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "{n} {at}");
            }
        }
    }

    #[test]
    fn byte_equality() {
        for (a, b) in [("", ""), ("a", "a"), ("geoconnex.us", "geoconnex.us"), ("/catalog/sub/", "/catalog/sub/")] {
            assert!(same_bytes(a.as_bytes(), b.as_bytes()));
        }
        for (a, b) in [("a", ""), ("geoconnex.us", "geoconnex.uk"), ("abcdefgh1", "abcdefgh2"), ("x/", "y/")] {
            assert!(!same_bytes(a.as_bytes(), b.as_bytes()));
        }
        assert!(starts_with_bytes(b"/catalog/x", b"/catalog/"));
        assert!(!starts_with_bytes(b"/cat", b"/catalog/"));
        assert!(!starts_with_bytes(b"/images/x", b"/catalog/"));
    }

    #[test]
    fn trimming() {
        assert_eq!(trim(" \u{a0}\t\u{feff} a b\r\n\u{a0} \u{feff}"), "a b");
        assert_eq!(trim("x"), "x");
        assert_eq!(trim("\u{b}x"), "\u{b}x");
        assert_eq!(trim(" \u{2003}"), "\u{2003}");
    }

    #[test]
    fn references() {
        assert_eq!(resolve_ref(b"amp"), RefValue::Char('&'));
        assert_eq!(resolve_ref(b"#38"), RefValue::Char('&'));
        assert_eq!(resolve_ref(b"#x26"), RefValue::Char('&'));
        assert_eq!(resolve_ref(b"#0"), RefValue::Literal);
        assert_eq!(resolve_ref(b"#xD800"), RefValue::Literal);
        assert_eq!(resolve_ref(b"Ouml"), RefValue::Undefined);
        assert_eq!(resolve_ref(b"b=2"), RefValue::Literal);
        let mut s = String::new();
        assert_eq!(unescape_into(b"a?x=1&amp;y=2&z=3&b=4;&lt;&Ouml;", &mut s), Some("Ouml".into()));
        assert_eq!(s, "a?x=1&y=2&z=3&b=4;<&Ouml;");
        let mut s = String::new();
        assert_eq!(unescape_into(b"tail&", &mut s), None);
        assert_eq!(s, "tail&");
    }

    #[test]
    fn lastmod() {
        for ok in [
            "2024",
            "2024-05",
            "2024-05-08",
            "2024-05-08T08:53+02:00",
            "2024-05-08T08:53:11.123456Z",
            "2004-12-23T18:00:15+00:00",
            "2024-02-29",
        ] {
            assert!(is_w3c_datetime(ok), "{ok}");
        }
        for bad in [
            "2024-05-08 08:53:11 AM",
            "08/05/2024",
            "2024-02-30",
            "",
            "Wed, 08 May 2024 08:53:11 GMT",
            "2024-05-08T08:53:11",
            "2023-02-29",
            "2024-13",
            "2024-05-08T24:00Z",
            "2024-05-08T08:53:11.Z",
            "20245",
        ] {
            assert!(!is_w3c_datetime(bad), "{bad}");
        }
    }

    #[test]
    fn calendar_matches_jiff() {
        for y in [0, 1, 4, 100, 400, 1900, 2000, 2023, 2024, 9999] {
            for m in 1..=12 {
                for d in 1..=31 {
                    let s = format!("{y:04}-{m:02}-{d:02}");
                    let jiff = wellknown_core::jiff::civil::Date::new(y as i16, m as i8, d as i8).is_ok();
                    assert_eq!(is_w3c_datetime(&s), jiff, "{s}");
                }
            }
        }
    }

    #[test]
    fn same_bytes_is_equality() {
        let words: [&[u8]; 12] =
            [b"", b"a", b"b", b"ab", b"ba", b"aa", b"loc", b"lod", b"url", b"xloc", b"lastmod", b"lastmoe"];
        for a in words {
            for b in words {
                assert_eq!(same_bytes(a, b), a == b, "{a:?} {b:?}");
            }
        }
        for n in 0..40usize {
            let a: Vec<u8> = (0..n).map(|i| i as u8).collect();
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 1;
                assert!(!same_bytes(&a, &b), "{n} {at}");
            }
            assert!(same_bytes(&a, &a.clone()));
        }
    }

    #[test]
    fn priority_and_changefreq() {
        for ok in ["0", "1", "0.5", "1.0", ".3", "0.80", "+0.1", "001.000", "1.", "0.99999999999999999999"] {
            assert!(is_priority(ok), "{ok}");
        }
        for bad in ["1.5", "-0.1", "high", "", ".", "0,5", "1e-1", "NaN", "1.0000000000000000001", "10", "2"] {
            assert!(!is_priority(bad), "{bad}");
        }
        assert!(is_changefreq("daily"));
        assert!(!is_changefreq("Daily"));
        assert!(!is_changefreq("fortnightly"));
    }
}
