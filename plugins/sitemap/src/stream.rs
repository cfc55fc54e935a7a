//! The report of one file written as JSON while the file is parsed, so that a file's 100,000
//! candidates are never held in memory at once.
//!
//! The output is the same JSON object `serde_json::to_string(&parse_sitemap(..))` gives, with its keys
//! in another order (key order in a JSON object is not significant, RFC 8259 section 4):
//! `{"candidates":[...],"probe":..,"url":..,"kind":..,"valid":..,"errors":[..],"warnings":[..]}` plus
//! `follow_ups` and `facts` when non-empty. The candidates are written as they are found; what is only
//! known at the end (kind, validity, diagnostics, facts) comes after them. Memory held while writing:
//! the per-file deduplication set (every distinct URL once, in one buffer), the diagnostics (capped per
//! code) and the parser's constant state.

use std::io::{self, Write};
use std::ops::ControlFlow;

use wellknown_core::{Diagnostic, FetchMeta, Severity};

use crate::codes;
use crate::limits::Limits;
use crate::model::{Found, Place, Relation, Visitor};
use crate::report::{Seen, Tally, duplicate_message, expected_values};

/// The start of a candidate's JSON object up to its value: kind and relation.
fn candidate_head(relation: Relation) -> &'static str {
    match relation {
        Relation::Loc => r#"{"kind":"url","relation":"sitemap_loc","value":"#,
        Relation::Child => r#"{"kind":"sitemap","relation":"sitemap_child","value":"#,
        Relation::Image => r#"{"kind":"url","relation":"sitemap_image","value":"#,
        Relation::Video => r#"{"kind":"url","relation":"sitemap_video","value":"#,
        Relation::Alternate => r#"{"kind":"url","relation":"sitemap_alternate","value":"#,
        Relation::Enclosure => r#"{"kind":"url","relation":"sitemap_enclosure","value":"#,
    }
}

