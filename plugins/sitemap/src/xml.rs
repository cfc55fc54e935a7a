//! The XML formats (urlset, sitemapindex, RSS, Atom) as one streaming pass over quick-xml events.
//!
//! Elements are matched by local name whatever their namespace or prefix (sitemaps.org 0.9, Google
//! 0.84, https variants, no namespace, `xmlns=""` on children, `ns0:urlset`). Text and CDATA are
//! concatenated and trimmed; references are resolved here (predefined entities and character
//! references only), so a bare `&` stays literal and an undefined entity drops only the value holding
//! it. Only a small fixed state is kept (depth counter, current entry), never a tree.
//!
//! Entries (`<url>` of a urlset, `<sitemap>` of an index) are found by local name at any depth below
//! the root, not only directly under it: real CMS output nests a `<urlset>` inside another, without a
//! namespace (ultimate-sitemap-parser#86). Such a document is read in full and said so once
//! (`nested_entry`, a warning).

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use url::Url;
use wellknown_core::Locator;

use crate::codes;
use crate::emit::{Emitter, shown};
use crate::input::Source;
use crate::model::{Format, Hints, Place, Relation, Visitor};
use crate::values::{
    RefValue, is_changefreq, is_priority, is_w3c_datetime, push_utf8, resolve_ref, same_bytes, starts_with_bytes, trim,
    unescape_into,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Urlset,
    Index,
    Rss,
    Atom,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Loc,
    Lastmod,
    Changefreq,
    Priority,
    ImageLoc,
    /// `thumbnail_loc`, `content_loc`, `player_loc`, `gallery_loc` (the locator names which).
    Video,
    NewsTitle,
    NewsDate,
    /// RSS `<link>` text.
    Link,
    /// RSS `pubDate`/`dc:date`, Atom `updated`/`modified`: a lastmod hint, not validated.
    FeedDate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Image,
    Video,
    News,
}

impl Group {
    fn name(self) -> &'static str {
        match self {
            Group::Image => "image",
            Group::Video => "video",
            Group::News => "news",
        }
    }
}

/// Where a value sits relative to its entry, turned into a [`Place`] when it is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// The entry element's own text.
    Entry,
    /// A child element (`loc`), optionally inside an extension group (`image[2]/loc`).
    Field(Option<(Group, u32)>, &'static str),
    /// An indexed child element (`link[1]`, `enclosure[2]`).
    Indexed(&'static str, u32),
}

impl At {
    fn place(self, entry: &str) -> Place<'_> {
        match self {
            At::Entry => Place::Xml { entry, group: None, leaf: None },
            At::Field(group, name) => {
                Place::Xml { entry, group: group.map(|(g, i)| (g.name(), i)), leaf: Some((name, None)) }
            }
            At::Indexed(name, i) => Place::Xml { entry, group: None, leaf: Some((name, Some(i))) },
        }
    }
}

/// Text being collected for one element.
struct Capture {
    field: Field,
    depth: u32,
    /// Element name for the locator (`loc`, `lastmod`, `thumbnail_loc`, ...).
    name: &'static str,
    /// The extension group (and its index) the element is in.
    group: Option<(Group, u32)>,
    undefined: Option<String>,
    overflow: bool,
    /// An element started inside it: the value is not plain text (`<loc>a<b>c</b></loc>`).
    markup: bool,
}

/// An extension URL waiting for its entry to end; its text (and hreflang hint) are byte ranges of
/// `XmlParser::ext_text`.
struct Ext {
    relation: Relation,
    text: (u32, u32),
    at: At,
    undefined: Option<String>,
    overflow: bool,
    hreflang: Option<(u32, u32)>,
}

/// The entry's URL (its text is in `XmlParser::loc_text`).
struct LocVal {
    at: At,
    undefined: Option<String>,
    overflow: bool,
}

/// The entry being read. Its hints and extension URLs live in reusable buffers of the parser.
struct Entry {
    depth: u32,
    loc: Option<LocVal>,
    /// Direct text of the entry element is in `XmlParser::direct`.
    direct_undefined: Option<String>,
    direct_overflow: bool,
    /// Open extension group: kind, depth, index.
    group: Option<(Group, u32, u32)>,
    /// Per-entry counters for locators: image, video, link, enclosure, news, content, thumbnail.
    counters: [u32; 7],
}

impl Entry {
    fn next(&mut self, slot: usize) -> u32 {
        match self.counters.get_mut(slot) {
            Some(c) => {
                *c += 1;
                *c
            }
            None => 0,
        }
    }
}

/// Byte offset of the end of `s`, as a span bound.
fn end_of(s: &str) -> u32 {
    u32::try_from(s.len()).unwrap_or(u32::MAX)
}

