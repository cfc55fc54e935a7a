//! JSON Lines records a scan emits (documented in `docs/output-schema.md`).
//!
//! Every record is one JSON object with a `type` field: `document`, `diagnostic`, `candidate`,
//! `evidence`, `origin`, `summary`.

use std::collections::BTreeMap;

use serde::Serialize;
use wellknown_core::{CandidateKind, Evidence, FetchFailure, Locator, RedirectHop, Severity, Timestamp};

/// One line of scan output.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// A fetched (or attempted) document.
    Document(DocumentRecord),
    /// A diagnostic about a document.
    Diagnostic(DiagnosticRecord),
    /// The first sighting of a candidate in this scan.
    Candidate(CandidateRecord),
    /// A further sighting of a candidate already emitted (evidence accumulates).
    Evidence(EvidenceRecord),
    /// An origin finished.
    Origin(OriginRecord),
    /// The scan finished (always the last record).
    Summary(Summary),
}

/// A document record: how it was fetched and what kind it turned out to be.
#[derive(Debug, Clone, Serialize)]
pub struct DocumentRecord {
    /// Probe id.
    pub probe: String,
    /// Why it was fetched (`origin`, `fallback_location`, `robots_sitemap`, `child_sitemap`, ...).
    pub role: String,
    /// The scanned origin this document belongs to.
    pub origin: String,
    /// Follow-up hops from the origin (0 for its own documents).
    pub hop: u32,
    /// URL first requested.
    pub requested_url: String,
    /// Final URL.
    pub url: String,
    /// Final HTTP status, null when no response.
    pub status: Option<u16>,
    /// Redirect hops followed, in order.
    pub redirect_chain: Vec<RedirectHop>,
    /// Content-Type as sent.
    pub content_type: Option<String>,
    /// Body bytes read.
    pub size: u64,
    /// SHA-256 of the body (hex).
    pub sha256: Option<String>,
    /// True when reading stopped at the size cap.
    pub truncated: bool,
    /// When it was fetched (RFC 3339, UTC).
    pub fetched_at: Timestamp,
    /// Why there is no usable response, if so.
    pub failure: Option<FetchFailure>,
    /// Document kind, when interpreted.
    pub kind: Option<String>,
    /// True when interpreted without error diagnostics; null when not interpreted.
    pub valid: Option<bool>,
    /// Probe-specific facts.
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub facts: serde_json::Map<String, serde_json::Value>,
}

/// A diagnostic record.
#[derive(Debug, Clone, Serialize)]
pub struct DiagnosticRecord {
    /// Final URL of the document.
    pub document: String,
    /// Probe id.
    pub probe: String,
    /// `error` or `warning`.
    pub severity: Severity,
    /// Stable code.
    pub code: String,
    /// Explanation.
    pub message: String,
    /// Where in the document.
    pub locator: Option<Locator>,
}

/// The first sighting of a candidate.
#[derive(Debug, Clone, Serialize)]
pub struct CandidateRecord {
    /// Kind of value.
    pub kind: CandidateKind,
    /// Relation name.
    pub relation: String,
    /// Normalised value.
    pub value: String,
    /// Whether the value's host is in the user's scope (null for kinds without a host: path,
    /// contact, app, key).
    pub in_scope: Option<bool>,
    /// Hints as declared by the document.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub hints: BTreeMap<String, String>,
    /// Flags (`out_of_location`, `excluded`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// Where it was declared.
    pub evidence: Evidence,
}

/// A further sighting of a candidate already emitted.
#[derive(Debug, Clone, Serialize)]
pub struct EvidenceRecord {
    /// Kind of value.
    pub kind: CandidateKind,
    /// Relation name in this document.
    pub relation: String,
    /// Normalised value.
    pub value: String,
    /// Where it was declared this time.
    pub evidence: Evidence,
}

/// An origin finished.
#[derive(Debug, Clone, Serialize)]
pub struct OriginRecord {
    /// The origin.
    pub origin: String,
    /// True when at least one HTTP response was received from it.
    pub reachable: bool,
    /// Documents attempted for it (including follow-ups).
    pub documents: usize,
    /// Candidates first seen while scanning it.
    pub candidates: usize,
    /// When unreachable: the failure classes met (e.g. `dns_nxdomain`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<String>,
}

/// The scan's totals (always the last record).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Origins given as targets.
    pub targets: usize,
    /// Targets from which at least one response was received.
    pub reachable: usize,
    /// Targets that answered nothing at all.
    pub unreachable: usize,
    /// Documents attempted.
    pub documents: usize,
    /// Documents that answered 2xx.
    pub documents_found: usize,
    /// Distinct candidates.
    pub candidates: usize,
    /// Further sightings of known candidates.
    pub evidence: usize,
    /// Error diagnostics.
    pub errors: usize,
    /// Warning diagnostics.
    pub warnings: usize,
    /// Wall time in milliseconds.
    pub elapsed_ms: u64,
}
