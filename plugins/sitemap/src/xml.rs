//! The XML formats (urlset, sitemapindex, RSS, Atom) as one streaming pass over quick-xml events.
//!
//! Elements are matched by local name whatever their namespace or prefix (sitemaps.org 0.9, Google
//! 0.84, https variants, no namespace, `xmlns=""` on children, `ns0:urlset`). Text and CDATA are
//! concatenated and trimmed; references are resolved here (predefined entities and character
//! references only), so a bare `&` stays literal and an undefined entity drops only the value holding
//! it. Only a small fixed state is kept (depth counter, current entry), never a tree.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use url::Url;
use wellknown_core::Locator;

use crate::codes;
use crate::emit::{Emitter, shown};
use crate::input::Source;
use crate::model::{Format, Relation, Visitor};
use crate::values::{
    RefValue, is_changefreq, is_priority, is_w3c_datetime, push_utf8, resolve_ref, trim, unescape_into,
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
}

/// An extension URL waiting for its entry to end.
struct Ext {
    relation: Relation,
    text: String,
    locator: Locator,
    undefined: Option<String>,
    overflow: bool,
    hints: Vec<(&'static str, String)>,
}

/// The entry's URL (its text is in `XmlParser::loc_text`).
struct LocVal {
    locator: Locator,
    undefined: Option<String>,
    overflow: bool,
}

struct Entry {
    depth: u32,
    loc: Option<LocVal>,
    /// Direct text of the entry element is in `XmlParser::direct`.
    direct_undefined: Option<String>,
    direct_overflow: bool,
    hints: Vec<(&'static str, String)>,
    exts: Vec<Ext>,
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
    path_buf: String,
    path_ends: Vec<usize>,
    /// Path of the current entry (`/urlset/url[3]`).
    entry_path: String,
    entry: Option<Entry>,
    entry_count: u32,
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
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn push_u32(s: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        if let Some(d) = digits.get_mut(i) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || i == 0 {
            break;
        }
    }
    for &d in digits.get(i..).unwrap_or_default() {
        s.push(char::from(d));
    }
}

/// `entry_path[/group[i]]/name`.
fn field_locator(entry_path: &str, group: Option<(Group, u32)>, name: &str) -> Locator {
    let mut s = String::with_capacity(entry_path.len() + name.len() + 16);
    s.push_str(entry_path);
    if let Some((g, i)) = group {
        s.push('/');
        s.push_str(g.name());
        s.push('[');
        push_u32(&mut s, i);
        s.push(']');
    }
    s.push('/');
    s.push_str(name);
    Locator::Xml(s)
}

/// `entry_path/name[i]`.
fn indexed_locator(entry_path: &str, name: &str, i: u32) -> Locator {
    let mut s = String::with_capacity(entry_path.len() + name.len() + 8);
    s.push_str(entry_path);
    s.push('/');
    s.push_str(name);
    s.push('[');
    push_u32(&mut s, i);
    s.push(']');
    Locator::Xml(s)
}

/// Reads attribute `key` (by local name), unescaped; with the first undefined entity, if any.
fn attr(e: &BytesStart<'_>, key: &[u8]) -> Option<(String, Option<String>)> {
    e.attributes().with_checks(false).flatten().find(|a| a.key.local_name().as_ref() == key).map(|a| {
        let mut s = String::new();
        let undefined = unescape_into(&a.value, &mut s);
        (s, undefined)
    })
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
            path_buf: String::new(),
            path_ends: Vec::new(),
            entry_path: String::new(),
            entry: None,
            entry_count: 0,
            capture: None,
            text: String::new(),
            loc_text: String::new(),
            direct: String::new(),
            format: Format::Unknown,
            refused: false,
            done: false,
            ill_formed: 0,
        }
    }

