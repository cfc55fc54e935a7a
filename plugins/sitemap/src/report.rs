//! Turns the parser's stream into a [`Report`]: candidates deduplicated within the file, follow-ups
//! for in-location child sitemaps, diagnostics capped per code, facts.
//!
//! The bookkeeping both report writers share (the per-file deduplication table, the per-code cap and
//! the facts) lives here too; `crate::stream` writes the same report as JSON while parsing.

use std::hash::BuildHasher;

use foldhash::quality::RandomState;
use std::ops::ControlFlow;

use wellknown_core::{CandidateKind, Diagnostic, Report};

use crate::codes;
use crate::model::{Found, Relation, Summary, Visitor};

/// A [`Visitor`] that builds the report of one file.
///
/// Deduplication is per file and per relation (the same URL as a page and as an hreflang alternate is
/// two claims); the first occurrence wins (its hints and locator are kept). Deduplication across the
/// files of a scan is the engine's job: evidence accumulates there.
pub struct ReportBuilder {
    report: Report,
    seen: Seen,
    tally: Tally,
}

/// The per-file set of `(relation, URL)` already reported: an open-addressing table (linear probing)
/// whose slots hold the high 32 bits of a keyed hash (foldhash's quality variant with a per-table
/// random seed, which a document cannot observe, so crafted URLs cannot collide on purpose; a third
/// of SipHash's cost on URLs) and the index of the first occurrence in the caller's store, which
/// the caller compares: exact, whatever the hash does.
///
/// Most URLs are new, and a new URL's probe would miss the cache in a table of megabytes: probes read
/// a parallel array of 8-bit fingerprints instead (an eighth of the size: 64 KiB for 32,768 URLs,
/// which stays in cache while the document streams through), and the slot itself is only read when
/// its fingerprint matches (one probe in 128 otherwise; written, not read, when the URL is new).
pub(crate) struct Seen {
    /// 8-bit fingerprints of the slots' tags; 0 is empty.
    prints: Vec<u8>,
    /// `tag << 32 | (index + 1)`. The slot of a tag is `tag & mask`, so the table can grow without
    /// the values.
    slots: Vec<u64>,
    len: usize,
    hasher: RandomState,
}

/// The fingerprint of a tag: 7 of its high bits, never 0.
fn print_of(tag: u64) -> u8 {
    ((tag >> 24) as u8) | 1
}

/// The most values the deduplication table is sized for up front: beyond, it grows as values come
/// (rehashing is cheaper than probing a table sized for a guess that large bodies overshoot: a table
/// that outgrows the cache misses on every new URL).
const SEEN_START: usize = 131_072;

/// The most candidates a report reserves room for up front (see [`ReportBuilder::with_capacity`]).
const ROOM_MAX: usize = 250_000;

/// How many values a body of `len` bytes probably declares (one per 128 bytes: real sitemaps spend
/// 100 to 1,000 bytes per URL), capped at the hard cap on values: a first capacity for tables that
/// would otherwise grow many times.
pub(crate) fn expected_values(len: usize, limits: &crate::Limits) -> usize {
    (len / 128).min(usize::try_from(limits.hard_cap_values).unwrap_or(usize::MAX))
}

impl Seen {
    pub(crate) fn new() -> Self {
        Seen::with_capacity(0)
    }

    /// A table with room for `n` values.
    pub(crate) fn with_capacity(n: usize) -> Self {
        let slots = n.saturating_mul(2).max(16).next_power_of_two();
        Seen { prints: vec![0; slots], slots: vec![0; slots], len: 0, hasher: RandomState::default() }
    }

