//! Reports: what interpreting one document yields.
//!
//! Serialised as design.md's `wellknown parse` object:
//! `{"probe","url","kind","valid","errors":[..],"warnings":[..],"candidates":[..]}` plus
//! `follow_ups` and `facts` when non-empty.

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::candidate::{Candidate, CandidateKind};
use crate::candidates::Candidates;
use crate::diag::{Diagnostic, Locator, Severity};
use crate::fetch::FetchMeta;

/// A request from a probe to the engine: interpret `url` with probe `probe` (e.g. a child sitemap,
/// a JWKS, an assetlinks include). The engine applies scope, depth caps and its visited set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowUp {
    /// Probe id that should interpret the document.
    pub probe: String,
    /// Absolute URL to fetch.
    pub url: Url,
    /// Why (`child_sitemap`, `jwks_uri`, `include`, `robots_sitemap`, `issuer`, ...).
    pub role: String,
}

/// The interpretation of one document: kind, diagnostics, candidates, follow-ups.
///
/// `valid` is derived: a report is valid exactly when it has no error diagnostics.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct Report {
    /// Probe id (`robots`, `sitemap`, `security.txt`, ...).
    pub probe: String,
    /// The URL the document was fetched from (final URL after redirects).
    pub url: String,
    /// Document kind as the probe names it (`robots`, `urlset`, `sitemapindex`, `invalid`, ...).
    pub kind: String,
    /// Error diagnostics: the document breaks its specification.
    pub errors: Vec<Diagnostic>,
    /// Advisory diagnostics.
    pub warnings: Vec<Diagnostic>,
    /// Relations the document declares, in document order (packed: see [`Candidates`]).
    pub candidates: Candidates,
    /// Documents the engine should fetch next.
    pub follow_ups: Vec<FollowUp>,
    /// Probe-specific facts about the document (e.g. robots.txt `availability`, security.txt
    /// `covers_host`, signature status), as a JSON object.
    pub facts: serde_json::Map<String, serde_json::Value>,
}

impl Report {
    /// An empty report for `probe` about `url`, of kind `kind`.
    pub fn new(probe: &str, url: &Url, kind: &str) -> Report {
        Report { probe: probe.to_string(), url: url.to_string(), kind: kind.to_string(), ..Report::default() }
    }

    /// True when there is no error diagnostic.
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Adds a diagnostic to `errors` or `warnings` according to its severity.
    pub fn push(&mut self, d: Diagnostic) {
        match d.severity {
            Severity::Error => self.errors.push(d),
            Severity::Warning => self.warnings.push(d),
        }
    }

    /// Adds an error diagnostic.
    pub fn error(&mut self, code: &str, message: impl Into<String>, locator: Option<Locator>) {
        self.errors.push(Diagnostic::error(code, message, locator));
    }

    /// `too_large` (error) when the fetcher truncated the body at the probe's cap of `max_body_bytes`
    /// (after content decoding): "the body was truncated at N bytes".
    pub fn too_large_if_truncated(&mut self, meta: &FetchMeta, max_body_bytes: u64) {
        if meta.truncated {
            self.error(
                crate::diag::codes::TOO_LARGE,
                format!("the body was truncated at {max_body_bytes} bytes"),
                None,
            );
        }
    }

    /// Adds a warning diagnostic.
    pub fn warn(&mut self, code: &str, message: impl Into<String>, locator: Option<Locator>) {
        self.warnings.push(Diagnostic::warning(code, message, locator));
    }

    /// Adds a candidate.
    pub fn candidate(&mut self, c: Candidate) {
        self.candidates.push(c);
    }

    /// Adds a follow-up request.
    pub fn follow_up(&mut self, probe: &str, url: Url, role: &str) {
        self.follow_ups.push(FollowUp { probe: probe.to_string(), url, role: role.to_string() });
    }

    /// Records a probe-specific fact.
    pub fn fact(&mut self, key: &str, value: impl Into<serde_json::Value>) {
        self.facts.insert(key.to_string(), value.into());
    }

    /// True when an error or warning with `code` is present.
    pub fn has_code(&self, code: &str) -> bool {
        self.errors.iter().chain(&self.warnings).any(|d| d.code == code)
    }

    /// Values of candidates of `kind`, in order.
    pub fn values(&self, kind: CandidateKind) -> impl Iterator<Item = &str> {
        self.candidates.iter().filter(move |c| c.kind() == kind).map(|c| c.value())
    }
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("probe", &self.probe)?;
        m.serialize_entry("url", &self.url)?;
        m.serialize_entry("kind", &self.kind)?;
        m.serialize_entry("valid", &self.valid())?;
        m.serialize_entry("errors", &self.errors)?;
        m.serialize_entry("warnings", &self.warnings)?;
        m.serialize_entry("candidates", &self.candidates)?;
        if !self.follow_ups.is_empty() {
            m.serialize_entry("follow_ups", &self.follow_ups)?;
        }
        if !self.facts.is_empty() {
            m.serialize_entry("facts", &self.facts)?;
        }
        m.end()
    }
}
