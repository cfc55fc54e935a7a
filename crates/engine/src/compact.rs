//! Candidates kept compactly between interpretation and emission.
//!
//! A report can hold tens of thousands of candidates (a robots.txt of 850 KB declares 38,000), and a
//! unit keeps its report until every record of it has been handed to a consumer that may be slower
//! than the scan (a store on disk). `Candidate` spends most of its memory on things a document
//! repeats: the relation name, and hints kept in a `BTreeMap` whose first entry allocates a node of
//! about half a kilobyte (the same `group` hint on every rule of a robots.txt group). Right after
//! interpretation the engine moves each document's candidates into a [`Prepared`] document that
//! keeps every distinct relation name and hint set once and, per candidate, only its value, its
//! locator and two small indexes: about a seventh of the memory, which is what bounds a scan's
//! memory when many units with large documents wait on a slow consumer.

use std::collections::{BTreeMap, HashMap};

use wellknown_core::{Candidate, CandidateKind, Document, Locator};

/// A candidate, compactly: its strings shared through its document's tables.
pub(crate) struct Compact {
    pub kind: CandidateKind,
    relation: u32,
    hints: u32,
    value: Box<str>,
    locator: Option<Locator>,
    flags: Box<[Box<str>]>,
}

/// A document whose report's candidates were moved out and compacted.
pub(crate) struct Prepared {
    pub doc: Document,
    candidates: Vec<Compact>,
    tables: Tables,
}

impl Prepared {
    /// The document, its compact candidates in document order, and the tables they index.
    pub fn into_parts(self) -> (Document, Vec<Compact>, Tables) {
        (self.doc, self.candidates, self.tables)
    }
}

/// The distinct relation names and hint sets of one document.
pub(crate) struct Tables {
    relations: Vec<String>,
    hint_sets: Vec<BTreeMap<String, String>>,
}

impl Compact {
    /// Back to a [`Candidate`] (for its record).
    pub fn into_candidate(self, t: &Tables) -> Candidate {
        Candidate {
            kind: self.kind,
            relation: t.relations.get(self.relation as usize).cloned().unwrap_or_default(),
            value: self.value.into(),
            locator: self.locator,
            hints: t.hint_sets.get(self.hints as usize).cloned().unwrap_or_default(),
            flags: self.flags.into_iter().map(Into::into).collect(),
        }
    }
}

/// Compacts the candidates of every document of a probe run, right after interpretation.
pub(crate) fn prepare(docs: Vec<Document>) -> Vec<Prepared> {
    docs.into_iter().map(prepare_one).collect()
}

fn prepare_one(mut doc: Document) -> Prepared {
    let original = doc.report.as_mut().map(|r| std::mem::take(&mut r.candidates)).unwrap_or_default();
    let mut relation_ids: HashMap<String, u32> = HashMap::new();
    let mut hint_ids: HashMap<BTreeMap<String, String>, u32> = HashMap::new();
    let mut candidates = Vec::with_capacity(original.len());
    for c in original {
        let next = u32::try_from(relation_ids.len()).unwrap_or(u32::MAX);
        let relation = *relation_ids.entry(c.relation).or_insert(next);
        let next = u32::try_from(hint_ids.len()).unwrap_or(u32::MAX);
        let hints = *hint_ids.entry(c.hints).or_insert(next);
        candidates.push(Compact {
            kind: c.kind,
            relation,
            hints,
            value: c.value.into_boxed_str(),
            locator: c.locator,
            flags: c.flags.into_iter().map(String::into_boxed_str).collect(),
        });
    }
    let mut relations = vec![String::new(); relation_ids.len()];
    for (name, i) in relation_ids {
        if let Some(slot) = relations.get_mut(i as usize) {
            *slot = name;
        }
    }
    let mut hint_sets = vec![BTreeMap::new(); hint_ids.len()];
    for (set, i) in hint_ids {
        if let Some(slot) = hint_sets.get_mut(i as usize) {
            *slot = set;
        }
    }
    Prepared { doc, candidates, tables: Tables { relations, hint_sets } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::{FetchMeta, Report, Timestamp};

    #[test]
    fn round_trips_in_order_with_shared_tables() {
        let url = Url::parse("https://a.example/robots.txt").unwrap();
        let mut report = Report::new("robots", &url, "robots");
        let cands = vec![
            Candidate::new(CandidateKind::Url, "robots_disallow", "https://a.example/x", Some(Locator::Line(3)))
                .with_hint("group", "*")
                .with_flag("excluded"),
            Candidate::new(CandidateKind::Path, "robots_disallow", "/x", Some(Locator::Line(3)))
                .with_hint("group", "*"),
            Candidate::new(CandidateKind::Sitemap, "robots_sitemap", "https://a.example/s.xml", None),
        ];
        report.candidates = cands.clone();
        let doc = Document {
            probe: "robots".into(),
            role: "origin".into(),
            meta: FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH),
            report: Some(report),
        };
        let prepared = prepare(vec![doc]).pop().unwrap();
        assert_eq!((prepared.tables.relations.len(), prepared.tables.hint_sets.len()), (2, 2));
        let (doc, compact, tables) = prepared.into_parts();
        assert!(doc.report.unwrap().candidates.is_empty(), "moved out");
        let back: Vec<Candidate> = compact.into_iter().map(|c| c.into_candidate(&tables)).collect();
        assert_eq!(back, cands);
    }
}
