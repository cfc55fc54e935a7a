//! Turns the parser's stream into a [`Report`]: candidates deduplicated within the file, follow-ups
//! for in-location child sitemaps, diagnostics capped per code, facts.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};
use std::ops::ControlFlow;

use wellknown_core::{Candidate, CandidateKind, Diagnostic, Report};

use crate::codes;
use crate::model::{Found, Relation, Summary, Visitor};

/// A [`Visitor`] that builds the report of one file.
///
/// Deduplication is per file and per relation (the same URL as a page and as an hreflang alternate is
/// two claims); the first occurrence wins (its hints and locator are kept). Deduplication across the
/// files of a scan is the engine's job: evidence accumulates there.
pub struct ReportBuilder {
    report: Report,
    /// Hash of (relation, URL) → candidate index, open addressing on the hash value.
    seen: HashMap<u64, u32, BuildHasherDefault<IdentityHasher>>,
    /// Per-builder random keys, so crafted URLs cannot collide on purpose.
    hasher: RandomState,
    max_per_code: u32,
    per_code: BTreeMap<String, u64>,
    duplicates: u64,
    out_of_location: u64,
}

/// The keys of `seen` are already hashes: use them as they are.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl ReportBuilder {
    /// A builder for a report of probe `probe` about the document at `url`.
    pub fn new(probe: &str, url: &url::Url, max_diagnostics_per_code: u32) -> Self {
        ReportBuilder {
            report: Report::new(probe, url, "invalid"),
            seen: HashMap::default(),
            hasher: RandomState::new(),
            max_per_code: max_diagnostics_per_code,
            per_code: BTreeMap::new(),
            duplicates: 0,
            out_of_location: 0,
        }
    }

    /// Adds a diagnostic directly (subject to the per-code cap).
    pub fn push(&mut self, d: Diagnostic) {
        if self.wants(&d.code) {
            self.report.push(d);
        }
    }

    /// Finishes the report with the parser's summary: kind and facts.
    pub fn finish(mut self, summary: &Summary) -> Report {
        let r = &mut self.report;
        r.kind = summary.kind().to_string();
        r.fact("format", summary.format.as_str());
        if !summary.layers.is_empty() {
            r.fact("compression", summary.layers.iter().map(|l| serde_json::Value::from(*l)).collect::<Vec<_>>());
        }
        r.fact("encoding", summary.encoding);
        r.fact("uncompressed_bytes", summary.bytes);
        r.fact("entries", summary.entries);
        r.fact("urls", summary.urls);
        if self.duplicates > 0 {
            r.fact("duplicates", self.duplicates);
        }
        if self.out_of_location > 0 {
            r.fact("out_of_location", self.out_of_location);
        }
        if summary.incomplete {
            r.fact("incomplete", true);
        }
        let suppressed: serde_json::Map<String, serde_json::Value> = self
            .per_code
            .iter()
            .filter(|(_, n)| **n > u64::from(self.max_per_code))
            .map(|(c, n)| (c.clone(), serde_json::Value::from(n - u64::from(self.max_per_code))))
            .collect();
        if !suppressed.is_empty() {
            r.fact("suppressed_diagnostics", suppressed);
        }
        self.report
    }
}

impl Visitor for ReportBuilder {
    fn found(&mut self, found: Found) -> ControlFlow<()> {
        let Found { relation, url, locator, hints, out_of_location } = found;
        let mut k = self.hasher.hash_one((relation, url.as_str()));
        loop {
            match self.seen.get(&k) {
                None => break,
                Some(&i) => {
                    let same = self
                        .report
                        .candidates
                        .get(i as usize)
                        .is_some_and(|c| c.relation == relation.as_str() && c.value == url.as_str());
                    if same {
                        self.duplicates += 1;
                        if relation.is_primary() && self.wants(codes::DUPLICATE_URL) {
                            let msg = format!("{url} is listed again (first kept)");
                            self.report.push(Diagnostic::warning(codes::DUPLICATE_URL, msg, Some(locator)));
                        }
                        return ControlFlow::Continue(());
                    }
                    k = k.wrapping_add(1);
                }
            }
        }
        let index = u32::try_from(self.report.candidates.len()).unwrap_or(u32::MAX);
        self.seen.insert(k, index);
        let kind = if relation == Relation::Child { CandidateKind::Sitemap } else { CandidateKind::Url };
        if relation == Relation::Child && !out_of_location {
            self.report.follow_up(crate::probe::PROBE_ID, url.clone(), "child_sitemap");
        }
        let mut c = Candidate::new(kind, relation.as_str(), String::from(url), Some(locator));
        for (k, v) in hints {
            c.hints.insert(k.to_string(), v);
        }
        if out_of_location {
            self.out_of_location += 1;
            c.flags.push(codes::OUT_OF_LOCATION.to_string());
        }
        self.report.candidates.push(c);
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    fn wants(&mut self, code: &str) -> bool {
        let n = match self.per_code.get_mut(code) {
            Some(n) => n,
            None => self.per_code.entry(code.to_string()).or_insert(0),
        };
        *n += 1;
        *n <= u64::from(self.max_per_code)
    }
}