    /// Looks `(relation, url)` up; `is_same(i)` says whether stored entry `i` is that pair. Returns
    /// the index of the first occurrence when it is a repeat, else records `index` for it and returns
    /// `None`.
    pub(crate) fn check(
        &mut self,
        relation: Relation,
        url: &str,
        index: u32,
        is_same: impl Fn(u32) -> bool,
    ) -> Option<u32> {
        if (self.len + 1) * 2 > self.prints.len() {
            self.grow();
        }
        let tag = self.hasher.hash_one((relation, url)) >> 32;
        let print = print_of(tag);
        let mask = self.prints.len() - 1;
        let mut i = tag as usize & mask;
        loop {
            let p = *self.prints.get(i)?;
            if p == 0 {
                if let (Some(p), Some(s)) = (self.prints.get_mut(i), self.slots.get_mut(i)) {
                    *p = print;
                    *s = tag << 32 | (u64::from(index) + 1);
                }
                self.len += 1;
                return None;
            }
            if p == print {
                let slot = self.slots.get(i).copied().unwrap_or(0);
                if slot >> 32 == tag {
                    let j = (slot & 0xffff_ffff).saturating_sub(1) as u32;
                    if is_same(j) {
                        return Some(j);
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table, placing every slot again by its tag.
    fn grow(&mut self) {
        let size = self.prints.len() * 2;
        let mut prints = vec![0u8; size];
        let mut slots = vec![0u64; size];
        let mask = size - 1;
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let tag = slot >> 32;
            let mut i = tag as usize & mask;
            while let Some(p) = prints.get_mut(i) {
                if *p == 0 {
                    *p = print_of(tag);
                    if let Some(s) = slots.get_mut(i) {
                        *s = slot;
                    }
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        self.prints = prints;
        self.slots = slots;
    }
}

/// The address and length of a `&'static str`.
type StaticKey = (usize, usize);

/// Counts shared by the report writers: diagnostics per code (for the cap), repeats, out-of-location
/// URLs.
pub(crate) struct Tally {
    max_per_code: u32,
    /// Codes seen (with the address and length of the constant, once seen) and how often: a handful
    /// of codes, so a short list beats a map.
    per_code: Vec<(String, Option<StaticKey>, u64)>,
    /// Repeated page or child URLs (the primary URL of an entry).
    pub duplicates: u64,
    /// Repeated image, video, news or alternate URLs (per relation).
    pub duplicate_extensions: u64,
    pub out_of_location: u64,
}

impl Tally {
    pub(crate) fn new(max_per_code: u32) -> Self {
        Tally { max_per_code, per_code: Vec::new(), duplicates: 0, duplicate_extensions: 0, out_of_location: 0 }
    }

    /// Counts one repeated URL of `relation`.
    pub(crate) fn repeat(&mut self, relation: Relation) {
        if relation.is_primary() {
            self.duplicates += 1;
        } else {
            self.duplicate_extensions += 1;
        }
    }

    /// Counts a diagnostic with `code`; true while the code is under the cap.
    pub(crate) fn wants(&mut self, code: &str) -> bool {
        self.count(code, None)
    }

    /// [`Tally::wants`] for the crate's constant codes: found by address before comparing bytes
    /// (a `&'static str` is never freed, so the same address and length is the same code).
    pub(crate) fn wants_static(&mut self, code: &'static str) -> bool {
        let key = (code.as_ptr() as usize, code.len());
        match self.per_code.iter().position(|c| c.1 == Some(key)) {
            Some(i) => self.bump(i),
            None => self.count(code, Some(key)),
        }
    }

    fn count(&mut self, code: &str, key: Option<StaticKey>) -> bool {
        let i = match self.per_code.iter_mut().position(|c| c.0 == code) {
            Some(i) => {
                if let Some(c) = self.per_code.get_mut(i)
                    && c.1.is_none()
                {
                    c.1 = key;
                }
                i
            }
            None => {
                self.per_code.push((code.to_string(), key, 0));
                self.per_code.len() - 1
            }
        };
        self.bump(i)
    }

    fn bump(&mut self, i: usize) -> bool {
        let Some((_, _, n)) = self.per_code.get_mut(i) else {
            return false;
        };
        *n += 1;
        *n <= u64::from(self.max_per_code)
    }

    /// The report's facts: `format`, `compression`, `encoding` (when something was decoded),
    /// `uncompressed_bytes`, `entries`,
    /// `urls`, and when non-zero `duplicates`, `duplicate_extensions`, `out_of_location`, `incomplete`,
    /// `suppressed_diagnostics`.
    pub(crate) fn facts(&self, summary: &Summary) -> serde_json::Map<String, serde_json::Value> {
        let mut f = serde_json::Map::new();
        let mut fact = |k: &str, v: serde_json::Value| {
            f.insert(k.to_string(), v);
        };
        fact("format", summary.format.as_str().into());
        if !summary.layers.is_empty() {
            fact("compression", summary.layers.iter().map(|l| serde_json::Value::from(*l)).collect());
        }
        if let Some(encoding) = summary.encoding {
            fact("encoding", encoding.into());
        }
        fact("uncompressed_bytes", summary.bytes.into());
        fact("entries", summary.entries.into());
        fact("urls", summary.urls.into());
        if self.duplicates > 0 {
            fact("duplicates", self.duplicates.into());
        }
        if self.duplicate_extensions > 0 {
            fact("duplicate_extensions", self.duplicate_extensions.into());
        }
        if self.out_of_location > 0 {
            fact("out_of_location", self.out_of_location.into());
        }
        if summary.incomplete {
            fact("incomplete", true.into());
        }
        let max = u64::from(self.max_per_code);
        let mut suppressed: Vec<(&str, u64)> =
            self.per_code.iter().filter(|(_, _, n)| *n > max).map(|(c, _, n)| (c.as_str(), n - max)).collect();
        suppressed.sort_unstable();
        if !suppressed.is_empty() {
            let m: serde_json::Map<String, serde_json::Value> =
                suppressed.into_iter().map(|(c, n)| (c.to_string(), serde_json::Value::from(n))).collect();
            fact("suppressed_diagnostics", m.into());
        }
        f
    }
}

/// The candidate kind of a relation: child sitemaps are `sitemap`, everything else `url`.
pub(crate) fn kind_of(relation: Relation) -> CandidateKind {
    if relation == Relation::Child { CandidateKind::Sitemap } else { CandidateKind::Url }
}

/// The message of the `duplicate_url` warning.
pub(crate) fn duplicate_message(url: &str) -> String {
    format!("{url} is listed again (first kept)")
}

impl ReportBuilder {
    /// A builder for a report of probe `probe` about the document at `url`.
    pub fn new(probe: &str, url: &url::Url, max_diagnostics_per_code: u32) -> Self {
        ReportBuilder {
            report: Report::new(probe, url, "invalid"),
            seen: Seen::new(),
            tally: Tally::new(max_diagnostics_per_code),
        }
    }

    /// A builder expecting about `values` candidates (room reserved up front).
    pub(crate) fn with_capacity(probe: &str, url: &url::Url, max_diagnostics_per_code: u32, values: usize) -> Self {
        let mut b = ReportBuilder::new(probe, url, max_diagnostics_per_code);
        // Room for twice the expected count (one value per 64 bytes of body: dense real sitemaps
        // spend 100 to 120 bytes on a URL) with about 100 bytes of strings each (the URL, its XML
        // path, a lastmod), so that the buffers rarely grow, which copies them; the part never
        // written costs address space only. At most `ROOM_MAX` candidates: 12 and 24 MB, under the
        // 32 MiB above which glibc maps a block anew (zeroed pages faulted in) on every call.
        // Measured: growing them cost pws__3.xml a fifth of its parse, and capping the room at 65,536
        // candidates made the generated 50 MB file 30% slower.
        let room = values.saturating_mul(2);
        b.seen = Seen::with_capacity(values.min(SEEN_START));
        let room = room.min(ROOM_MAX);
        b.report.candidates = wellknown_core::Candidates::with_capacity(room, room.saturating_mul(96));
        b
    }

    /// Adds a diagnostic directly (subject to the per-code cap).
    pub fn push(&mut self, d: Diagnostic) {
        if self.tally.wants(&d.code) {
            self.report.push(d);
        }
    }

    /// Finishes the report with the parser's summary: kind and facts.
    pub fn finish(mut self, summary: &Summary) -> Report {
        self.report.kind = summary.kind().to_string();
        for (k, v) in self.tally.facts(summary) {
            self.report.facts.insert(k, v);
        }
        self.report
    }
}

impl Visitor for ReportBuilder {
    fn found(&mut self, found: &Found<'_>) -> ControlFlow<()> {
        let Found { relation, url, place, hints, out_of_location } = *found;
        let candidates = &self.report.candidates;
        let index = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
        let repeat = self.seen.check(relation, url, index, |i| {
            candidates.get(i as usize).is_some_and(|c| c.value() == url && c.relation() == relation.as_str())
        });
        if repeat.is_some() {
            self.tally.repeat(relation);
            if relation.is_primary() && self.tally.wants_static(codes::DUPLICATE_URL) {
                let d = Diagnostic::warning(codes::DUPLICATE_URL, duplicate_message(url), Some(place.to_locator()));
                self.report.push(d);
            }
            return ControlFlow::Continue(());
        }
        if relation == Relation::Child
            && !out_of_location
            && let Ok(u) = url::Url::parse(url)
        {
            self.report.follow_up(crate::probe::PROBE_ID, u, "child_sitemap");
        }
        let mut c = self.report.candidates.start(kind_of(relation), relation.as_str(), url);
        place.locate(&mut c);
        for (k, v) in hints.iter() {
            c.hint(k, v);
        }
        if out_of_location {
            self.tally.out_of_location += 1;
            c.flag(codes::OUT_OF_LOCATION);
        }
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    fn wants(&mut self, code: &'static str) -> bool {
        self.tally.wants_static(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seen_finds_repeats_across_growth() {
        let urls: Vec<String> = (0..5000).map(|i| format!("https://a.example/{i}")).collect();
        let mut seen = Seen::new();
        for (i, u) in urls.iter().enumerate() {
            let same = |j: u32| urls.get(j as usize) == Some(u);
            assert_eq!(seen.check(Relation::Loc, u, i as u32, same), None, "{u}");
        }
        for (i, u) in urls.iter().enumerate() {
            let same = |j: u32| urls.get(j as usize) == Some(u);
            assert_eq!(seen.check(Relation::Loc, u, 9999, same), Some(i as u32), "{u}");
        }
        // Another relation is another claim.
        assert_eq!(seen.check(Relation::Image, &urls[0], 7, |j| j == 7), None);
        assert_eq!(seen.len, 5001);
        assert!(seen.slots.len() >= 2 * seen.len && seen.prints.len() == seen.slots.len());
    }
}
