//! [`Candidates`]: the candidates of one report, packed.
//!
//! A document can declare tens of thousands of relations (a sitemap 50,000 URLs with their images,
//! a large robots.txt 38,000 rules). Holding each as an owned [`Candidate`] costs about eight heap
//! blocks per candidate (relation, value, locator, a `BTreeMap` node and its keys and values), and
//! allocating and freeing them dominated interpretation. `Candidates` keeps every string a list owns
//! back to back in one text buffer (constant strings too: relation names, hint keys and flags are
//! copied like any other string; an address-keyed cache that stored each constant once per list
//! saved 1.14x of `parse sitemap`'s time and 4 % of its memory, under the 1.3x bar for a second
//! path: `docs/benchmarks.md`, "One parser per format"), and per candidate one fixed-size item:
//! pushing a candidate copies bytes and allocates nothing once the buffers have grown.
//!
//! Reading goes through [`CandidateRef`], a borrowed view with the fields of a [`Candidate`];
//! [`CandidateRef::to_candidate`] gives the owned form. Serialised as a JSON array of candidate
//! objects, exactly as `Vec<Candidate>` serialises.
//!
//! INVARIANT: an item's spans always lie inside `text` and its hint and flag ranges inside `hints`
//! and `flags` (everything is appended, never removed, so a range once valid stays valid). Readers
//! still go through checked accessors and yield empty strings rather than panic.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::Deserializer;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::candidate::{Candidate, CandidateKind};
use crate::diag::Locator;

/// A string of a list: a byte range of the list's text.
#[derive(Debug, Clone, Copy, Default)]
struct Text {
    start: u32,
    len: u32,
}

/// Most bytes of strings one list holds (its offsets are `u32`).
pub const MAX_TEXT_BYTES: usize = u32::MAX as usize;

/// A locator, its string (JSON pointer, XML path) in the list's text.
#[derive(Debug, Clone, Copy)]
enum Loc {
    None,
    Line(u32),
    /// A byte offset as two halves (low, high): no `u64` field, so an item is 48 bytes, not 56.
    Byte(u32, u32),
    Redirect(u32),
    JsonPointer(Text),
    Xml(Text),
}

/// One candidate: fixed size, strings by reference.
#[derive(Debug, Clone, Copy)]
struct Item {
    kind: CandidateKind,
    relation: Text,
    value: Text,
    locator: Loc,
    /// `hints[start..end]`, sorted by key, keys unique.
    hints: (u32, u32),
    /// `flags[start..end]`, unique, in the order added.
    flags: (u32, u32),
}

/// The candidates of one report, in document order, packed (see the module docs).
///
/// Build with [`Candidates::push`] (an owned [`Candidate`]) or [`Candidates::start`] (no allocation
/// per candidate); read with [`Candidates::iter`] and [`Candidates::get`].
#[derive(Clone, Default)]
pub struct Candidates {
    text: String,
    items: Vec<Item>,
    hints: Vec<(Text, Text)>,
    flags: Vec<Text>,
    dropped: u64,
}

/// A borrowed candidate of a [`Candidates`] list: the fields of a [`Candidate`] through accessors.
#[derive(Clone, Copy)]
pub struct CandidateRef<'a> {
    list: &'a Candidates,
    item: &'a Item,
}

/// Adds to the candidate just started by [`Candidates::start`]: locator, hints, flags.
pub struct CandidateBuilder<'a> {
    list: &'a mut Candidates,
    /// False when the list was full and the candidate was not stored.
    active: bool,
}

impl Candidates {
    /// An empty list.
    pub fn new() -> Self {
        Candidates::default()
    }

    /// An empty list with room for `items` candidates (and as many hints) and `text` bytes of
    /// strings.
    pub fn with_capacity(items: usize, text: usize) -> Self {
        Candidates {
            text: String::with_capacity(text.min(MAX_TEXT_BYTES)),
            items: Vec::with_capacity(items),
            hints: Vec::with_capacity(items),
            ..Candidates::default()
        }
    }

