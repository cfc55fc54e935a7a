//! The parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! TODO: replace this line-based example with the document's grammar. As generated, every line
//! that is neither blank nor a `#` comment must be an absolute http(s) URL, and each one becomes a
//! `url` candidate (relation `nodeinfo`) located by its line number.

use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Locator, Report};

use crate::codes;

/// Fetch cap (bytes after content decoding). Larger bodies are truncated by the fetcher and
/// diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

/// Relation of the `url` candidates.
pub const RELATION: &str = "nodeinfo";

/// Interprets a `/.well-known/nodeinfo` body fetched as described by `meta`.
///
/// Returns a report of kind `nodeinfo` with one `url` candidate (relation [`RELATION`], locator =
/// line) per URL line, the fact `entries` (lines read), and the diagnostics `too_large` (error: the
/// body was truncated), `invalid_utf8` (error: only the valid prefix is read), `empty_document`
/// (error) and `unrecognised_line` (warning).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "nodeinfo");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            report.error(shared::INVALID_UTF8, format!("not UTF-8 from byte {at}"), Some(Locator::Byte(at as u64)));
            body.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default()
        }
    };
    let mut entries = 0usize;
    for (i, line) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        entries += 1;
        match Url::parse(line) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {
                report.candidate(Candidate::new(CandidateKind::Url, RELATION, url.as_str(), Some(Locator::Line(n))));
            }
            _ => report.warn(codes::UNRECOGNISED_LINE, "not an absolute http(s) URL", Some(Locator::Line(n))),
        }
    }
    if entries == 0 {
        report.error(codes::EMPTY_DOCUMENT, "the document has no entry", None);
    }
    report.fact("entries", entries);
    report
}
