//! Lines and records: splitting a robots.txt body into lines (RFC 9309 section 2.2: CR, LF and CRLF
//! all end a line) and each line into a key and a value, with the leniency Google's parser applies
//! (comments anywhere, whitespace around the colon, a missing colon between exactly two tokens, and
//! frequent misspellings of the field names).

/// One physical line: its 1-based number and its content without the line terminator.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// 1-based line number (CRLF counts as one terminator; a lone CR or LF is one too).
    pub number: u32,
    /// Byte offset of the first octet of the line in the body.
    pub start: usize,
    /// The line's octets, terminator excluded.
    pub content: &'a [u8],
}

/// Iterator over the lines of a body.
pub(crate) struct Lines<'a> {
    body: &'a [u8],
    pos: usize,
    number: u32,
}

impl<'a> Lines<'a> {
    /// Lines of `body`, numbered from 1.
    pub fn new(body: &'a [u8]) -> Self {
        Lines { body, pos: 0, number: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.body.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let start = self.pos;
        self.number = self.number.saturating_add(1);
        match memchr::memchr2(b'\n', b'\r', rest) {
            Some(i) => {
                let content = rest.get(..i).unwrap_or_default();
                let crlf = rest.get(i) == Some(&b'\r') && rest.get(i + 1) == Some(&b'\n');
                self.pos += i + if crlf { 2 } else { 1 };
                Some(Line { number: self.number, start, content })
            }
            None => {
                self.pos = self.body.len();
                Some(Line { number: self.number, start, content: rest })
            }
        }
    }
}

/// Whitespace inside a line (RFC 9309 `WS` is SP and HTAB; VT and FF are tolerated as Google does).
#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0B | 0x0C)
}

/// `s` without leading and trailing whitespace.
pub(crate) fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&b| !is_ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|&b| !is_ws(b)).map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or_default()
}

/// What a line holds once its comment is removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Record<'a> {
    /// Empty, whitespace only, or a comment only.
    Blank,
    /// `key: value`, or `key value` (exactly two tokens, colon missing: `colon` is false).
    KeyValue {
        /// The field name as written, trimmed.
        key: &'a [u8],
        /// The value, trimmed, comment removed.
        value: &'a [u8],
        /// False when the colon was missing and whitespace separated the two tokens.
        colon: bool,
    },
    /// Neither: one token without a colon, three or more tokens without a colon, or an empty key.
    Invalid,
}

/// Splits one line into a [`Record`]: the comment (from the first `#`, RFC 9309 section 2.2.3 and
/// 2.2.4) is dropped, then the key is what precedes the first `:`. Without a colon, a line of exactly
/// two whitespace-separated tokens is read as key and value (Google's leniency); anything else is
/// [`Record::Invalid`].
pub(crate) fn record(line: &[u8]) -> Record<'_> {
    let text = match memchr::memchr(b'#', line) {
        Some(i) => line.get(..i).unwrap_or_default(),
        None => line,
    };
    let text = trim(text);
    if text.is_empty() {
        return Record::Blank;
    }
    if let Some(c) = memchr::memchr(b':', text) {
        let key = trim(text.get(..c).unwrap_or_default());
        let value = trim(text.get(c + 1..).unwrap_or_default());
        if key.is_empty() {
            return Record::Invalid;
        }
        return Record::KeyValue { key, value, colon: true };
    }
    let Some(sp) = text.iter().position(|&b| is_ws(b)) else {
        return Record::Invalid;
    };
    let key = text.get(..sp).unwrap_or_default();
    let value = trim(text.get(sp..).unwrap_or_default());
    if value.iter().any(|&b| is_ws(b)) {
        return Record::Invalid;
    }
    Record::KeyValue { key, value, colon: false }
}

/// The field a key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    /// `user-agent` (RFC 9309 section 2.2.1).
    UserAgent,
    /// `allow` (section 2.2.2).
    Allow,
    /// `disallow` (section 2.2.2).
    Disallow,
    /// `sitemap` (section 2.2.4, sitemaps.org).
    Sitemap,
    /// A non-standard field this crate knows and records (index into [`NONSTANDARD`]).
    NonStandard(&'static str),
    /// Anything else.
    Unknown,
}

