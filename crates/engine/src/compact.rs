//! Candidates kept compactly between interpretation and emission.
//!
//! A report can hold tens of thousands of candidates (a robots.txt of 850 KB declares 38,000), and a
//! unit keeps its report until every record of it has been handed to a consumer that may be slower
//! than the scan (a store on disk). `Candidate` keeps its hints in a `BTreeMap`, whose first entry
//! allocates a node of about half a kilobyte; converted right after interpretation, a candidate
//! holds about a quarter of that, so the memory a scan needs for its units in flight is bounded by
//! a few hundred bytes a candidate.

use std::collections::BTreeMap;

use wellknown_core::{Candidate, CandidateKind, Document, Locator};

/// A candidate, compactly.
pub(crate) struct Compact {
    pub kind: CandidateKind,
    relation: Box<str>,
    value: Box<str>,
    locator: Option<Locator>,
    hints: Box<[(Box<str>, Box<str>)]>,
    flags: Box<[Box<str>]>,
}

impl From<Candidate> for Compact {
    fn from(c: Candidate) -> Compact {
        Compact {
            kind: c.kind,
            relation: c.relation.into_boxed_str(),
            value: c.value.into_boxed_str(),
            locator: c.locator,
            hints: c.hints.into_iter().map(|(k, v)| (k.into_boxed_str(), v.into_boxed_str())).collect(),
            flags: c.flags.into_iter().map(String::into_boxed_str).collect(),
        }
    }
}

impl Compact {
    /// The value.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Back to a [`Candidate`] (for its record).
    pub fn into_candidate(self) -> Candidate {
        let hints: BTreeMap<String, String> = self.hints.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
        Candidate {
            kind: self.kind,
            relation: self.relation.into(),
            value: self.value.into(),
            locator: self.locator,
            hints,
            flags: self.flags.into_iter().map(Into::into).collect(),
        }
    }
}

/// A document whose report's candidates were moved out and compacted.
pub(crate) struct Prepared {
    pub doc: Document,
    pub candidates: Vec<Compact>,
}

/// Compacts the candidates of every document of a probe run, right after interpretation.
pub(crate) fn prepare(docs: Vec<Document>) -> Vec<Prepared> {
    docs.into_iter()
        .map(|mut doc| {
            let original = doc.report.as_mut().map(|r| std::mem::take(&mut r.candidates)).unwrap_or_default();
            let mut candidates = Vec::with_capacity(original.len());
            for c in original {
                candidates.push(Compact::from(c));
            }
            Prepared { doc, candidates }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let c = Candidate::new(CandidateKind::Url, "robots_disallow", "https://a.example/x", Some(Locator::Line(3)))
            .with_hint("group", "*")
            .with_flag("excluded");
        let back = Compact::from(c.clone()).into_candidate();
        assert_eq!(back, c);
    }
}
