//! Documents between interpretation and emission.
//!
//! A unit keeps each document's report until every record of it has been handed to a consumer that
//! may be slower than the scan (a store on disk), so what a report holds bounds a scan's memory when
//! many units with large documents wait. A report's candidates are already packed
//! ([`wellknown_core::Candidates`]: one text buffer and a fixed-size item per candidate, the
//! repeated relation names, hint keys and flags stored once), so preparing a document only moves
//! them out of the report: the rest of the report (diagnostics, facts, follow-ups) is emitted
//! separately.

use wellknown_core::{Candidates, Document};

/// A document whose report's candidates were moved out.
pub(crate) struct Prepared {
    pub doc: Document,
    candidates: Candidates,
}

impl Prepared {
    /// The document and its candidates in document order.
    pub fn into_parts(self) -> (Document, Candidates) {
        (self.doc, self.candidates)
    }
}

/// Prepares every document of a probe run, right after interpretation.
pub(crate) fn prepare(docs: Vec<Document>) -> Vec<Prepared> {
    docs.into_iter().map(prepare_one).collect()
}

/// Prepares one document.
pub(crate) fn prepare_one(mut doc: Document) -> Prepared {
    let candidates = doc.report.as_mut().map(|r| std::mem::take(&mut r.candidates)).unwrap_or_default();
    Prepared { doc, candidates }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::{Candidate, CandidateKind, FetchMeta, Locator, Report, Timestamp};

    #[test]
    fn moves_candidates_out_in_order() {
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
        report.candidates = cands.clone().into();
        let doc = Document {
            probe: "robots".into(),
            role: "origin".into(),
            meta: FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH),
            report: Some(report),
        };
        let prepared = prepare(vec![doc]).pop().unwrap();
        let (doc, moved) = prepared.into_parts();
        assert!(doc.report.unwrap().candidates.is_empty(), "moved out");
        assert_eq!(moved.to_vec(), cands);
    }
}
