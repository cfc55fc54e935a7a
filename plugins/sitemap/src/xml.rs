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
use crate::emit::{Emitter, Value, shown};
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
    Video(&'static str),
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

struct Capture {
    field: Field,
    depth: u32,
    locator: Locator,
    undefined: Option<String>,
    overflow: bool,
}

struct Ext {
    relation: Relation,
    value: Value,
    hints: Vec<(&'static str, String)>,
}

struct Entry {
    depth: u32,
    path: String,
    loc: Option<Value>,
    /// Text directly inside the entry element (an index entry without `<loc>`).
    direct: String,
    direct_undefined: Option<String>,
    direct_overflow: bool,
    hints: Vec<(&'static str, String)>,
    exts: Vec<Ext>,
    group: Option<(Group, u32, String)>,
    /// Per-entry counters for locators: image, video, link, enclosure, news.
    counters: [u32; 5],
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
    names: Vec<String>,
    entry: Option<Entry>,
    entry_count: u32,
    capture: Option<Capture>,
    text: String,
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
            names: Vec::new(),
            entry: None,
            entry_count: 0,
            capture: None,
            text: String::new(),
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
        let prefix = name.prefix().map(|p| p.as_ref().to_vec()).unwrap_or_default();
        let Some(root) = self.root else {
            if self.root_closed {
                return;
            }
            self.open_root(local, prefix, empty);
            return;
        };
        if !empty {
            self.depth = d;
            if d <= 3 {
                self.names.truncate(d as usize - 1);
                self.names.push(lossy(local));
            }
        }
        match root {
            Root::Urlset | Root::Index => self.start_sitemap(root, e, local, &prefix, d, empty),
            Root::Rss => self.start_rss(e, local, &prefix, d, empty),
            Root::Atom => self.start_atom(e, local, d, empty),
        }
        if empty {
            self.close_at(d);
        }
    }

    fn open_root(&mut self, local: &[u8], prefix: Vec<u8>, empty: bool) {
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
        self.root_prefix = prefix;
        if empty {
            self.root_closed = true;
            self.done = true;
        } else {
            self.depth = 1;
            self.names.clear();
            self.names.push(lossy(local));
        }
    }

    fn begin_entry(&mut self, local: &[u8], d: u32) {
        self.entry_count += 1;
        let mut path = String::with_capacity(32);
        for n in self.names.iter().take(d as usize - 1) {
            path.push('/');
            path.push_str(n);
        }
        path.push('/');
        path.push_str(&String::from_utf8_lossy(local));
        path.push('[');
        path.push_str(&self.entry_count.to_string());
        path.push(']');
        self.entry = Some(Entry {
            depth: d,
            path,
            loc: None,
            direct: String::new(),
            direct_undefined: None,
            direct_overflow: false,
            hints: Vec::new(),
            exts: Vec::new(),
            group: None,
            counters: [0; 5],
        });
    }

    fn begin_capture(&mut self, field: Field, d: u32, locator: Locator) {
        if self.capture.is_none() {
            self.text.clear();
            self.capture = Some(Capture { field, depth: d, locator, undefined: None, overflow: false });
        }
    }

    fn start_sitemap(&mut self, root: Root, e: &BytesStart<'_>, local: &[u8], prefix: &[u8], d: u32, _empty: bool) {
        let entry_name: &[u8] = if root == Root::Index { b"sitemap" } else { b"url" };
        let Some(entry) = self.entry.as_mut() else {
            if d == 2 && local == entry_name {
                self.begin_entry(local, d);
            }
            return;
        };
        if d == entry.depth + 1 {
            let field = match local {
                b"loc" if prefix.is_empty() || prefix == self.root_prefix.as_slice() => Some(Field::Loc),
                b"lastmod" => Some(Field::Lastmod),
                b"changefreq" if root == Root::Urlset => Some(Field::Changefreq),
                b"priority" if root == Root::Urlset => Some(Field::Priority),
                _ => None,
            };
            if let Some(f) = field {
                let loc = Locator::Xml(format!("{}/{}", entry.path, String::from_utf8_lossy(local)));
                self.begin_capture(f, d, loc);
                return;
            }
            if root != Root::Urlset {
                return;
            }
            match local {
                b"image" => {
                    let n = entry.next(0);
                    entry.group = Some((Group::Image, d, format!("{}/image[{n}]", entry.path)));
                }
                b"video" => {
                    let n = entry.next(1);
                    entry.group = Some((Group::Video, d, format!("{}/video[{n}]", entry.path)));
                }
                b"news" => {
                    let n = entry.next(4);
                    entry.group = Some((Group::News, d, format!("{}/news[{n}]", entry.path)));
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
                        let locator = Locator::Xml(format!("{}/link[{n}]", entry.path));
                        let value = Value { text: href, locator, undefined, overflow: false };
                        entry.exts.push(Ext { relation: Relation::Alternate, value, hints });
                    }
                }
                _ => {}
            }
            return;
        }
        let Some((group, gd, gpath)) = entry.group.as_ref() else {
            return;
        };
        if d != gd + 1 {
            return;
        }
        let field = match (group, local) {
            (Group::Image, b"loc") => Field::ImageLoc,
            (Group::Video, b"thumbnail_loc") => Field::Video("thumbnail_loc"),
            (Group::Video, b"content_loc") => Field::Video("content_loc"),
            (Group::Video, b"player_loc") => Field::Video("player_loc"),
            (Group::Video, b"gallery_loc") => Field::Video("gallery_loc"),
            (Group::News, b"title") => Field::NewsTitle,
            (Group::News, b"publication_date") => Field::NewsDate,
            _ => return,
        };
        let loc = Locator::Xml(format!("{gpath}/{}", String::from_utf8_lossy(local)));
        self.begin_capture(field, d, loc);
    }

    fn start_rss(&mut self, e: &BytesStart<'_>, local: &[u8], prefix: &[u8], d: u32, _empty: bool) {
        let Some(entry) = self.entry.as_mut() else {
            if d >= 2 && local == b"item" {
                self.begin_entry(local, d);
            }
            return;
        };
        if d == entry.depth + 1 && prefix.is_empty() {
            let field = match local {
                b"link" => Some(Field::Link),
                b"pubDate" => Some(Field::FeedDate),
                _ => None,
            };
            if let Some(f) = field {
                let loc = Locator::Xml(format!("{}/{}", entry.path, String::from_utf8_lossy(local)));
                self.begin_capture(f, d, loc);
                return;
            }
        }
        if d == entry.depth + 1
            && local == b"date"
            && !prefix.is_empty()
            && !entry.hints.iter().any(|(k, _)| *k == "lastmod")
        {
            let loc = Locator::Xml(format!("{}/date", entry.path));
            self.begin_capture(Field::FeedDate, d, loc);
            return;
        }
        let (relation, slot, name) = match local {
            b"enclosure" => (Relation::Enclosure, 3, "enclosure"),
            b"content" if !prefix.is_empty() => (Relation::Enclosure, 3, "content"),
            b"thumbnail" if !prefix.is_empty() => (Relation::Image, 0, "thumbnail"),
            _ => return,
        };
        if let Some((url, undefined)) = attr(e, b"url") {
            let n = entry.next(slot);
            let locator = Locator::Xml(format!("{}/{name}[{n}]", entry.path));
            entry.exts.push(Ext {
                relation,
                value: Value { text: url, locator, undefined, overflow: false },
                hints: Vec::new(),
            });
        }
    }

    fn start_atom(&mut self, e: &BytesStart<'_>, local: &[u8], d: u32, _empty: bool) {
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
                let locator = Locator::Xml(format!("{}/link[{n}]", entry.path));
                let value = Value { text: href, locator, undefined, overflow: false };
                match rel.as_deref() {
                    None | Some("alternate") => {
                        if entry.loc.is_none() {
                            entry.loc = Some(value);
                        } else {
                            let mut hints = Vec::new();
                            if let Some((lang, _)) = attr(e, b"hreflang") {
                                hints.push(("hreflang", trim(&lang).to_string()));
                            }
                            entry.exts.push(Ext { relation: Relation::Alternate, value, hints });
                        }
                    }
                    Some("enclosure") => {
                        entry.exts.push(Ext { relation: Relation::Enclosure, value, hints: Vec::new() })
                    }
                    _ => {}
                }
            }
            b"updated" | b"modified" => {
                let loc = Locator::Xml(format!("{}/{}", entry.path, String::from_utf8_lossy(local)));
                self.begin_capture(Field::FeedDate, d, loc);
            }
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
                let loc = c.locator.clone();
                self.em.invalid_utf8(Some(loc));
            }
            return;
        }
        if let Some(entry) = self.entry.as_mut()
            && entry.depth == self.depth
            && entry.loc.is_none()
            && !raw.iter().all(u8::is_ascii_whitespace)
        {
            if entry.direct.len() + raw.len() > max {
                entry.direct_overflow = true;
            } else {
                push_utf8(raw, &mut entry.direct);
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
            (&mut entry.direct, &mut entry.direct_undefined)
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
        let Some(root) = self.root else {
            return;
        };
        let Some(entry) = self.entry.as_mut() else {
            return;
        };
        let text = std::mem::take(&mut self.text);
        let value = Value { text, locator: c.locator, undefined: c.undefined, overflow: c.overflow };
        let hint = |v: &Value| trim(&v.text).to_string();
        match c.field {
            Field::Loc | Field::Link => {
                if entry.loc.is_some() {
                    let msg = format!("a second URL {} in one entry is ignored", shown(&value.text));
                    self.em.warn(codes::MULTIPLE_LOC, msg, Some(value.locator));
                } else {
                    entry.loc = Some(value);
                }
            }
            Field::Lastmod | Field::Changefreq | Field::Priority => {
                let v = hint(&value);
                let (key, ok, code, what) = match c.field {
                    Field::Lastmod => ("lastmod", is_w3c_datetime(&v), codes::INVALID_LASTMOD, "a W3C Datetime"),
                    Field::Changefreq => (
                        "changefreq",
                        is_changefreq(&v),
                        codes::INVALID_CHANGEFREQ,
                        "one of always, hourly, daily, weekly, monthly, yearly, never",
                    ),
                    _ => ("priority", is_priority(&v), codes::INVALID_PRIORITY, "a decimal from 0.0 to 1.0"),
                };
                let _ = root;
                if !ok {
                    self.em.error(code, format!("{key} {} is not {what}", shown(&v)), Some(value.locator));
                }
                if !v.is_empty() {
                    entry.hints.push((key, v));
                }
            }
            Field::FeedDate => {
                let v = hint(&value);
                if !v.is_empty() && !entry.hints.iter().any(|(k, _)| *k == "lastmod") {
                    entry.hints.push(("lastmod", v));
                }
            }
            Field::NewsTitle | Field::NewsDate => {
                let key = if c.field == Field::NewsTitle { "news_title" } else { "news_publication_date" };
                let v = hint(&value);
                if !v.is_empty() {
                    entry.hints.push((key, v));
                }
            }
            Field::ImageLoc => entry.exts.push(Ext { relation: Relation::Image, value, hints: Vec::new() }),
            Field::Video(which) => entry.exts.push(Ext {
                relation: Relation::Video,
                value,
                hints: vec![("video_field", which.to_string())],
            }),
        }
    }

    fn finish_entry(&mut self) {
        let Some(entry) = self.entry.take() else {
            return;
        };
        self.em.entries += 1;
        let relation = if self.root == Some(Root::Index) { Relation::Child } else { Relation::Loc };
        let base = (self.root == Some(Root::Atom)).then_some(&self.base);
        let Entry { path, loc, direct, direct_undefined, direct_overflow, hints, exts, .. } = entry;
        let value = loc.or_else(|| {
            (!trim(&direct).is_empty() || direct_overflow).then(|| Value {
                text: direct,
                locator: Locator::Xml(path.clone()),
                undefined: direct_undefined,
                overflow: direct_overflow,
            })
        });
        match value {
            Some(v) => self.em.value(relation, v, hints, base),
            None => {
                let what = match self.root {
                    Some(Root::Rss) => "item without <link>",
                    Some(Root::Atom) => "entry without an alternate <link>",
                    _ => "entry without <loc>",
                };
                self.em.error(codes::MISSING_LOC, what, Some(Locator::Xml(path)));
            }
        }
        for ext in exts {
            self.em.value(ext.relation, ext.value, ext.hints, base);
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