/// Writes the report of `body` (fetched as described by `meta`) to `out` as one JSON object while
/// parsing: the same value as `serde_json::to_value(parse_sitemap(body, meta, limits))`, candidates
/// first. Nothing is written after the closing brace (no newline). Returns whether the report is
/// valid (no error diagnostic).
///
/// Errors: the first write error of `out` (reading stops there; what was written is an incomplete
/// JSON text).
pub fn write_report_streaming<W: Write>(body: &[u8], meta: &FetchMeta, limits: &Limits, out: W) -> io::Result<bool> {
    let expected = expected_values(body.len(), limits);
    let mut w = JsonWriter {
        out,
        error: None,
        count: 0,
        buf: Vec::with_capacity(1024),
        seen: Seen::with_capacity(expected),
        arena: String::with_capacity(expected.saturating_mul(48)),
        stored: Vec::with_capacity(expected),
        follow_ups: Vec::new(),
        tally: Tally::new(limits.max_diagnostics_per_code),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    w.emit(b"{\"candidates\":[");
    let summary = crate::visit_sitemap(body, meta, limits, &mut w);
    if let Some(e) = w.error.take() {
        return Err(e);
    }
    let valid = w.errors.is_empty();
    let b = &mut w.buf;
    b.clear();
    b.extend_from_slice(b"],\"probe\":");
    push_json_str(b, crate::probe::PROBE_ID);
    b.extend_from_slice(b",\"url\":");
    push_json_str(b, meta.url.as_str());
    b.extend_from_slice(b",\"kind\":");
    push_json_str(b, summary.kind());
    b.extend_from_slice(if valid { b",\"valid\":true,\"errors\":" } else { b",\"valid\":false,\"errors\":" });
    serde_json::to_writer(&mut *b, &w.errors).map_err(io::Error::other)?;
    b.extend_from_slice(b",\"warnings\":");
    serde_json::to_writer(&mut *b, &w.warnings).map_err(io::Error::other)?;
    if !w.follow_ups.is_empty() {
        b.extend_from_slice(b",\"follow_ups\":[");
        for (n, &i) in w.follow_ups.iter().enumerate() {
            if n > 0 {
                b.push(b',');
            }
            let url = w.stored.get(i).and_then(|&(s, e, _)| w.arena.get(s..e)).unwrap_or_default();
            b.extend_from_slice(b"{\"probe\":");
            push_json_str(b, crate::probe::PROBE_ID);
            b.extend_from_slice(b",\"url\":");
            push_json_str(b, url);
            b.extend_from_slice(b",\"role\":\"child_sitemap\"}");
        }
        b.push(b']');
    }
    let facts = w.tally.facts(&summary);
    if !facts.is_empty() {
        b.extend_from_slice(b",\"facts\":");
        serde_json::to_writer(&mut *b, &facts).map_err(io::Error::other)?;
    }
    b.push(b'}');
    w.out.write_all(&w.buf)?;
    Ok(valid)
}

/// The visitor behind [`write_report_streaming`].
struct JsonWriter<W: Write> {
    out: W,
    /// The first write error; reading stops there.
    error: Option<io::Error>,
    /// Candidates written.
    count: u64,
    /// One candidate's JSON, written in one call.
    buf: Vec<u8>,
    seen: Seen,
    /// Every distinct URL reported, back to back; `stored` holds `(start, end, relation)` of each.
    arena: String,
    stored: Vec<(usize, usize, Relation)>,
    /// Indices into `stored` of the in-location child sitemaps.
    follow_ups: Vec<usize>,
    tally: Tally,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl<W: Write> JsonWriter<W> {
    fn emit(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(bytes)
        {
            self.error = Some(e);
        }
    }

    fn push(&mut self, d: Diagnostic) {
        match d.severity {
            Severity::Error => self.errors.push(d),
            Severity::Warning => self.warnings.push(d),
        }
    }
}

impl<W: Write> Visitor for JsonWriter<W> {
    fn found(&mut self, found: &Found<'_>) -> ControlFlow<()> {
        let Found { relation, url, place, hints, out_of_location } = *found;
        let (arena, stored) = (&self.arena, &self.stored);
        let repeat = self.seen.check(relation, url, u32::try_from(stored.len()).unwrap_or(u32::MAX), |i| {
            stored.get(i as usize).is_some_and(|&(s, e, r)| r == relation && arena.get(s..e) == Some(url))
        });
        if repeat.is_some() {
            self.tally.repeat(relation);
            if relation.is_primary() && self.tally.wants_static(codes::DUPLICATE_URL) {
                self.push(Diagnostic::warning(codes::DUPLICATE_URL, duplicate_message(url), Some(place.to_locator())));
            }
            return ControlFlow::Continue(());
        }
        let start = self.arena.len();
        self.arena.push_str(url);
        if relation == Relation::Child && !out_of_location {
            self.follow_ups.push(self.stored.len());
        }
        self.stored.push((start, self.arena.len(), relation));

        let b = &mut self.buf;
        b.clear();
        if self.count > 0 {
            b.push(b',');
        }
        self.count += 1;
        b.extend_from_slice(candidate_head(relation).as_bytes());
        push_json_str(b, url);
        match place {
            Place::Line(n) => {
                b.extend_from_slice(b",\"locator\":{\"line\":");
                push_decimal(b, n);
                b.push(b'}');
            }
            Place::Xml { entry, group, leaf } => {
                // The entry path comes from the document; the rest is the crate's own ASCII names.
                b.extend_from_slice(b",\"locator\":{\"xml\":");
                push_json_str(b, entry);
                b.pop();
                if let Some((g, i)) = group {
                    b.push(b'/');
                    b.extend_from_slice(g.as_bytes());
                    b.push(b'[');
                    push_decimal(b, i);
                    b.push(b']');
                }
                if let Some((name, index)) = leaf {
                    b.push(b'/');
                    b.extend_from_slice(name.as_bytes());
                    if let Some(i) = index {
                        b.push(b'[');
                        push_decimal(b, i);
                        b.push(b']');
                    }
                }
                b.extend_from_slice(b"\"}");
            }
        }
        let mut one = hints.iter();
        if let (Some((k, v)), None) = (one.next(), one.next()) {
            // One hint (a page's lastmod): nothing to order.
            b.extend_from_slice(b",\"hints\":{");
            push_hint(b, k, v);
            b.push(b'}');
        } else if !hints.is_empty() {
            // Keys in `BTreeMap` order, as the in-memory report serialises them: the crate's six
            // hint keys have fixed ranks; anything else would be sorted after them.
            let mut ranked: [Option<(&'static str, &str)>; 6] = [None; 6];
            let mut others: Vec<(&'static str, &str)> = Vec::new();
            for (k, v) in hints.iter() {
                match hint_rank(k).and_then(|r| ranked.get_mut(r)) {
                    Some(slot @ None) => *slot = Some((k, v)),
                    _ => others.push((k, v)),
                }
            }
            others.sort_unstable_by(|a, c| a.0.cmp(c.0));
            let pairs = ranked.iter().flatten().chain(others.iter());
            b.extend_from_slice(b",\"hints\":{");
            for (i, &(k, v)) in pairs.enumerate() {
                if i > 0 {
                    b.push(b',');
                }
                push_hint(b, k, v);
            }
            b.push(b'}');
        }
        if out_of_location {
            self.tally.out_of_location += 1;
            b.extend_from_slice(b",\"flags\":[\"out_of_location\"]");
        }
        b.push(b'}');
        if let Err(e) = self.out.write_all(&self.buf) {
            self.error = Some(e);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.push(diagnostic);
    }

    fn wants(&mut self, code: &'static str) -> bool {
        self.tally.wants_static(code)
    }
}

/// The position of a hint key among the crate's hint keys in byte order (`changefreq`, `hreflang`,
/// `lastmod`, `news_publication_date`, `news_title`, `priority`), told apart by length and first
/// byte. It only orders the keys (the key itself is what is written), so another key taken for one of
/// these would still be written correctly.
fn hint_rank(key: &str) -> Option<usize> {
    match (key.len(), key.as_bytes().first()) {
        (10, Some(b'c')) => Some(0),
        (8, Some(b'h')) => Some(1),
        (7, Some(b'l')) => Some(2),
        (21, Some(b'n')) => Some(3),
        (10, Some(b'n')) => Some(4),
        (8, Some(b'p')) => Some(5),
        _ => None,
    }
}

/// Appends `"key":value`. Hint keys are the crate's own lower-case names: nothing to escape.
fn push_hint(b: &mut Vec<u8>, key: &str, value: &str) {
    b.push(b'"');
    b.extend_from_slice(key.as_bytes());
    b.extend_from_slice(b"\":");
    push_json_str(b, value);
}

/// Appends the decimal digits of `n`.
fn push_decimal(out: &mut Vec<u8>, n: u32) {
    let mut buf = [0u8; 10];
    out.extend_from_slice(crate::model::decimal(n, &mut buf));
}

/// Bytes a JSON string cannot hold as they are: `"`, `\\` and the control characters.
static NEEDS_ESCAPE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The length of the longest prefix of `b` that needs no escape: eight bytes at a time (a word is
/// clean when none of its bytes is below 0x20, `"` or `\\`), then byte by byte from the first word
/// that is not.
fn clean_prefix(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let mut i = 0;
    for chunk in b.chunks_exact(8) {
        let x = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or([0; 8]));
        let control = x.wrapping_sub(0x20 * ONES) & !x & HIGH != 0;
        if control || has_zero(x ^ (u64::from(b'"') * ONES)) || has_zero(x ^ (u64::from(b'\\') * ONES)) {
            break;
        }
        i += 8;
    }
    let tail = b.get(i..).unwrap_or_default();
    i + tail.iter().position(|&c| NEEDS_ESCAPE[usize::from(c)]).unwrap_or(tail.len())
}

/// Appends `s` as a JSON string (RFC 8259 section 7): `"` and `\` escaped, control characters as
/// short escapes or `\u00XX`, everything else as is (UTF-8).
#[inline]
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let clean = clean_prefix(b);
    out.reserve(b.len() + 2);
    out.push(b'"');
    out.extend_from_slice(b.get(..clean).unwrap_or_default());
    if clean < b.len() {
        push_escaped(out, b.get(clean..).unwrap_or_default());
    }
    out.push(b'"');
}

/// The rest of a JSON string from its first byte that needs an escape (see [`push_json_str`]).
#[cold]
fn push_escaped(out: &mut Vec<u8>, mut rest: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    loop {
        let clean = clean_prefix(rest);
        out.extend_from_slice(rest.get(..clean).unwrap_or_default());
        let Some((&c, tail)) = rest.get(clean..).and_then(<[u8]>::split_first) else {
            break;
        };
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(c >> 4)]);
                out.push(HEX[usize::from(c & 0xf)]);
            }
        }
        rest = tail;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_heads_match_the_names() {
        use crate::report::kind_of;
        for r in
            [Relation::Loc, Relation::Child, Relation::Image, Relation::Video, Relation::Alternate, Relation::Enclosure]
        {
            let want = format!(r#"{{"kind":"{}","relation":"{}","value":"#, kind_of(r).as_str(), r.as_str());
            assert_eq!(candidate_head(r), want);
        }
    }

    #[test]
    fn candidates_written_as_serde_writes_them() {
        let body = b"<urlset><url><loc>https://a.example/p</loc><priority>0.5</priority>\
            <lastmod>2024-01-01</lastmod><changefreq>weekly</changefreq></url></urlset>";
        let meta = FetchMeta::synthetic(
            url::Url::parse("https://a.example/s.xml").unwrap(),
            None,
            wellknown_core::Timestamp::UNIX_EPOCH,
        );
        let mut out = Vec::new();
        assert!(write_report_streaming(body, &meta, &Limits::default(), &mut out).unwrap());
        let text = String::from_utf8(out).unwrap();
        let report = serde_json::to_string(&crate::parse_sitemap(body, &meta, &Limits::default())).unwrap();
        let candidate = r#"{"kind":"url","relation":"sitemap_loc","value":"https://a.example/p","locator":{"xml":"/urlset/url[1]/loc"},"hints":{"changefreq":"weekly","lastmod":"2024-01-01","priority":"0.5"}}"#;
        assert!(text.starts_with(&format!("{{\"candidates\":[{candidate}]")), "{text}");
        assert!(report.contains(candidate), "{report}");
    }

    #[test]
    fn clean_prefixes() {
        for s in ["", "abc", "https://a.example/0123456789abcdef", "é€😀 and more text here", "\u{7f}\u{80}"] {
            assert_eq!(clean_prefix(s.as_bytes()), s.len(), "{s:?}");
        }
        for (s, n) in
            [("0123456789\"x", 10), ("01234567\\", 8), ("\n", 0), ("abcdefgh\u{1f}", 8), ("abc\"defghijkl", 3)]
        {
            assert_eq!(clean_prefix(s.as_bytes()), n, "{s:?}");
        }
        for i in 0..=255u8 {
            let mut b = vec![b'a'; 20];
            b[13] = i;
            let want = if NEEDS_ESCAPE[usize::from(i)] { 13 } else { 20 };
            assert_eq!(clean_prefix(&b), want, "{i}");
        }
    }

    #[test]
    fn json_strings() {
        let mut b = Vec::new();
        push_json_str(&mut b, "a\"b\\c\nd\u{1}é/");
        assert_eq!(String::from_utf8(b.clone()).unwrap(), "\"a\\\"b\\\\c\\nd\\u0001é/\"");
        let v: String = serde_json::from_slice(&b).unwrap();
        assert_eq!(v, "a\"b\\c\nd\u{1}é/");
    }
}
