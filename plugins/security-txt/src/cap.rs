//! The per-code cap on diagnostics: a junk body of half a million lines must not turn into half a
//! million diagnostics (the robots.txt and sitemap parsers cap the same way).

use std::collections::{BTreeMap, HashMap};
use std::ops::{Deref, DerefMut};

use wellknown_core::{Diagnostic, Locator, Report};

/// Diagnostics listed per code. Further diagnostics of that code are not listed, only counted in
/// the report's `suppressed_diagnostics` fact (`{"invalid_line": 55676}`: code to the number not
/// listed), which is absent when nothing was suppressed.
pub const MAX_DIAGNOSTICS_PER_CODE: u32 = 100;

/// A [`Report`] under construction whose diagnostics are capped per code. Dereferences to the
/// report for everything else (facts, candidates, kind); [`Capped::finish`] adds the
/// `suppressed_diagnostics` fact and returns it.
pub(crate) struct Capped {
    report: Report,
    counts: HashMap<String, u32>,
}

impl Capped {
    /// Wraps an empty report.
    pub(crate) fn new(report: Report) -> Capped {
        Capped { report, counts: HashMap::new() }
    }

    /// Counts one more diagnostic of `code`; true while it is within the cap.
    fn admit(&mut self, code: &str) -> bool {
        let n = match self.counts.get_mut(code) {
            Some(n) => {
                *n = n.saturating_add(1);
                *n
            }
            None => {
                self.counts.insert(code.to_string(), 1);
                1
            }
        };
        n <= MAX_DIAGNOSTICS_PER_CODE
    }

    /// Adds a diagnostic (errors or warnings by its severity) unless its code is over the cap.
    pub(crate) fn push(&mut self, d: Diagnostic) {
        if self.admit(&d.code) {
            self.report.push(d);
        }
    }

    /// Adds an error unless its code is over the cap.
    pub(crate) fn error(&mut self, code: &str, message: impl Into<String>, locator: Option<Locator>) {
        if self.admit(code) {
            self.report.error(code, message, locator);
        }
    }

    /// Adds a warning unless its code is over the cap.
    pub(crate) fn warn(&mut self, code: &str, message: impl Into<String>, locator: Option<Locator>) {
        if self.admit(code) {
            self.report.warn(code, message, locator);
        }
    }

    /// The report, with the fact `suppressed_diagnostics` (`{code: count not listed}`, codes in
    /// alphabetical order) when any code went over the cap.
    pub(crate) fn finish(self) -> Report {
        let mut report = self.report;
        let suppressed: BTreeMap<String, u32> = self
            .counts
            .into_iter()
            .filter(|(_, n)| *n > MAX_DIAGNOSTICS_PER_CODE)
            .map(|(code, n)| (code, n - MAX_DIAGNOSTICS_PER_CODE))
            .collect();
        if !suppressed.is_empty() {
            let map: serde_json::Map<String, serde_json::Value> =
                suppressed.into_iter().map(|(code, n)| (code, serde_json::Value::from(n))).collect();
            report.fact("suppressed_diagnostics", serde_json::Value::Object(map));
        }
        report
    }
}

impl Deref for Capped {
    type Target = Report;

    fn deref(&self) -> &Report {
        &self.report
    }
}

impl DerefMut for Capped {
    fn deref_mut(&mut self) -> &mut Report {
        &mut self.report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_code_and_counts_the_rest() {
        let url = url::Url::parse("https://a.example/.well-known/security.txt").expect("url");
        let mut c = Capped::new(Report::new("security.txt", &url, "security.txt"));
        for i in 0..250u32 {
            c.error("invalid_line", "x", Some(Locator::Line(i + 1)));
        }
        for _ in 0..3 {
            c.warn("unknown_field", "y", None);
        }
        c.push(Diagnostic::error("invalid_line", "z", None));
        let r = c.finish();
        assert_eq!(r.errors.len(), 100);
        assert_eq!(r.errors.last().and_then(|d| d.locator.clone()), Some(Locator::Line(100)));
        assert_eq!(r.warnings.len(), 3);
        assert_eq!(r.facts.get("suppressed_diagnostics"), Some(&serde_json::json!({"invalid_line": 151})));
        let quiet = Capped::new(Report::new("security.txt", &url, "security.txt")).finish();
        assert!(!quiet.facts.contains_key("suppressed_diagnostics"));
    }
}