    /// Number of candidates.
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there is no candidate.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Candidates not stored because the list already held [`MAX_TEXT_BYTES`] of strings (or
    /// `u32::MAX` hints or flags). Documents are capped far below that; 0 in practice.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The candidate at `index` (0-based, document order).
    #[inline]
    pub fn get(&self, index: usize) -> Option<CandidateRef<'_>> {
        self.items.get(index).map(|item| CandidateRef { list: self, item })
    }

    /// The first candidate.
    pub fn first(&self) -> Option<CandidateRef<'_>> {
        self.get(0)
    }

    /// The last candidate.
    pub fn last(&self) -> Option<CandidateRef<'_>> {
        self.items.last().map(|item| CandidateRef { list: self, item })
    }

    /// The candidates in document order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { list: self, items: self.items.iter() }
    }

    /// The owned candidates, in order (allocates each).
    pub fn to_vec(&self) -> Vec<Candidate> {
        self.iter().map(|c| c.to_candidate()).collect()
    }

    /// True when `more` bytes of strings and one more hint and flag still fit.
    #[inline]
    fn fits(&self, more: usize) -> bool {
        self.text.len().saturating_add(more) <= MAX_TEXT_BYTES
            && self.hints.len() < u32::MAX as usize
            && self.flags.len() < u32::MAX as usize
    }

    /// Appends an owned candidate (its strings are copied in; hints keep their key order, a repeated
    /// flag is kept once).
    pub fn push(&mut self, c: Candidate) {
        let strings = c.relation.len()
            + c.value.len()
            + c.hints.iter().map(|(k, v)| k.len() + v.len()).sum::<usize>()
            + c.flags.iter().map(String::len).sum::<usize>()
            + match &c.locator {
                Some(Locator::JsonPointer(p) | Locator::Xml(p)) => p.len(),
                _ => 0,
            };
        if !self.fits(strings) || self.hints.len().saturating_add(c.hints.len()) >= u32::MAX as usize {
            self.dropped += 1;
            return;
        }
        let relation = self.own(&c.relation);
        let value = self.own(&c.value);
        let locator = self.own_locator(c.locator.as_ref());
        let hints_start = index(self.hints.len());
        for (k, v) in &c.hints {
            let pair = (self.own(k), self.own(v));
            self.hints.push(pair);
        }
        let flags_start = index(self.flags.len());
        for f in &c.flags {
            let added = self.flags.get(flags_start as usize..).unwrap_or_default();
            if !added.iter().any(|t| text_of(&self.text, *t) == f) {
                let t = self.own(f);
                self.flags.push(t);
            }
        }
        self.items.push(Item {
            kind: c.kind,
            relation,
            value,
            locator,
            hints: (hints_start, index(self.hints.len())),
            flags: (flags_start, index(self.flags.len())),
        });
    }

    /// Starts a candidate `relation --> value` of `kind` with no locator, hints or flags, and returns
    /// a builder to add them. Allocates nothing once the list's buffers have grown: the path for
    /// documents that declare many candidates. On a full list (see [`Candidates::dropped`]) the
    /// candidate is not stored and the builder does nothing.
    #[inline]
    pub fn start(&mut self, kind: CandidateKind, relation: &'static str, value: &str) -> CandidateBuilder<'_> {
        // Room for the value, the relation, an XML path and a few hints.
        if !self.fits(value.len() + relation.len() + 4096) {
            self.dropped += 1;
            return CandidateBuilder { list: self, active: false };
        }
        let relation = self.own(relation);
        let value = self.own(value);
        let (h, f) = (index(self.hints.len()), index(self.flags.len()));
        self.items.push(Item { kind, relation, value, locator: Loc::None, hints: (h, h), flags: (f, f) });
        CandidateBuilder { list: self, active: true }
    }

    /// Adds `flag` to candidate `index` (nothing when it already has it or there is no such
    /// candidate).
    pub fn add_flag(&mut self, index: usize, flag: &str) {
        let Some(item) = self.items.get(index).copied() else {
            return;
        };
        if self.get(index).is_some_and(|c| c.has_flag(flag)) || !self.fits(flag.len()) {
            return;
        }
        let (start, end) = (item.flags.0 as usize, item.flags.1 as usize);
        let new_start = if end == self.flags.len() {
            start
        } else {
            // Not the newest range: copied to the end, where it can grow.
            let moved: Vec<Text> = self.flags.get(start..end).unwrap_or_default().to_vec();
            let s = self.flags.len();
            self.flags.extend(moved);
            s
        };
        let t = self.own(flag);
        self.flags.push(t);
        let range = (self::index(new_start), self::index(self.flags.len()));
        if let Some(it) = self.items.get_mut(index) {
            it.flags = range;
        }
    }

    /// Sets hint `key` of candidate `index` to `value` (replacing a hint with that key).
    pub fn set_hint(&mut self, index: usize, key: &str, value: &str) {
        let Some(c) = self.get(index) else {
            return;
        };
        let mut pairs: Vec<(String, String)> =
            c.hints().filter(|(k, _)| *k != key).map(|(k, v)| (k.to_string(), v.to_string())).collect();
        pairs.push((key.to_string(), value.to_string()));
        pairs.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let bytes = pairs.iter().map(|(k, v)| k.len() + v.len()).sum();
        if !self.fits(bytes) || self.hints.len().saturating_add(pairs.len()) >= u32::MAX as usize {
            return;
        }
        let start = self::index(self.hints.len());
        for (k, v) in &pairs {
            let pair = (self.own(k), self.own(v));
            self.hints.push(pair);
        }
        let range = (start, self::index(self.hints.len()));
        if let Some(it) = self.items.get_mut(index) {
            it.hints = range;
        }
    }

    /// Keeps only the candidates for which `keep` is true (their strings stay in the buffer).
    pub fn retain(&mut self, mut keep: impl FnMut(CandidateRef<'_>) -> bool) {
        let keep: Vec<bool> = self.iter().map(&mut keep).collect();
        let mut i = 0;
        self.items.retain(|_| {
            let k = keep.get(i).copied().unwrap_or(true);
            i += 1;
            k
        });
    }

    /// Copies `s` into the text. Callers checked [`Candidates::fits`] first.
    #[inline]
    fn own(&mut self, s: &str) -> Text {
        let start = index(self.text.len());
        self.text.push_str(s);
        Text { start, len: index(s.len()) }
    }

    fn own_locator(&mut self, l: Option<&Locator>) -> Loc {
        match l {
            None => Loc::None,
            Some(Locator::Line(n)) => Loc::Line(*n),
            Some(Locator::Byte(b)) => Loc::Byte(*b as u32, (*b >> 32) as u32),
            Some(Locator::Redirect(h)) => Loc::Redirect(*h),
            Some(Locator::JsonPointer(p)) => Loc::JsonPointer(self.own(p)),
            Some(Locator::Xml(p)) => Loc::Xml(self.own(p)),
        }
    }

    #[inline]
    fn str(&self, t: Text) -> &str {
        text_of(&self.text, t)
    }
}

/// `n` as an offset; callers keep every length under `u32::MAX` ([`Candidates::fits`]).
#[inline]
fn index(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The string of `t` over `text` (a free function so it can borrow `text` alone).
#[inline]
fn text_of(text: &str, t: Text) -> &str {
    let start = t.start as usize;
    text.get(start..start + t.len as usize).unwrap_or_default()
}

impl CandidateBuilder<'_> {
    fn item(&mut self) -> Option<&mut Item> {
        if self.active { self.list.items.last_mut() } else { None }
    }

    /// Sets the locator.
    pub fn locator(&mut self, locator: Option<&Locator>) -> &mut Self {
        if self.active {
            let l = self.list.own_locator(locator);
            if let Some(it) = self.item() {
                it.locator = l;
            }
        }
        self
    }

    /// Sets an XML element path locator (`/urlset/url[2]/loc`) that `write` appends to the string it
    /// is given, without building a `String` of its own.
    #[inline]
    pub fn xml_locator(&mut self, write: impl FnOnce(&mut String)) -> &mut Self {
        if self.active {
            let start = self.list.text.len();
            write(&mut self.list.text);
            let t = Text { start: index(start), len: index(self.list.text.len().saturating_sub(start)) };
            if let Some(it) = self.item() {
                it.locator = Loc::Xml(t);
            }
        }
        self
    }

    /// Adds hint `key` = `value` (a later value for the same key replaces the earlier one).
    #[inline]
    pub fn hint(&mut self, key: &'static str, value: &str) -> &mut Self {
        if !self.active || !self.list.fits(key.len() + value.len()) {
            return self;
        }
        let v = self.list.own(value);
        let Some((start, end)) = self.list.items.last().map(|it| (it.hints.0 as usize, it.hints.1 as usize)) else {
            return self;
        };
        let list = &mut *self.list;
        let range = list.hints.get(start..end).unwrap_or_default();
        let sorted_after = range.last().is_none_or(|(k, _)| text_of(&list.text, *k) < key);
        if sorted_after {
            // The usual case: a new key after the others.
            let k = list.own(key);
            list.hints.push((k, v));
            if let Some(it) = list.items.last_mut() {
                it.hints.1 = index(end + 1);
            }
            return self;
        }
        match range.binary_search_by(|(k, _)| text_of(&list.text, *k).cmp(key)) {
            Ok(i) => {
                if let Some(pair) = list.hints.get_mut(start + i) {
                    pair.1 = v;
                }
            }
            Err(i) => {
                let k = list.own(key);
                // The builder's candidate is the newest, so its range ends the vector.
                list.hints.insert(start + i, (k, v));
                if let Some(it) = list.items.last_mut() {
                    it.hints.1 = index(end + 1);
                }
            }
        }
        self
    }

    /// Adds `flag` (once).
    #[inline]
    pub fn flag(&mut self, flag: &'static str) -> &mut Self {
        if !self.active || !self.list.fits(flag.len()) {
            return self;
        }
        let Some((start, end)) = self.list.items.last().map(|it| (it.flags.0 as usize, it.flags.1 as usize)) else {
            return self;
        };
        let list = &mut *self.list;
        if list.flags.get(start..end).unwrap_or_default().iter().any(|t| text_of(&list.text, *t) == flag) {
            return self;
        }
        let t = list.own(flag);
        list.flags.push(t);
        if let Some(it) = list.items.last_mut() {
            it.flags.1 = index(end + 1);
        }
        self
    }
}

impl<'a> CandidateRef<'a> {
    /// What the value is.
    pub fn kind(&self) -> CandidateKind {
        self.item.kind
    }

    /// The relation's name (`sitemap_loc`, `robots_disallow`, `token_endpoint`, ...).
    #[inline]
    pub fn relation(&self) -> &'a str {
        self.list.str(self.item.relation)
    }

    /// The normalised value.
    #[inline]
    pub fn value(&self) -> &'a str {
        self.list.str(self.item.value)
    }

    /// Where in the document the relation is declared (owned; allocates for a JSON pointer or an
    /// XML path).
    pub fn locator(&self) -> Option<Locator> {
        match self.item.locator {
            Loc::None => None,
            Loc::Line(n) => Some(Locator::Line(n)),
            Loc::Byte(lo, hi) => Some(Locator::Byte(u64::from(hi) << 32 | u64::from(lo))),
            Loc::Redirect(h) => Some(Locator::Redirect(h)),
            Loc::JsonPointer(t) => Some(Locator::JsonPointer(self.list.str(t).to_string())),
            Loc::Xml(t) => Some(Locator::Xml(self.list.str(t).to_string())),
        }
    }

    /// The declared hints `(key, value)`, sorted by key.
    pub fn hints(&self) -> impl ExactSizeIterator<Item = (&'a str, &'a str)> + 'a {
        let list = self.list;
        let (s, e) = (self.item.hints.0 as usize, self.item.hints.1 as usize);
        list.hints.get(s..e).unwrap_or_default().iter().map(move |&(k, v)| (list.str(k), list.str(v)))
    }

    /// The value of hint `key`, if declared.
    pub fn hint(&self, key: &str) -> Option<&'a str> {
        self.hints().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The flags, in the order added.
    pub fn flags(&self) -> impl ExactSizeIterator<Item = &'a str> + 'a {
        let list = self.list;
        let (s, e) = (self.item.flags.0 as usize, self.item.flags.1 as usize);
        list.flags.get(s..e).unwrap_or_default().iter().map(move |&t| list.str(t))
    }

    /// True when the candidate carries `flag`.
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags().any(|f| f == flag)
    }

    /// The owned form.
    pub fn to_candidate(&self) -> Candidate {
        Candidate {
            kind: self.kind(),
            relation: self.relation().to_string(),
            value: self.value().to_string(),
            locator: self.locator(),
            hints: self.hints().map(|(k, v)| (k.to_string(), v.to_string())).collect::<BTreeMap<_, _>>(),
            flags: self.flags().map(str::to_string).collect(),
        }
    }

    fn serialize_locator<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        /// `{"line": 3}` and the other externally tagged forms of [`Locator`], borrowed.
        struct Tagged<'b, T: Serialize>(&'b str, T);
        impl<T: Serialize> Serialize for Tagged<'_, T> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry(self.0, &self.1)?;
                m.end()
            }
        }
        match self.item.locator {
            Loc::None => s.serialize_none(),
            Loc::Line(n) => Tagged("line", n).serialize(s),
            Loc::Byte(lo, hi) => Tagged("byte", u64::from(hi) << 32 | u64::from(lo)).serialize(s),
            Loc::Redirect(h) => Tagged("redirect", h).serialize(s),
            Loc::JsonPointer(t) => Tagged("json_pointer", self.list.str(t)).serialize(s),
            Loc::Xml(t) => Tagged("xml", self.list.str(t)).serialize(s),
        }
    }
}