/// Non-standard fields that are recorded as declared, with their canonical (lower-case) names.
pub(crate) const NONSTANDARD: [&str; 9] = [
    "crawl-delay",
    "host",
    "clean-param",
    "request-rate",
    "visit-time",
    "noindex",
    "nofollow",
    "content-signal",
    "content-usage",
];

#[inline]
fn starts_with_ci(key: &[u8], prefix: &[u8]) -> bool {
    key.get(..prefix.len()).is_some_and(|h| h.eq_ignore_ascii_case(prefix))
}

/// Classifies a key. Returns the field and whether the key was spelt exactly (case aside).
///
/// Like Google's parser, a key is recognised when it *starts with* the field name or one of the
/// misspellings Google accepts: `useragent`, `user agent` for user-agent; `dissallow`, `dissalow`,
/// `disalow`, `diasllow`, `disallaw` for disallow; `site-map` for sitemap. `allow` has no accepted
/// misspelling. Non-standard fields must be spelt exactly.
pub(crate) fn classify(key: &[u8]) -> (Field, bool) {
    const TABLE: [(&[u8], Field, bool); 11] = [
        (b"user-agent", Field::UserAgent, true),
        (b"useragent", Field::UserAgent, false),
        (b"user agent", Field::UserAgent, false),
        (b"allow", Field::Allow, true),
        (b"disallow", Field::Disallow, true),
        (b"dissallow", Field::Disallow, false),
        (b"dissalow", Field::Disallow, false),
        (b"disalow", Field::Disallow, false),
        (b"diasllow", Field::Disallow, false),
        (b"disallaw", Field::Disallow, false),
        (b"sitemap", Field::Sitemap, true),
    ];
    for (name, field, exact) in TABLE {
        if starts_with_ci(key, name) {
            return (field, exact && key.len() == name.len());
        }
    }
    if starts_with_ci(key, b"site-map") {
        return (Field::Sitemap, false);
    }
    for name in NONSTANDARD {
        if key.eq_ignore_ascii_case(name.as_bytes()) {
            return (Field::NonStandard(name), true);
        }
    }
    (Field::Unknown, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<(u32, String)> {
        Lines::new(s.as_bytes()).map(|l| (l.number, String::from_utf8_lossy(l.content).into_owned())).collect()
    }

    #[test]
    fn line_ends() {
        assert_eq!(lines("a\nb\r\nc\rd"), [(1, "a".into()), (2, "b".into()), (3, "c".into()), (4, "d".into())]);
        assert_eq!(lines("a\r\r\nb\n"), [(1, "a".into()), (2, "".into()), (3, "b".into())]);
        assert_eq!(lines(""), []);
        assert_eq!(lines("\n"), [(1, "".into())]);
    }

    #[test]
    fn records() {
        assert_eq!(record(b"  # only"), Record::Blank);
        assert_eq!(record(b"Disallow : /a # c"), Record::KeyValue { key: b"Disallow", value: b"/a", colon: true });
        assert_eq!(record(b"disallow /x"), Record::KeyValue { key: b"disallow", value: b"/x", colon: false });
        assert_eq!(record(b"disallow / extra"), Record::Invalid);
        assert_eq!(record(b"EOF"), Record::Invalid);
        assert_eq!(record(b": /x"), Record::Invalid);
        assert_eq!(
            record(b"Sitemap: https://a.example/s.xml"),
            Record::KeyValue { key: b"Sitemap", value: b"https://a.example/s.xml", colon: true }
        );
    }

    #[test]
    fn fields() {
        assert_eq!(classify(b"USER-AGENT"), (Field::UserAgent, true));
        assert_eq!(classify(b"user agent"), (Field::UserAgent, false));
        assert_eq!(classify(b"Useragent"), (Field::UserAgent, false));
        assert_eq!(classify(b"disalow"), (Field::Disallow, false));
        assert_eq!(classify(b"Dissallow"), (Field::Disallow, false));
        assert_eq!(classify(b"alow"), (Field::Unknown, false));
        assert_eq!(classify(b"site-map"), (Field::Sitemap, false));
        assert_eq!(classify(b"Crawl-Delay"), (Field::NonStandard("crawl-delay"), true));
        assert_eq!(classify(b"foo"), (Field::Unknown, false));
    }
}