/// Sets hint `key` to `value` (the last declaration wins, as for a map).
fn set_hint(text: &mut String, spans: &mut Vec<(&'static str, u32, u32)>, key: &'static str, value: &str) {
    let start = end_of(text);
    text.push_str(value);
    let end = end_of(text);
    match spans.iter_mut().find(|(k, _, _)| *k == key) {
        Some(span) => *span = (key, start, end),
        None => spans.push((key, start, end)),
    }
}

/// What a start tag means inside an entry of a urlset or sitemap index.
enum InEntry {
    /// Capture the element's text as this field (element name for the locator, group).
    Capture(Field, &'static str, Option<(Group, u32)>),
    /// Open an extension group (its counter slot).
    Group(Group, usize),
    /// An `xhtml:link` (reads attributes).
    Link,
    /// Ignored.
    Nothing,
}

/// Where the next `<` or `&` is in `b` (its length when there is none). The text between elements
/// is mostly a few bytes of indentation or a short value: the first 64 bytes are searched eight at a
/// time in a word (no call), the rest with a vector search.
fn markup_or_ref(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    /// High bit set in each byte of `x` that is zero (exact for the lowest such byte, which is all
    /// that is used).
    fn zero_bytes(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x & HIGHS
    }
    let mut i = 0;
    while i < 64 {
        let Some(w) = b.get(i..i + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()) else {
            break;
        };
        let x = u64::from_le_bytes(w);
        let hits = zero_bytes(x ^ (ONES * u64::from(b'<'))) | zero_bytes(x ^ (ONES * u64::from(b'&')));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = b.get(i..).unwrap_or_default();
    if i < 64 {
        // Fewer than eight bytes left.
        return i + rest.iter().position(|&c| c == b'<' || c == b'&').unwrap_or(rest.len());
    }
    i + memchr::memchr2(b'<', b'&', rest).unwrap_or(rest.len())
}

/// Bytes of the element names the fast tokenizer reads itself: `[A-Za-z0-9:._-]`.
static NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || matches!(b, b':' | b'.' | b'_' | b'-');
        c += 1;
    }
    t
};

/// True when `c` may start an XML name as far as the bytes of [`NAME_BYTES`] go (XML 1.0 section
/// 2.3: not a digit, `-` or `.`).
fn name_start(c: u8) -> bool {
    !c.is_ascii_digit() && !matches!(c, b'-' | b'.')
}

/// The length of the name at the start of `b` (bytes of [`NAME_BYTES`]).
///
/// Lower-case letters and `:` (what sitemap element names are made of) are taken eight at a time
/// in a word, so that the end of a name is found without a branch per byte; the other name bytes
/// and the last few bytes go through the table.
fn name_len(b: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const LOWS: u64 = !HIGHS;
    let mut i = 0;
    while let Some(w) = b.get(i..i + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()) {
        let x = u64::from_le_bytes(w);
        // Exact per byte (no borrow or carry crosses a byte): `a` <= byte <= `z`, ASCII.
        let lower = (x | HIGHS).wrapping_sub(ONES * 0x61) & (ONES * 0xFA).wrapping_sub(x & LOWS) & !x & HIGHS;
        // Exact per byte: the byte is `:`.
        let c = x ^ (ONES * u64::from(b':'));
        let colon = !((c & LOWS).wrapping_add(LOWS) | c | LOWS);
        let other = !(lower | colon) & HIGHS;
        if other != 0 {
            i += (other.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    let rest = b.get(i..).unwrap_or_default();
    i + rest.iter().position(|&c| !NAME_BYTES[usize::from(c)]).unwrap_or(rest.len())
}

/// Prefix and local name, split at the first `:` as quick-xml's `QName` does.
fn split_name(name: &[u8]) -> (&[u8], &[u8]) {
    match name.iter().position(|&c| c == b':') {
        Some(i) => (name.get(..i).unwrap_or_default(), name.get(i + 1..).unwrap_or_default()),
        None => (&[][..], name),
    }
}

/// What the XML pass decided.
pub(crate) struct XmlOutcome {
    pub format: Format,
    pub refused: bool,
}

pub(crate) struct XmlParser<'e, 'v, V: Visitor> {
    em: &'e mut Emitter<'v, V>,
    base: Url,
    depth: u32,
    root: Option<Root>,
    root_prefix: Vec<u8>,
    root_closed: bool,
    /// `/urlset/url` style path of the open elements of depth 1..=3, and where each ends.
    path_buf: Vec<u8>,
    path_ends: Vec<usize>,
    /// Bytes of the last entry's path without its index (`/urlset/url`), and the length of its
    /// UTF-8 form at the start of `entry_path`: consecutive entries only rewrite the index.
    entry_prefix: Vec<u8>,
    entry_prefix_len: usize,
    /// Path of the current entry (`/urlset/url[3]`).
    entry_path: String,
    entry: Option<Entry>,
    /// The 1-based index of the current entry, in decimal (counted up in place: no formatting per
    /// entry).
    entry_index: String,
    /// Hint values of the current entry and their `(key, start, end)` spans.
    hint_text: String,
    hint_spans: Vec<(&'static str, u32, u32)>,
    /// Extension URLs of the current entry, their texts in `ext_text`.
    exts: Vec<Ext>,
    ext_text: String,
    /// Scratch buffer for attribute values that are only looked at.
    scratch: String,
    capture: Option<Capture>,
    /// Text of the open capture.
    text: String,
    /// Text of the current entry's URL.
    loc_text: String,
    /// Direct text of the current entry element.
    direct: String,
    format: Format,
    refused: bool,
    done: bool,
    ill_formed: u32,
    /// `nested_entry` was reported (once per document).
    nested_said: bool,
}

/// The body as UTF-8, validated a window at a time just before the tokenizer reads it: one pass
/// over bytes about to be read anyway (in cache), where validating each field costs a call per
/// field and validating the whole body up front reads a large body from memory twice.
pub(crate) struct Utf8Windows<'b> {
    bytes: &'b [u8],
    /// The window: `bytes[start..start + text.len()]`, valid UTF-8.
    start: usize,
    text: &'b str,
}

impl<'b> Utf8Windows<'b> {
    /// Bytes validated at a time (at most; a window ends early at an invalid or cut sequence).
    const SIZE: usize = 512;

    pub(crate) fn new(bytes: &'b [u8]) -> Self {
        Utf8Windows { bytes, start: 0, text: "" }
    }

    /// `bytes[a..b]` as a string; `None` when it is not valid UTF-8 or does not start and end on
    /// character boundaries (the caller then validates it on its own). `a` must be a character
    /// boundary for a new window to start there (the tokenizer asks for texts after a `>`).
    #[inline]
    pub(crate) fn get(&mut self, a: usize, b: usize) -> Option<&'b str> {
        let end = self.start + self.text.len();
        if a < self.start || b > end {
            return self.slide(a, b);
        }
        self.text.get(a - self.start..b.checked_sub(self.start)?)
    }

    /// [`Utf8Windows::get`] for a text the window does not cover: a new window from `a`.
    #[cold]
    fn slide(&mut self, a: usize, b: usize) -> Option<&'b str> {
        let to = a.saturating_add(Self::SIZE.max(b.saturating_sub(a))).min(self.bytes.len());
        let chunk = self.bytes.get(a..to)?;
        let valid = match std::str::from_utf8(chunk) {
            Ok(t) => t,
            Err(e) => std::str::from_utf8(chunk.get(..e.valid_up_to())?).ok()?,
        };
        self.start = a;
        self.text = valid;
        self.text.get(..b.checked_sub(a)?)
    }
}

/// Adds one to the decimal number `n` (ASCII digits, most significant first).
fn count_up(n: &mut String) {
    let mut carried = 0;
    while n.ends_with('9') {
        n.pop();
        carried += 1;
    }
    let next = match n.pop() {
        Some(d @ '0'..='8') => char::from(d as u8 + 1),
        _ => '1',
    };
    n.push(next);
    for _ in 0..carried {
        n.push('0');
    }
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Finds attribute `key` (by local name) and appends its value, unescaped, to `out`; returns
/// `None` when absent, else the first undefined entity inside it, if any.
fn attr_into(e: Option<&BytesStart<'_>>, key: &[u8], out: &mut String) -> Option<Option<String>> {
    e?.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == key)
        .map(|a| unescape_into(&a.value, out))
}

impl<'e, 'v, V: Visitor> XmlParser<'e, 'v, V> {
    pub(crate) fn new(em: &'e mut Emitter<'v, V>, base: Url) -> Self {
        XmlParser {
            em,
            base,
            depth: 0,
            root: None,
            root_prefix: Vec::new(),
            root_closed: false,
            path_buf: Vec::new(),
            path_ends: Vec::new(),
            entry_prefix: Vec::new(),
            entry_prefix_len: 0,
            entry_path: String::new(),
            entry: None,
            entry_index: String::from("0"),
            hint_text: String::new(),
            hint_spans: Vec::new(),
            exts: Vec::new(),
            ext_text: String::new(),
            scratch: String::new(),
            capture: None,
            text: String::new(),
            loc_text: String::new(),
            direct: String::new(),
            format: Format::Unknown,
            refused: false,
            done: false,
            ill_formed: 0,
            nested_said: false,
        }
    }

    /// Runs the pass over the document.
    pub(crate) fn run(mut self, source: Source<'_>) -> XmlOutcome {
        match source {
            Source::Slice(bytes) => {
                // Simple markup and text go through `fast`; quick-xml reads everything else (prolog,
                // DOCTYPE, attributes, references, comments, CDATA, errors) from where `fast` stopped
                // until the next point where its state is plain again (after a tag or a reference).
                // Both feed the same handlers with the same events, so the result is the same as a
                // quick-xml pass over the whole document.
                let mut utf8 = Utf8Windows::new(bytes);
                let mut pos = 0usize;
                while !self.done && !self.em.stop {
                    if self.root.is_some() {
                        pos = self.fast(bytes, &mut utf8, pos);
                        if self.done || self.em.stop {
                            break;
                        }
                    }
                    let mut reader = Reader::from_reader(bytes.get(pos..).unwrap_or_default());
                    configure(&mut reader);
                    while !self.done && !self.em.stop {
                        let ev = reader.read_event();
                        let at = reader.buffer_position();
                        let plain =
                            matches!(ev, Ok(Event::Start(_) | Event::End(_) | Event::Empty(_) | Event::GeneralRef(_)));
                        self.handle(ev, pos as u64 + at);
                        if plain && self.root.is_some() {
                            pos += usize::try_from(at).unwrap_or(usize::MAX);
                            break;
                        }
                    }
                }
            }
            Source::Stream(stream) => {
                let mut reader = Reader::from_reader(stream);
                configure(&mut reader);
                let mut buf = Vec::with_capacity(4096);
                while !self.done && !self.em.stop {
                    buf.clear();
                    let ev = reader.read_event_into(&mut buf);
                    let pos = reader.buffer_position();
                    self.handle(ev, pos);
                }
            }
        }
        self.finish()
    }

    fn finish(mut self) -> XmlOutcome {
        match self.root {
            None if !self.refused => {
                self.refused = true;
                self.em.error(codes::UNKNOWN_ROOT, "the document has no root element", None);
            }
            Some(_) if !self.root_closed && !self.refused => {
                // Keep the entry in progress if its URL was read completely.
                if self.entry.as_ref().is_some_and(|e| e.loc.is_some()) && !self.em.stop {
                    self.capture = None;
                    self.finish_entry();
                }
                if !self.em.stop {
                    self.em.truncated("the document ends before its root element closes", None);
                } else {
                    self.em.incomplete = true;
                }
            }
            _ => {}
        }
        XmlOutcome { format: self.format, refused: self.refused }
    }

    /// Reads plain markup from `pos` and feeds the handlers exactly the events quick-xml would give
    /// for it: text without references (`Event::Text`), start, empty and end tags whose names are
    /// made of `[A-Za-z0-9:._-]` and that carry no attribute nor whitespace. Stops at the first
    /// `<` or `&` that starts anything else (returning its position, for quick-xml to read), or at
    /// the end of the input (`Event::Eof`).
    /// `utf8` gives field texts of `b` as strings (validated a window at a time).
    fn fast(&mut self, b: &[u8], utf8: &mut Utf8Windows<'_>, mut pos: usize) -> usize {
        while !self.done && !self.em.stop {
            let rest = b.get(pos..).unwrap_or_default();
            match rest.first() {
                None => {
                    self.done = true;
                    break;
                }
                Some(b'<') => {
                    let end_tag = rest.get(1) == Some(&b'/');
                    let from = if end_tag { 2 } else { 1 };
                    let len = name_len(rest.get(from..).unwrap_or_default());
                    // A start tag whose name cannot start a name is quick-xml's (and an error).
                    if len == 0 || !end_tag && rest.get(from).is_some_and(|&c| !name_start(c)) {
                        break;
                    }
                    let name = rest.get(from..from + len).unwrap_or_default();
                    match (end_tag, rest.get(from + len), rest.get(from + len + 1)) {
                        (true, Some(b'>'), _) => {
                            self.end();
                            pos += from + len + 1;
                        }
                        (false, Some(b'>'), _) => {
                            if let Some(n) = self.leaf(rest, name, from + len + 1, (utf8, pos)) {
                                pos += n;
                            } else {
                                self.start(name, None, false);
                                pos += from + len + 1;
                            }
                        }
                        (false, Some(b'/'), Some(b'>')) => {
                            self.start(name, None, true);
                            pos += from + len + 2;
                        }
                        _ => break,
                    }
                }
                Some(b'&') => break,
                Some(_) => {
                    // Indentation between tags outside a capture is a text event that changes
                    // nothing (see `text`): skipped without one.
                    let ws = rest.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(rest.len());
                    if ws > 0 && rest.get(ws) == Some(&b'<') && self.capture.is_none() {
                        pos += ws;
                        continue;
                    }
                    let n = markup_or_ref(rest);
                    self.text_in(rest.get(..n).unwrap_or_default(), || utf8.get(pos, pos + n));
                    pos += n;
                }
            }
        }
        pos
    }

    fn handle(&mut self, ev: quick_xml::Result<Event<'_>>, pos: u64) {
        match ev {
            Ok(Event::Start(e)) if self.name_ok(e.name().into_inner(), pos) => {
                self.start(e.name().into_inner(), Some(&e), false)
            }
            Ok(Event::Empty(e)) if self.name_ok(e.name().into_inner(), pos) => {
                self.start(e.name().into_inner(), Some(&e), true)
            }
            Ok(Event::Start(_) | Event::Empty(_)) => {}
            Ok(Event::End(_)) => self.end(),
            Ok(Event::Text(t)) => self.text(&t),
            Ok(Event::CData(t)) => self.text(&t),
            Ok(Event::GeneralRef(r)) => self.reference(&r),
            Ok(Event::DocType(t)) => self.doctype(&t),
            Ok(Event::Eof) => self.done = true,
            Ok(Event::Decl(_) | Event::PI(_) | Event::Comment(_)) => {}
            Err(quick_xml::Error::Io(e)) => {
                self.done = true;
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    self.em.truncated("the compressed stream ends early", Some(Locator::Byte(pos)));
                } else {
                    self.em.incomplete = true;
                    self.em.error(
                        codes::INVALID_COMPRESSION,
                        format!("reading stopped: {e}"),
                        Some(Locator::Byte(pos)),
                    );
                }
            }
            Err(quick_xml::Error::IllFormed(e)) => {
                self.ill_formed += 1;
                if self.ill_formed <= 100 {
                    self.em.error(codes::MALFORMED_XML, format!("ill-formed XML: {e}"), Some(Locator::Byte(pos)));
                } else {
                    self.done = true;
                    self.em.incomplete = true;
                }
            }
            Err(e) => {
                self.done = true;
                self.em.incomplete = true;
                self.em.error(
                    codes::MALFORMED_XML,
                    format!("XML error, reading stopped: {e}"),
                    Some(Locator::Byte(pos)),
                );
            }
        }
    }

    /// True when `name` can be an XML element name (XML 1.0 section 2.3, at the byte level: not
    /// empty, not starting with a digit, `-` or `.`, no markup character, quote, `=` or whitespace).
    /// Otherwise the `<` before it was not markup (an unescaped `<` in a value: `?q=a<b`), which
    /// quick-xml reads as a tag that swallows the entries after it: reading stops there with
    /// `malformed_xml`, keeping what was complete before.
    fn name_ok(&mut self, name: &[u8], pos: u64) -> bool {
        let bad = |c: &u8| matches!(c, b'<' | b'>' | b'&' | b'"' | b'\'' | b'=' | b'/' | b'!' | b'?') || *c <= b' ';
        let ok = name.first().is_some_and(|&c| name_start(c)) && !name.iter().any(bad);
        if !ok {
            self.done = true;
            self.em.incomplete = true;
            self.em.error(
                codes::MALFORMED_XML,
                format!(
                    "a `<` before byte {pos} does not start an element (`<{}`): an unescaped `<` in a value? \
                     reading stopped",
                    String::from_utf8_lossy(name.get(..name.len().min(40)).unwrap_or_default())
                ),
                Some(Locator::Byte(pos)),
            );
        }
        ok
    }

    fn doctype(&mut self, raw: &[u8]) {
        if contains_ci(raw, b"<!ENTITY") {
            self.refuse(Format::Unknown);
            self.em.error(
                codes::DOCTYPE_REJECTED,
                "the DOCTYPE declares entities; the file is refused (no DTD processing)",
                Some(Locator::Xml("/".into())),
            );
        } else if raw.trim_ascii_start().get(..4).is_some_and(|p| p.eq_ignore_ascii_case(b"html")) {
            self.refuse(Format::Html);
            self.em.error(codes::HTML_DOCUMENT, "an HTML page was served where a sitemap was expected", None);
        }
    }

    fn refuse(&mut self, format: Format) {
        self.refused = true;
        self.format = format;
        self.done = true;
    }

    /// A start tag (`empty` for `<x/>`) named `name`; `e` gives its attributes (none when `None`).
    fn start(&mut self, name: &[u8], e: Option<&BytesStart<'_>>, empty: bool) {
        let d = self.depth + 1;
        if d > self.em.limits.max_depth {
            let msg = format!("elements nested deeper than {} levels; reading stopped", self.em.limits.max_depth);
            self.em.over_limit(msg, None);
            return;
        }
        if let Some(c) = self.capture.as_mut() {
            c.markup = true;
        }
        let (prefix, local) = split_name(name);
        let Some(root) = self.root else {
            if !self.root_closed {
                self.open_root(local, prefix, empty);
            }
            return;
        };
        if !empty {
            self.depth = d;
            // Paths are kept for depths 1..=3 and, at any depth, outside entries (where an entry
            // may begin: a `<url>` below a nested `<urlset>`), so every entry's parent path is known.
            if d <= 3 || self.entry.is_none() {
                let keep = (d as usize).checked_sub(2).and_then(|i| self.path_ends.get(i)).copied().unwrap_or(0);
                self.path_buf.truncate(keep);
                self.path_ends.truncate(d as usize - 1);
                self.path_buf.push(b'/');
                self.path_buf.extend_from_slice(local);
                self.path_ends.push(self.path_buf.len());
            }
        }
        match root {
            Root::Urlset | Root::Index => self.start_sitemap(root, e, local, prefix, d),
            Root::Rss => self.start_rss(e, local, prefix, d),
            Root::Atom => self.start_atom(e, local, d),
        }
        if empty {
            self.close_at(d);
        }
    }

    fn open_root(&mut self, local: &[u8], prefix: &[u8], empty: bool) {
        let root = match local {
            b"urlset" => Root::Urlset,
            b"sitemapindex" => Root::Index,
            b"rss" | b"RDF" => Root::Rss,
            b"feed" => Root::Atom,
            b"html" => {
                self.refuse(Format::Html);
                self.em.error(codes::HTML_DOCUMENT, "an HTML page was served where a sitemap was expected", None);
                return;
            }
            other => {
                self.refuse(Format::Unknown);
                self.em.error(
                    codes::UNKNOWN_ROOT,
                    format!(
                        "root element <{}> is not urlset, sitemapindex, rss or feed",
                        String::from_utf8_lossy(other)
                    ),
                    Some(Locator::Xml(format!("/{}", String::from_utf8_lossy(other)))),
                );
                return;
            }
        };
        self.root = Some(root);
        self.format = match root {
            Root::Urlset => Format::Urlset,
            Root::Index => Format::SitemapIndex,
            Root::Rss => Format::Rss,
            Root::Atom => Format::Atom,
        };
        self.root_prefix = prefix.to_vec();
        if empty {
            self.root_closed = true;
            self.done = true;
        } else {
            self.depth = 1;
            self.path_buf.clear();
            self.path_buf.push(b'/');
            self.path_buf.extend_from_slice(local);
            self.path_ends.clear();
            self.path_ends.push(self.path_buf.len());
        }
    }

    fn begin_entry(&mut self, local: &[u8], d: u32) {
        count_up(&mut self.entry_index);
        let parent_end = (d as usize).checked_sub(2).and_then(|i| self.path_ends.get(i)).copied().unwrap_or(0);
        let parent = self.path_buf.get(..parent_end).unwrap_or_default();
        let p = &self.entry_prefix;
        let same = p.len() == parent.len() + 1 + local.len()
            && starts_with_bytes(p, parent)
            && p.get(parent.len()) == Some(&b'/')
            && p.get(parent.len() + 1..).is_some_and(|l| same_bytes(l, local));
        if same {
            self.entry_path.truncate(self.entry_prefix_len);
        } else {
            self.entry_prefix.clear();
            self.entry_prefix.extend_from_slice(parent);
            self.entry_prefix.push(b'/');
            self.entry_prefix.extend_from_slice(local);
            self.entry_path.clear();
            push_utf8(&self.entry_prefix, &mut self.entry_path);
            self.entry_prefix_len = self.entry_path.len();
        }
        self.entry_path.push('[');
        self.entry_path.push_str(&self.entry_index);
        self.entry_path.push(']');
        self.loc_text.clear();
        self.direct.clear();
        self.hint_text.clear();
        self.hint_spans.clear();
        self.exts.clear();
        self.ext_text.clear();
        self.entry = Some(Entry {
            depth: d,
            loc: None,
            direct_undefined: None,
            direct_overflow: false,
            group: None,
            counters: [0; 7],
        });
    }

    /// The first entry of the document found deeper than directly under the root (the entry just
    /// begun): said once, as `nested_entry` (w). Real CMS output nests a `<urlset>` without a
    /// namespace inside another; entries are read by local name at any depth below the root.
    #[cold]
    fn nested_entry(&mut self, root: Root) {
        if self.nested_said {
            return;
        }
        self.nested_said = true;
        let (outer, entry) = if root == Root::Index { ("sitemapindex", "sitemap") } else { ("urlset", "url") };
        let path = self.entry_path.as_str();
        self.em.warn_with(codes::NESTED_ENTRY, || {
            let msg = format!(
                "<{entry}> at {path} is not directly under the root element (sitemaps.org: /{outer}/{entry}); entries \
                 are read by local name at any depth below the root, this one and any others"
            );
            (msg, Some(Locator::Xml(path.to_string())))
        });
    }

    fn begin_capture(&mut self, field: Field, d: u32, name: &'static str, group: Option<(Group, u32)>) {
        if self.capture.is_none() {
            self.text.clear();
            self.capture =
                Some(Capture { field, depth: d, name, group, undefined: None, overflow: false, markup: false });
        }
    }

    /// What a start tag at depth `d` means inside `entry` of a urlset or sitemap index, attributes
    /// aside.
    fn classify_in_entry(&self, root: Root, entry: &Entry, local: &[u8], prefix: &[u8], d: u32) -> InEntry {
        if d == entry.depth + 1 {
            let field = match local {
                b"loc" if prefix.is_empty() || same_bytes(prefix, &self.root_prefix) => Some((Field::Loc, "loc")),
                b"lastmod" => Some((Field::Lastmod, "lastmod")),
                b"changefreq" if root == Root::Urlset => Some((Field::Changefreq, "changefreq")),
                b"priority" if root == Root::Urlset => Some((Field::Priority, "priority")),
                _ => None,
            };
            if let Some((f, name)) = field {
                return InEntry::Capture(f, name, None);
            }
            if root != Root::Urlset {
                return InEntry::Nothing;
            }
            return match local {
                b"image" => InEntry::Group(Group::Image, 0),
                b"video" => InEntry::Group(Group::Video, 1),
                b"news" => InEntry::Group(Group::News, 4),
                b"link" => InEntry::Link,
                _ => InEntry::Nothing,
            };
        }
        let Some((group, gd, gi)) = entry.group else {
            return InEntry::Nothing;
        };
        if d != gd + 1 {
            return InEntry::Nothing;
        }
        let (field, name) = match (group, local) {
            (Group::Image, b"loc") => (Field::ImageLoc, "loc"),
            (Group::Video, b"thumbnail_loc") => (Field::Video, "thumbnail_loc"),
            (Group::Video, b"content_loc") => (Field::Video, "content_loc"),
            (Group::Video, b"player_loc") => (Field::Video, "player_loc"),
            (Group::Video, b"gallery_loc") => (Field::Video, "gallery_loc"),
            (Group::News, b"title") => (Field::NewsTitle, "title"),
            (Group::News, b"publication_date") => (Field::NewsDate, "publication_date"),
            _ => return InEntry::Nothing,
        };
        InEntry::Capture(field, name, Some((group, gi)))
    }

    fn start_sitemap(&mut self, root: Root, e: Option<&BytesStart<'_>>, local: &[u8], prefix: &[u8], d: u32) {
        let entry_name: &[u8] = if root == Root::Index { b"sitemap" } else { b"url" };
        let Some(entry) = self.entry.as_ref() else {
            if same_bytes(local, entry_name) {
                self.begin_entry(local, d);
                if d != 2 {
                    self.nested_entry(root);
                }
            }
            return;
        };
        match self.classify_in_entry(root, entry, local, prefix, d) {
            InEntry::Capture(field, name, group) => self.begin_capture(field, d, name, group),
            InEntry::Nothing => {}
            InEntry::Group(group, slot) => {
                if let Some(entry) = self.entry.as_mut() {
                    let n = entry.next(slot);
                    entry.group = Some((group, d, n));
                }
            }
            InEntry::Link => {
                let Some(entry) = self.entry.as_mut() else {
                    return;
                };
                let n = entry.next(2);
                self.scratch.clear();
                if attr_into(e, b"rel", &mut self.scratch).is_some()
                    && !self.scratch.trim().eq_ignore_ascii_case("alternate")
                {
                    return;
                }
                let start = end_of(&self.ext_text);
                if let Some(undefined) = attr_into(e, b"href", &mut self.ext_text) {
                    let text = (start, end_of(&self.ext_text));
                    self.push_alternate(e, text, At::Indexed("link", n), undefined);
                }
            }
        }
    }

    /// Records an alternate (`<xhtml:link rel="alternate" href hreflang>`, or an Atom alternate
    /// link) whose href text is `text` in `ext_text`, with its `hreflang` when present.
    fn push_alternate(&mut self, e: Option<&BytesStart<'_>>, text: (u32, u32), at: At, undefined: Option<String>) {
        self.scratch.clear();
        let hreflang = attr_into(e, b"hreflang", &mut self.scratch).map(|_| {
            let s = end_of(&self.ext_text);
            self.ext_text.push_str(trim(&self.scratch));
            (s, end_of(&self.ext_text))
        });
        self.exts.push(Ext { relation: Relation::Alternate, text, at, undefined, overflow: false, hreflang });
    }

    /// `<name>text</x>` inside an entry of a urlset or sitemap index, read at once: `after` is the
    /// offset in `rest` just past the start tag. Returns the bytes consumed (through the end tag), or
    /// `None` when the element is not that simple (then it is read tag by tag). The effect is that of
    /// the start, text and end events: a field captured and finished, or nothing (an element the
    /// format ignores). The element paths of depths beyond 2 are not recorded (nothing reads them in
    /// these formats, whose entries are at depth 2).
    /// `rest` starts at byte `at` of the body `utf8` reads.
    fn leaf(
        &mut self,
        rest: &[u8],
        name: &[u8],
        after: usize,
        (utf8, at): (&mut Utf8Windows<'_>, usize),
    ) -> Option<usize> {
        let root = self.root?;
        let d = self.depth + 1;
        let entry = self.entry.as_ref()?;
        if !matches!(root, Root::Urlset | Root::Index)
            || self.capture.is_some()
            || d <= entry.depth
            || d > self.em.limits.max_depth
        {
            return None;
        }
        let tail = rest.get(after..)?;
        let text_len = markup_or_ref(tail);
        let end = tail.get(text_len..)?;
        if end.get(..2)? != b"</" {
            return None;
        }
        // Mostly the end tag repeats the start tag's name.
        let end_name = end.get(2..)?;
        let name_len = if starts_with_bytes(end_name, name) && end_name.get(name.len()) == Some(&b'>') {
            name.len()
        } else {
            name_len(end_name)
        };
        if name_len == 0 || end.get(2 + name_len) != Some(&b'>') {
            return None;
        }
        let (prefix, local) = split_name(name);
        match self.classify_in_entry(root, entry, local, prefix, d) {
            InEntry::Capture(field, field_name, group) => {
                // What the text event would do, without the capture in between.
                let raw = tail.get(..text_len)?;
                let overflow = raw.len() > self.em.limits.max_value_bytes;
                self.text.clear();
                if !overflow {
                    let text = utf8.get(at + after, at + after + text_len);
                    match text.map_or_else(|| std::str::from_utf8(raw), Ok) {
                        Ok(t) => self.text.push_str(t),
                        Err(_) => {
                            // Invalid UTF-8 is replaced and diagnosed by the text handler.
                            self.begin_capture(field, d, field_name, group);
                            self.text(raw);
                            self.finish_capture();
                            return Some(after + text_len + name_len + 3);
                        }
                    }
                }
                self.finish_field(field, field_name, group, None, overflow, false);
            }
            InEntry::Nothing => {}
            InEntry::Group(..) | InEntry::Link => return None,
        }
        Some(after + text_len + name_len + 3)
    }

    fn start_rss(&mut self, e: Option<&BytesStart<'_>>, local: &[u8], prefix: &[u8], d: u32) {
        let Some(entry) = self.entry.as_mut() else {
            if d >= 2 && local == b"item" {
                self.begin_entry(local, d);
            }
            return;
        };
        if d == entry.depth + 1 {
            let field = match (local, prefix.is_empty()) {
                (b"link", true) => Some((Field::Link, "link")),
                (b"pubDate", true) => Some((Field::FeedDate, "pubDate")),
                (b"date", false) => Some((Field::FeedDate, "date")),
                _ => None,
            };
            if let Some((f, name)) = field {
                self.begin_capture(f, d, name, None);
                return;
            }
        }
        let (relation, slot, name) = match local {
            b"enclosure" => (Relation::Enclosure, 3, "enclosure"),
            b"content" if !prefix.is_empty() => (Relation::Enclosure, 5, "content"),
            b"thumbnail" if !prefix.is_empty() => (Relation::Image, 6, "thumbnail"),
            _ => return,
        };
        let start = end_of(&self.ext_text);
        if let Some(undefined) = attr_into(e, b"url", &mut self.ext_text) {
            let n = entry.next(slot);
            let text = (start, end_of(&self.ext_text));
            self.exts.push(Ext {
                relation,
                text,
                at: At::Indexed(name, n),
                undefined,
                overflow: false,
                hreflang: None,
            });
        }
    }

    fn start_atom(&mut self, e: Option<&BytesStart<'_>>, local: &[u8], d: u32) {
        let Some(entry) = self.entry.as_mut() else {
            if d == 2 && local == b"entry" {
                self.begin_entry(local, d);
            }
            return;
        };
        if d != entry.depth + 1 {
            return;
        }
        match local {
            b"link" => {
                let n = entry.next(2);
                let start = end_of(&self.ext_text);
                let Some(undefined) = attr_into(e, b"href", &mut self.ext_text) else {
                    return;
                };
                let text = (start, end_of(&self.ext_text));
                self.scratch.clear();
                let has_rel = attr_into(e, b"rel", &mut self.scratch).is_some();
                let rel = trim(&self.scratch);
                let at = At::Indexed("link", n);
                if !has_rel || rel.eq_ignore_ascii_case("alternate") {
                    if entry.loc.is_none() {
                        self.loc_text.clear();
                        self.loc_text.push_str(self.ext_text.get(start as usize..).unwrap_or_default());
                        self.ext_text.truncate(start as usize);
                        entry.loc = Some(LocVal { at, undefined, overflow: false });
                    } else {
                        self.push_alternate(e, text, at, undefined);
                    }
                } else if rel.eq_ignore_ascii_case("enclosure") {
                    self.exts.push(Ext {
                        relation: Relation::Enclosure,
                        text,
                        at,
                        undefined,
                        overflow: false,
                        hreflang: None,
                    });
                } else {
                    self.ext_text.truncate(start as usize);
                }
            }
            b"updated" => self.begin_capture(Field::FeedDate, d, "updated", None),
            b"modified" => self.begin_capture(Field::FeedDate, d, "modified", None),
            _ => {}
        }
    }

    fn end(&mut self) {
        let d = self.depth;
        if d == 0 {
            return;
        }
        self.close_at(d);
        self.depth = d - 1;
        if d == 1 {
            self.root_closed = true;
            self.done = true;
        }
    }

    /// Closes whatever started at depth `d`: a capture, an extension group, an entry.
    fn close_at(&mut self, d: u32) {
        if self.capture.as_ref().is_some_and(|c| c.depth == d) {
            self.finish_capture();
        }
        if let Some(entry) = self.entry.as_mut() {
            if entry.group.as_ref().is_some_and(|g| g.1 == d) {
                entry.group = None;
            }
            if entry.depth == d {
                self.finish_entry();
            }
        }
    }

    fn text(&mut self, raw: &[u8]) {
        self.text_in(raw, || None);
    }

    /// The text event for `raw`; `valid` gives its UTF-8 form when that is known (called only when
    /// the text is kept).
    fn text_in<'t>(&mut self, raw: &[u8], valid: impl FnOnce() -> Option<&'t str>) {
        let max = self.em.limits.max_value_bytes;
        if let Some(c) = self.capture.as_mut() {
            if self.text.len() + raw.len() > max {
                c.overflow = true;
            } else if let Some(v) = valid() {
                self.text.push_str(v);
            } else if !push_utf8(raw, &mut self.text) {
                let loc = At::Field(c.group, c.name).place(&self.entry_path).to_locator();
                self.em.invalid_utf8(Some(loc));
            }
            return;
        }
        if let Some(entry) = self.entry.as_mut()
            && entry.depth == self.depth
            && entry.loc.is_none()
            && !raw.iter().all(u8::is_ascii_whitespace)
        {
            if self.direct.len() + raw.len() > max {
                entry.direct_overflow = true;
            } else if let Some(v) = valid() {
                self.direct.push_str(v);
            } else {
                push_utf8(raw, &mut self.direct);
            }
        }
    }

    fn reference(&mut self, name: &[u8]) {
        let resolved = resolve_ref(name);
        let (out, undefined) = if let Some(c) = self.capture.as_mut() {
            (&mut self.text, &mut c.undefined)
        } else if let Some(entry) = self.entry.as_mut()
            && entry.depth == self.depth
            && entry.loc.is_none()
        {
            (&mut self.direct, &mut entry.direct_undefined)
        } else {
            return;
        };
        match resolved {
            RefValue::Char(c) => out.push(c),
            RefValue::Literal | RefValue::Undefined => {
                if resolved == RefValue::Undefined && undefined.is_none() {
                    *undefined = Some(lossy(name));
                }
                out.push('&');
                push_utf8(name, out);
                out.push(';');
            }
        }
    }

    fn finish_capture(&mut self) {
        if let Some(c) = self.capture.take() {
            self.finish_field(c.field, c.name, c.group, c.undefined, c.overflow, c.markup);
        }
    }

    /// What ends a capture: its text (in `self.text`) becomes the entry's URL, a hint or an
    /// extension URL.
    // Inlined: a `Capture` built by the caller and read back through memory stalled on store
    // forwarding (its fields stored piecewise, loaded as 16-byte blocks), a tenth of the parse.
    #[inline(always)]
    fn finish_field(
        &mut self,
        field: Field,
        name: &'static str,
        group: Option<(Group, u32)>,
        undefined: Option<String>,
        overflow: bool,
        markup: bool,
    ) {
        let Some(entry) = self.entry.as_mut() else {
            return;
        };
        let at = At::Field(group, name);
        if markup && !matches!(field, Field::NewsTitle) {
            // A URL or a date with elements inside is not one: its text is not used.
            let code = match field {
                Field::Lastmod | Field::FeedDate | Field::NewsDate => codes::INVALID_LASTMOD,
                Field::Changefreq => codes::INVALID_CHANGEFREQ,
                Field::Priority => codes::INVALID_PRIORITY,
                _ => codes::INVALID_LOC,
            };
            let path = &self.entry_path;
            self.em.error_with(code, move || {
                let msg = format!("<{}> holds elements, not only text; its value is not used", name);
                (msg, Some(at.place(path).to_locator()))
            });
            return;
        }
        match field {
            Field::Loc | Field::Link => {
                if entry.loc.is_some() {
                    let (path, text) = (&self.entry_path, &self.text);
                    self.em.warn_with(codes::MULTIPLE_LOC, move || {
                        let msg = format!("a second URL {} in one entry is ignored", shown(text));
                        (msg, Some(at.place(path).to_locator()))
                    });
                } else {
                    std::mem::swap(&mut self.text, &mut self.loc_text);
                    entry.loc = Some(LocVal { at, undefined, overflow });
                }
            }
            Field::Lastmod | Field::Changefreq | Field::Priority => {
                let v = trim(&self.text);
                let (key, ok, code, what) = match field {
                    Field::Lastmod => ("lastmod", is_w3c_datetime(v), codes::INVALID_LASTMOD, "a W3C Datetime"),
                    Field::Changefreq => (
                        "changefreq",
                        is_changefreq(v),
                        codes::INVALID_CHANGEFREQ,
                        "one of always, hourly, daily, weekly, monthly, yearly, never",
                    ),
                    _ => ("priority", is_priority(v), codes::INVALID_PRIORITY, "a decimal from 0.0 to 1.0"),
                };
                if !ok {
                    let path = &self.entry_path;
                    self.em.error_with(code, move || {
                        (format!("{key} {} is not {what}", shown(v)), Some(at.place(path).to_locator()))
                    });
                }
                // Kept as declared, also when invalid or empty (diagnosed above).
                set_hint(&mut self.hint_text, &mut self.hint_spans, key, v);
            }
            Field::FeedDate => {
                let v = trim(&self.text);
                if !v.is_empty() && !self.hint_spans.iter().any(|(k, _, _)| *k == "lastmod") {
                    set_hint(&mut self.hint_text, &mut self.hint_spans, "lastmod", v);
                }
            }
            Field::NewsTitle | Field::NewsDate => {
                let key = if field == Field::NewsTitle { "news_title" } else { "news_publication_date" };
                let v = trim(&self.text);
                if !v.is_empty() {
                    set_hint(&mut self.hint_text, &mut self.hint_spans, key, v);
                }
            }
            Field::ImageLoc | Field::Video => {
                let relation = if field == Field::ImageLoc { Relation::Image } else { Relation::Video };
                let start = end_of(&self.ext_text);
                self.ext_text.push_str(&self.text);
                self.exts.push(Ext {
                    relation,
                    text: (start, end_of(&self.ext_text)),
                    at,
                    undefined,
                    overflow,
                    hreflang: None,
                });
            }
        }
    }

    fn finish_entry(&mut self) {
        // Read in place (the entry is dropped at the end), not moved out: it is not small.
        let Some(entry) = self.entry.as_ref() else {
            return;
        };
        self.em.entries += 1;
        let relation = if self.root == Some(Root::Index) { Relation::Child } else { Relation::Loc };
        let base = (self.root == Some(Root::Atom)).then_some(&self.base);
        let path = self.entry_path.as_str();
        let hints = Hints::new(&self.hint_text, &self.hint_spans);
        if let Some(l) = &entry.loc {
            let place = l.at.place(path);
            self.em.value(relation, &self.loc_text, place, l.undefined.as_deref(), l.overflow, hints, base);
        } else if !trim(&self.direct).is_empty() || entry.direct_overflow {
            let place = At::Entry.place(path);
            let undefined = entry.direct_undefined.as_deref();
            self.em.value(relation, &self.direct, place, undefined, entry.direct_overflow, hints, base);
        } else {
            let what = match self.root {
                Some(Root::Rss) => "item without <link>",
                Some(Root::Atom) => "entry without an alternate <link>",
                _ => "entry without <loc>",
            };
            self.em.error_with(codes::MISSING_LOC, || (what.to_string(), Some(Locator::Xml(path.to_string()))));
        }
        for ext in &self.exts {
            let span = |(s, e): (u32, u32)| self.ext_text.get(s as usize..e as usize).unwrap_or_default();
            let spans = ext.hreflang.map(|(s, e)| [("hreflang", s, e)]);
            let hints = Hints::new(&self.ext_text, spans.as_ref().map_or(&[][..], |s| &s[..]));
            self.em.value(
                ext.relation,
                span(ext.text),
                ext.at.place(path),
                ext.undefined.as_deref(),
                ext.overflow,
                hints,
                base,
            );
        }
        self.entry = None;
    }
}

fn configure<R>(reader: &mut Reader<R>) {
    let c = reader.config_mut();
    c.allow_dangling_amp = true;
    c.allow_unmatched_ends = true;
    c.check_end_names = false;
    c.check_comments = false;
    c.expand_empty_elements = false;
    c.trim_text(false);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Utf8Windows, count_up, markup_or_ref};

    fn naive(b: &[u8]) -> usize {
        b.iter().position(|&c| c == b'<' || c == b'&').unwrap_or(b.len())
    }

    #[test]
    fn count_up_counts_in_decimal() {
        let mut n = String::from("0");
        for i in 1..=12_000u32 {
            count_up(&mut n);
            assert_eq!(n, i.to_string());
        }
        let mut n = String::from("4294967295");
        count_up(&mut n);
        assert_eq!(n, "4294967296");
    }

    #[test]
    fn markup_is_found_at_every_offset() {
        for len in 0..150 {
            for at in 0..=len {
                for c in [b'<', b'&'] {
                    let mut b = vec![b'a'; len];
                    if let Some(x) = b.get_mut(at) {
                        *x = c;
                    }
                    assert_eq!(markup_or_ref(&b), naive(&b), "len {len}, at {at}");
                }
            }
        }
    }

    #[test]
    fn name_len_is_the_run_of_name_bytes() {
        let naive = |b: &[u8]| b.iter().position(|&c| !super::NAME_BYTES[usize::from(c)]).unwrap_or(b.len());
        let bytes: Vec<u8> = (0..=255u8).collect();
        for len in 0..20 {
            for &c in &bytes {
                for at in 0..=len {
                    let mut b = b"image:caption-Xy.z_9a:b".iter().copied().cycle().take(len).collect::<Vec<u8>>();
                    if let Some(x) = b.get_mut(at) {
                        *x = c;
                    }
                    assert_eq!(super::name_len(&b), naive(&b), "{:?}", String::from_utf8_lossy(&b));
                }
            }
        }
    }

    #[test]
    fn utf8_windows_give_field_texts_across_window_ends() {
        // A two-byte character cut by the first window's end, an invalid byte further on.
        let mut b = vec![b'a'; 511];
        b.extend_from_slice("é".as_bytes());
        b.extend_from_slice(b"bcd");
        b.extend(std::iter::repeat_n(b'x', 300));
        b.push(0xFF);
        b.extend_from_slice(b"yz");
        let mut w = Utf8Windows::new(&b);
        assert_eq!(w.get(0, 3), Some("aaa"));
        assert_eq!(w.get(509, 514), Some("aaéb"));
        assert_eq!(w.get(512, 514), None, "inside a character");
        assert_eq!(w.get(513, 516), Some("bcd"));
        assert_eq!(w.get(800, 818), None, "the invalid byte");
        assert_eq!(w.get(817, 819), Some("yz"));
        assert_eq!(w.get(817, 900), None, "past the end");
    }

    proptest! {
        #[test]
        fn utf8_windows_agree_with_from_utf8(
            b in prop::collection::vec(prop_oneof![Just(b'a'), Just(0xC3u8), Just(0xA9u8), Just(0xFFu8), any::<u8>()], 0..3000),
            mut ranges in prop::collection::vec((0usize..3100, 0usize..700), 0..40),
        ) {
            // In increasing order, as the tokenizer asks, and then in any order.
            let mut w = Utf8Windows::new(&b);
            ranges.sort_unstable();
            for (a, n) in ranges.iter().chain(ranges.iter().rev()) {
                let want = b.get(*a..a + n).and_then(|s| std::str::from_utf8(s).ok());
                prop_assert_eq!(w.get(*a, a + n), want, "{}..{}", a, a + n);
            }
        }

        #[test]
        fn markup_or_ref_is_the_first_lt_or_amp(b in prop::collection::vec(prop_oneof![Just(b'<'), Just(b'&'), Just(0u8), Just(0xFFu8), any::<u8>()], 0..200)) {
            prop_assert_eq!(markup_or_ref(&b), naive(&b));
        }
    }
}