impl Serialize for CandidateRef<'_> {
    /// The same object as [`Candidate`]'s: `kind`, `relation`, `value`, `locator`, then `hints` and
    /// `flags` when non-empty.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Locator<'b, 'a>(&'b CandidateRef<'a>);
        impl Serialize for Locator<'_, '_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                self.0.serialize_locator(s)
            }
        }
        struct Hints<'b, 'a>(&'b CandidateRef<'a>);
        impl Serialize for Hints<'_, '_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.hints().len()))?;
                for (k, v) in self.0.hints() {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        struct Flags<'b, 'a>(&'b CandidateRef<'a>);
        impl Serialize for Flags<'_, '_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.flags())
            }
        }
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("kind", &self.kind())?;
        m.serialize_entry("relation", self.relation())?;
        m.serialize_entry("value", self.value())?;
        m.serialize_entry("locator", &Locator(self))?;
        if self.hints().len() > 0 {
            m.serialize_entry("hints", &Hints(self))?;
        }
        if self.flags().len() > 0 {
            m.serialize_entry("flags", &Flags(self))?;
        }
        m.end()
    }
}

impl fmt::Debug for CandidateRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Candidate")
            .field("kind", &self.kind())
            .field("relation", &self.relation())
            .field("value", &self.value())
            .field("locator", &self.locator())
            .field("hints", &self.hints().collect::<Vec<_>>())
            .field("flags", &self.flags().collect::<Vec<_>>())
            .finish()
    }
}