    /// Runs the pass over the document.
    pub(crate) fn run(mut self, source: Source<'_>) -> XmlOutcome {
        match source {
            Source::Slice(bytes) => {
                let mut reader = Reader::from_reader(bytes);
                configure(&mut reader);
                while !self.done && !self.em.stop {
                    let ev = reader.read_event();
                    let pos = reader.buffer_position();
                    self.handle(ev, pos);
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

    fn handle(&mut self, ev: quick_xml::Result<Event<'_>>, pos: u64) {
        match ev {
            Ok(Event::Start(e)) => self.start(&e, false),
            Ok(Event::Empty(e)) => self.start(&e, true),
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

    fn start(&mut self, e: &BytesStart<'_>, empty: bool) {
        let d = self.depth + 1;
        if d > self.em.limits.max_depth {
            let msg = format!("elements nested deeper than {} levels; reading stopped", self.em.limits.max_depth);
            self.em.over_limit(msg, None);
            return;
        }
        let name = e.name();
        let local = name.local_name();
        let local = local.as_ref();
        let prefix: &[u8] = name.prefix().map(|p| p.into_inner()).unwrap_or_default();
        let Some(root) = self.root else {
            if !self.root_closed {
                self.open_root(local, prefix, empty);
            }
            return;
        };
        if !empty {
            self.depth = d;
            if d <= 3 {
                let keep = (d as usize).checked_sub(2).and_then(|i| self.path_ends.get(i)).copied().unwrap_or(0);
                self.path_buf.truncate(keep);
                self.path_ends.truncate(d as usize - 1);
                self.path_buf.push('/');
                push_utf8(local, &mut self.path_buf);
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
            self.path_buf.push('/');
            push_utf8(local, &mut self.path_buf);
            self.path_ends.clear();
            self.path_ends.push(self.path_buf.len());
        }
    }

    fn begin_entry(&mut self, local: &[u8], d: u32) {
        self.entry_count += 1;
        let parent_end = (d as usize).checked_sub(2).and_then(|i| self.path_ends.get(i)).copied().unwrap_or(0);
        self.entry_path.clear();
        self.entry_path.push_str(self.path_buf.get(..parent_end).unwrap_or_default());
        self.entry_path.push('/');
        push_utf8(local, &mut self.entry_path);
        self.entry_path.push('[');
        push_u32(&mut self.entry_path, self.entry_count);
        self.entry_path.push(']');
        self.loc_text.clear();
        self.direct.clear();
        self.entry = Some(Entry {
            depth: d,
            loc: None,
            direct_undefined: None,
            direct_overflow: false,
            hints: Vec::new(),
            exts: Vec::new(),
            group: None,
            counters: [0; 7],
        });
    }

    fn begin_capture(&mut self, field: Field, d: u32, name: &'static str, group: Option<(Group, u32)>) {
        if self.capture.is_none() {
            self.text.clear();
            self.capture = Some(Capture { field, depth: d, name, group, undefined: None, overflow: false });
        }
    }

    fn start_sitemap(&mut self, root: Root, e: &BytesStart<'_>, local: &[u8], prefix: &[u8], d: u32) {
        let entry_name: &[u8] = if root == Root::Index { b"sitemap" } else { b"url" };
        let Some(entry) = self.entry.as_mut() else {
            if d == 2 && local == entry_name {
                self.begin_entry(local, d);
            }
            return;
        };
        if d == entry.depth + 1 {
            let field = match local {
                b"loc" if prefix.is_empty() || prefix == self.root_prefix.as_slice() => Some((Field::Loc, "loc")),
                b"lastmod" => Some((Field::Lastmod, "lastmod")),
                b"changefreq" if root == Root::Urlset => Some((Field::Changefreq, "changefreq")),
                b"priority" if root == Root::Urlset => Some((Field::Priority, "priority")),
                _ => None,
            };
            if let Some((f, name)) = field {
                self.begin_capture(f, d, name, None);
                return;
            }
            if root != Root::Urlset {
                return;
            }
            match local {
                b"image" => {
                    let n = entry.next(0);
                    entry.group = Some((Group::Image, d, n));
                }
                b"video" => {
                    let n = entry.next(1);
                    entry.group = Some((Group::Video, d, n));
                }
                b"news" => {
                    let n = entry.next(4);
                    entry.group = Some((Group::News, d, n));
                }
                b"link" => {
                    let n = entry.next(2);
                    let rel = attr(e, b"rel").map(|(r, _)| r);
                    if rel.as_deref().is_some_and(|r| !r.trim().eq_ignore_ascii_case("alternate")) {
                        return;
                    }
                    if let Some((href, undefined)) = attr(e, b"href") {
                        let mut hints = Vec::new();
                        if let Some((lang, _)) = attr(e, b"hreflang") {
                            hints.push(("hreflang", trim(&lang).to_string()));
                        }
                        let locator = indexed_locator(&self.entry_path, "link", n);
                        entry.exts.push(Ext {
                            relation: Relation::Alternate,
                            text: href,
                            locator,
                            undefined,
                            overflow: false,
                            hints,
                        });
                    }
                }
                _ => {}
            }
            return;
        }
        let Some((group, gd, gi)) = entry.group else {
            return;
        };
        if d != gd + 1 {
            return;
        }
        let (field, name) = match (group, local) {
            (Group::Image, b"loc") => (Field::ImageLoc, "loc"),
            (Group::Video, b"thumbnail_loc") => (Field::Video, "thumbnail_loc"),
            (Group::Video, b"content_loc") => (Field::Video, "content_loc"),
            (Group::Video, b"player_loc") => (Field::Video, "player_loc"),
            (Group::Video, b"gallery_loc") => (Field::Video, "gallery_loc"),
            (Group::News, b"title") => (Field::NewsTitle, "title"),
            (Group::News, b"publication_date") => (Field::NewsDate, "publication_date"),
            _ => return,
        };
        self.begin_capture(field, d, name, Some((group, gi)));
    }

    fn start_rss(&mut self, e: &BytesStart<'_>, local: &[u8], prefix: &[u8], d: u32) {
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
        if let Some((url, undefined)) = attr(e, b"url") {
            let n = entry.next(slot);
            let locator = indexed_locator(&self.entry_path, name, n);
            entry.exts.push(Ext { relation, text: url, locator, undefined, overflow: false, hints: Vec::new() });
        }
    }

    fn start_atom(&mut self, e: &BytesStart<'_>, local: &[u8], d: u32) {
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
                let Some((href, undefined)) = attr(e, b"href") else {
                    return;
                };
                let rel = attr(e, b"rel").map(|(r, _)| trim(&r).to_ascii_lowercase());
                let locator = indexed_locator(&self.entry_path, "link", n);
                match rel.as_deref() {
                    None | Some("alternate") => {
                        if entry.loc.is_none() {
                            self.loc_text = href;
                            entry.loc = Some(LocVal { locator, undefined, overflow: false });
                        } else {
                            let mut hints = Vec::new();
                            if let Some((lang, _)) = attr(e, b"hreflang") {
                                hints.push(("hreflang", trim(&lang).to_string()));
                            }
                            entry.exts.push(Ext {
                                relation: Relation::Alternate,
                                text: href,
                                locator,
                                undefined,
                                overflow: false,
                                hints,
                            });
                        }
                    }
                    Some("enclosure") => entry.exts.push(Ext {
                        relation: Relation::Enclosure,
                        text: href,
                        locator,
                        undefined,
                        overflow: false,
                        hints: Vec::new(),
                    }),
                    _ => {}
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
        let max = self.em.limits.max_value_bytes;
        if let Some(c) = self.capture.as_mut() {
            if self.text.len() + raw.len() > max {
                c.overflow = true;
            } else if !push_utf8(raw, &mut self.text) {
                let (name, group) = (c.name, c.group);
                let loc = field_locator(&self.entry_path, group, name);
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
        let Some(c) = self.capture.take() else {
            return;
        };
        let Some(entry) = self.entry.as_mut() else {
            return;
        };
        match c.field {
            Field::Loc | Field::Link => {
                let locator = field_locator(&self.entry_path, c.group, c.name);
                if entry.loc.is_some() {
                    let msg = format!("a second URL {} in one entry is ignored", shown(&self.text));
                    self.em.warn(codes::MULTIPLE_LOC, msg, Some(locator));
                } else {
                    std::mem::swap(&mut self.text, &mut self.loc_text);
                    entry.loc = Some(LocVal { locator, undefined: c.undefined, overflow: c.overflow });
                }
            }
            Field::Lastmod | Field::Changefreq | Field::Priority => {
                let v = trim(&self.text);
                let (key, ok, code, what) = match c.field {
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
                    self.em.error_with(code, || {
                        (format!("{key} {} is not {what}", shown(v)), Some(field_locator(path, c.group, c.name)))
                    });
                }
                if !v.is_empty() {
                    entry.hints.push((key, v.to_string()));
                }
            }
            Field::FeedDate => {
                let v = trim(&self.text);
                if !v.is_empty() && !entry.hints.iter().any(|(k, _)| *k == "lastmod") {
                    entry.hints.push(("lastmod", v.to_string()));
                }
            }
            Field::NewsTitle | Field::NewsDate => {
                let key = if c.field == Field::NewsTitle { "news_title" } else { "news_publication_date" };
                let v = trim(&self.text);
                if !v.is_empty() {
                    entry.hints.push((key, v.to_string()));
                }
            }
            Field::ImageLoc | Field::Video => {
                let relation = if c.field == Field::ImageLoc { Relation::Image } else { Relation::Video };
                let locator = field_locator(&self.entry_path, c.group, c.name);
                let text = std::mem::take(&mut self.text);
                entry.exts.push(Ext {
                    relation,
                    text,
                    locator,
                    undefined: c.undefined,
                    overflow: c.overflow,
                    hints: Vec::new(),
                });
            }
        }
    }

    fn finish_entry(&mut self) {
        let Some(entry) = self.entry.take() else {
            return;
        };
        self.em.entries += 1;
        let relation = if self.root == Some(Root::Index) { Relation::Child } else { Relation::Loc };
        let base = (self.root == Some(Root::Atom)).then_some(&self.base);
        let Entry { loc, direct_undefined, direct_overflow, hints, exts, .. } = entry;
        if let Some(l) = loc {
            self.em.value(relation, &self.loc_text, l.locator, l.undefined.as_deref(), l.overflow, hints, base);
        } else if !trim(&self.direct).is_empty() || direct_overflow {
            let locator = Locator::Xml(self.entry_path.clone());
            self.em.value(relation, &self.direct, locator, direct_undefined.as_deref(), direct_overflow, hints, base);
        } else {
            let what = match self.root {
                Some(Root::Rss) => "item without <link>",
                Some(Root::Atom) => "entry without an alternate <link>",
                _ => "entry without <loc>",
            };
            let path = &self.entry_path;
            self.em.error_with(codes::MISSING_LOC, || (what.to_string(), Some(Locator::Xml(path.clone()))));
        }
        for ext in exts {
            self.em.value(
                ext.relation,
                &ext.text,
                ext.locator,
                ext.undefined.as_deref(),
                ext.overflow,
                ext.hints,
                base,
            );
        }
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