impl PartialEq for CandidateRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.kind() == other.kind()
            && self.relation() == other.relation()
            && self.value() == other.value()
            && self.locator() == other.locator()
            && self.hints().eq(other.hints())
            && self.flags().eq(other.flags())
    }
}

impl PartialEq<Candidate> for CandidateRef<'_> {
    fn eq(&self, other: &Candidate) -> bool {
        self.kind() == other.kind
            && self.relation() == other.relation
            && self.value() == other.value
            && self.locator() == other.locator
            && self.hints().eq(other.hints.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            && self.flags().eq(other.flags.iter().map(String::as_str))
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Candidates {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Serialize for Candidates {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for c in self.iter() {
            seq.serialize_element(&c)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Candidates {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<Candidate>::deserialize(d)?.into_iter().collect())
    }
}

impl FromIterator<Candidate> for Candidates {
    fn from_iter<I: IntoIterator<Item = Candidate>>(iter: I) -> Self {
        let mut list = Candidates::new();
        list.extend(iter);
        list
    }
}

impl Extend<Candidate> for Candidates {
    fn extend<I: IntoIterator<Item = Candidate>>(&mut self, iter: I) {
        for c in iter {
            self.push(c);
        }
    }
}

impl From<Vec<Candidate>> for Candidates {
    fn from(v: Vec<Candidate>) -> Self {
        v.into_iter().collect()
    }
}

/// The candidates of a [`Candidates`] list in document order ([`Candidates::iter`]).
#[derive(Clone)]
pub struct Iter<'a> {
    list: &'a Candidates,
    items: std::slice::Iter<'a, Item>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = CandidateRef<'a>;

    fn next(&mut self) -> Option<CandidateRef<'a>> {
        let list = self.list;
        self.items.next().map(|item| CandidateRef { list, item })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.items.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let list = self.list;
        self.items.next_back().map(|item| CandidateRef { list, item })
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Candidates {
    type Item = CandidateRef<'a>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn sample() -> Vec<Candidate> {
        vec![
            Candidate::new(CandidateKind::Url, "robots_disallow", "https://a.example/x", Some(Locator::Line(3)))
                .with_hint("group", "*")
                .with_hint("crawl_delay", "5")
                .with_flag("excluded"),
            Candidate::new(CandidateKind::Endpoint, "token_endpoint", "https://a.example/t", None),
            Candidate::new(CandidateKind::Key, "jwks", "sha256:AB", Some(Locator::JsonPointer("/keys/0".into()))),
            Candidate::new(CandidateKind::Sitemap, "sitemap_child", "https://a.example/s.xml", None)
                .with_flag("out_of_location")
                .with_flag("out_of_location"),
        ]
    }

    #[test]
    fn owned_candidates_round_trip_and_serialise_the_same() {
        let owned = sample();
        let list = Candidates::from(owned.clone());
        assert_eq!(list.len(), 4);
        assert_eq!(list.to_vec(), owned);
        assert_eq!(serde_json::to_value(&list).unwrap(), serde_json::to_value(&owned).unwrap());
        let first = list.first().unwrap();
        assert_eq!(
            (first.kind(), first.relation(), first.value()),
            (CandidateKind::Url, "robots_disallow", "https://a.example/x")
        );
        assert_eq!(first.hints().collect::<Vec<_>>(), [("crawl_delay", "5"), ("group", "*")]);
        assert_eq!(first.hint("group"), Some("*"));
        assert!(first.has_flag("excluded") && !first.has_flag("x"));
        assert_eq!(list.last().unwrap().flags().collect::<Vec<_>>(), ["out_of_location"]);
        let back: Candidates = serde_json::from_value(serde_json::to_value(&list).unwrap()).unwrap();
        assert_eq!(back, list);
        assert_eq!(list.get(2).unwrap(), owned[2]);
        assert!(list.get(4).is_none());
        assert_eq!(list.dropped(), 0);
    }

    #[test]
    fn builder_sorts_and_replaces_hints_and_keeps_flags_once() {
        let mut list = Candidates::new();
        let mut b = list.start(CandidateKind::Url, "sitemap_loc", "https://a.example/1");
        b.xml_locator(|s| s.push_str("/urlset/url[1]/loc"));
        b.hint("lastmod", "2024").hint("changefreq", "daily").hint("priority", "0.5").hint("lastmod", "2025");
        b.flag("out_of_location").flag("out_of_location");
        list.start(CandidateKind::Url, "sitemap_loc", "https://a.example/2").locator(Some(&Locator::Line(7)));
        let want = vec![
            Candidate::new(
                CandidateKind::Url,
                "sitemap_loc",
                "https://a.example/1",
                Some(Locator::Xml("/urlset/url[1]/loc".into())),
            )
            .with_hint("lastmod", "2025")
            .with_hint("changefreq", "daily")
            .with_hint("priority", "0.5")
            .with_flag("out_of_location"),
            Candidate::new(CandidateKind::Url, "sitemap_loc", "https://a.example/2", Some(Locator::Line(7))),
        ];
        assert_eq!(list.to_vec(), want);
        assert_eq!(serde_json::to_value(&list).unwrap(), serde_json::to_value(&want).unwrap());
    }

    #[test]
    fn earlier_candidates_take_flags_and_hints_without_touching_others() {
        let mut list = Candidates::from(sample());
        list.add_flag(1, "unreliable_status");
        list.add_flag(1, "unreliable_status");
        list.add_flag(0, "unreliable_status");
        list.set_hint(0, "group", "GPTBot");
        list.set_hint(1, "final_status", "200");
        list.add_flag(9, "nothing");
        list.set_hint(9, "nothing", "");
        let got = list.to_vec();
        let mut want = sample();
        want[0] = want[0].clone().with_flag("unreliable_status").with_hint("group", "GPTBot");
        want[1] = want[1].clone().with_flag("unreliable_status").with_hint("final_status", "200");
        assert_eq!(got, want);
        list.retain(|c| c.kind() != CandidateKind::Endpoint);
        assert_eq!(
            list.iter().map(|c| c.value()).collect::<Vec<_>>(),
            ["https://a.example/x", "sha256:AB", "https://a.example/s.xml"]
        );
        assert_eq!(list.get(0).unwrap().to_candidate(), want[0]);
    }

    #[test]
    fn an_item_is_48_bytes() {
        assert_eq!(size_of::<Item>(), 48);
        let mut list = Candidates::new();
        list.start(CandidateKind::Url, "r", "v").locator(Some(&Locator::Byte(u64::MAX - 5)));
        assert_eq!(list.last().unwrap().locator(), Some(Locator::Byte(u64::MAX - 5)));
    }

    #[test]
    fn many_constants_read_back_exactly() {
        const NAMES: [&str; 40] = [
            "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "ra", "rb", "rc", "rd", "re", "rf", "rg", "rh",
            "ri", "rj", "rk", "rl", "rm", "rn", "ro", "rp", "rq", "rr", "rs", "rt", "ru", "rv", "rw", "rx", "ry", "rz",
            "r_", "r-", "r.", "r~",
        ];
        let mut list = Candidates::new();
        for i in 0..400 {
            let name = NAMES[i * 7 % NAMES.len()];
            list.start(CandidateKind::Url, name, "v").hint(NAMES[i % NAMES.len()], name).flag(name);
        }
        for (i, c) in list.iter().enumerate() {
            let name = NAMES[i * 7 % NAMES.len()];
            assert_eq!(c.relation(), name);
            assert_eq!(c.hint(NAMES[i % NAMES.len()]), Some(name));
            assert_eq!(c.flags().collect::<Vec<_>>(), [name]);
        }
    }

    fn candidate() -> impl Strategy<Value = Candidate> {
        let word = "[a-z_]{0,6}";
        let locator = prop_oneof![
            Just(None),
            any::<u32>().prop_map(|n| Some(Locator::Line(n))),
            any::<u64>().prop_map(|n| Some(Locator::Byte(n))),
            any::<u32>().prop_map(|n| Some(Locator::Redirect(n))),
            ".{0,8}".prop_map(|p| Some(Locator::JsonPointer(p))),
            ".{0,8}".prop_map(|p| Some(Locator::Xml(p))),
        ];
        (
            0..CandidateKind::ALL.len(),
            word,
            ".{0,12}",
            locator,
            prop::collection::btree_map(word, ".{0,5}", 0..4),
            prop::collection::vec(word, 0..3),
        )
            .prop_map(|(k, relation, value, locator, hints, flags)| {
                let mut c = Candidate::new(CandidateKind::ALL[k], relation, value, locator);
                c.hints = hints;
                for f in flags {
                    c = c.with_flag(f);
                }
                c
            })
    }

    proptest! {
        #[test]
        fn any_candidates_round_trip(owned in prop::collection::vec(candidate(), 0..12)) {
            let list: Candidates = owned.iter().cloned().collect();
            prop_assert_eq!(list.to_vec(), owned.clone());
            prop_assert_eq!(serde_json::to_string(&list).unwrap(), serde_json::to_string(&owned).unwrap());
            for (i, c) in owned.iter().enumerate() {
                prop_assert!(list.get(i).unwrap() == *c);
            }
        }
    }
}
