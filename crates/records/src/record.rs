//! JSON Lines records a scan emits (documented in `docs/output-schema.md`).
//!
//! Every record is one JSON object with a `type` field: `document`, `diagnostic`, `candidate`,
//! `evidence`, `verification`, `inventory`, `vhost`, `budget`, `origin`, `summary`.

use std::collections::BTreeMap;

use serde::Serialize;
use wellknown_core::{CandidateKind, Evidence, FetchFailure, Locator, Method, RedirectHop, Severity, Timestamp};

use crate::unit::UnitKind;
use crate::verify::{VerifySource, VerifyStatus};

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
    /// What verifying a candidate URL found (or why it was not requested).
    Verification(VerificationRecord),
    /// A host, origin or issuer a document revealed, and what the scan does with it.
    Inventory(InventoryRecord),
    /// A revealed name that does not resolve, tried as a virtual host of the origin that revealed it.
    Vhost(VhostRecord),
    /// A per-origin cap or budget stopped work: which one, and how much was left undone.
    Budget(BudgetRecord),
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
    /// The address the request was sent to instead of resolving the host (virtual-host scan of a
    /// name that does not resolve); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// True when the document was not requested because this unit had already found its origin
    /// unreachable at the connection level (DNS, connect refused or timed out, TLS refused): the
    /// `failure` repeats that class and names the request that failed. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub not_attempted: bool,
    /// For a `rate_limited` failure: the delay the server asked for in `Retry-After`, in seconds
    /// (RFC 9110 section 10.2.3). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_secs: Option<u64>,
    /// True when the document's answer matched the origin's answer for a random path (same status,
    /// media type and body, the requested path and host left out): the origin answers every path
    /// alike, so this is no document of the probe's kind, whatever its parser read (a `catch_all`
    /// diagnostic says so, its candidates are flagged `catch_all`, never verified nor revealing
    /// units). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub catch_all: bool,
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
    /// Hints as this document declares them (an assetlinks key's `app`, a sitemap URL's
    /// `lastmod`...): a further sighting may say something the first did not.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub hints: BTreeMap<String, String>,
    /// Flags of this sighting.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// Where it was declared this time.
    pub evidence: Evidence,
}

/// What verifying one candidate URL found.
#[derive(Debug, Clone, Serialize)]
pub struct VerificationRecord {
    /// Kind of the candidate (`url`, `sitemap`, `endpoint`).
    pub kind: CandidateKind,
    /// The URL verified (the candidate's normalised value).
    pub value: String,
    /// The scan unit (origin or issuer) whose documents first declared it.
    pub origin: String,
    /// The verdict (see `docs/output-schema.md`).
    pub status: VerifyStatus,
    /// Final HTTP status when there was a response.
    pub http_status: Option<u16>,
    /// For `redirect`: where the first redirect pointed.
    pub target: Option<String>,
    /// Method of the last request (`HEAD`, or `GET` after a 405/501 or when the verdict comes from
    /// the document fetch); null when nothing was requested.
    pub method: Option<Method>,
    /// The fetcher's failure, when there was no usable response.
    pub failure: Option<FetchFailure>,
    /// `request` (a verification request), `document` (the URL was fetched as a document in this
    /// scan and that fetch is the verdict) or `none` (not requested): [`VerifySource`].
    pub source: VerifySource,
    /// When the verdict was reached (RFC 3339 UTC).
    pub verified_at: Timestamp,
}

/// A host, origin or issuer revealed by a document.
#[derive(Debug, Clone, Serialize)]
pub struct InventoryRecord {
    /// `origin` or `issuer`.
    pub unit: UnitKind,
    /// The origin (`https://host[:port]`) or issuer URL.
    pub value: String,
    /// Feedback hops from the targets (targets are depth 0).
    pub depth: u32,
    /// The unit whose documents revealed it.
    pub revealed_by: String,
    /// The candidate that revealed it: `{"kind","value"}`.
    pub candidate_kind: CandidateKind,
    /// The candidate's value.
    pub candidate_value: String,
    /// Whether it is in the scan scope.
    pub in_scope: bool,
    /// What the scan does with it ([`InventoryAction`]).
    pub action: InventoryAction,
}

/// What a scan does with a unit a document revealed (an `inventory` record's `action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InventoryAction {
    /// `queued`: in scope, within `--depth`: scanned in this run.
    Queued,
    /// `beyond_depth`: in scope, deeper than `--depth`: recorded, not scanned.
    BeyondDepth,
    /// `over_budget`: in scope within `--depth`, but its revealer's `--max-revealed-per-document` or
    /// `--max-revealed` was spent: recorded, not scanned.
    OverBudget,
    /// `out_of_scope`: recorded, never requested.
    OutOfScope,
}

impl InventoryAction {
    /// Every action, in declaration order.
    pub const ALL: [InventoryAction; 4] = [
        InventoryAction::Queued,
        InventoryAction::BeyondDepth,
        InventoryAction::OverBudget,
        InventoryAction::OutOfScope,
    ];

    /// The `snake_case` name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            InventoryAction::Queued => "queued",
            InventoryAction::BeyondDepth => "beyond_depth",
            InventoryAction::OverBudget => "over_budget",
            InventoryAction::OutOfScope => "out_of_scope",
        }
    }

    /// Parses an action name.
    pub fn parse(s: &str) -> Option<InventoryAction> {
        InventoryAction::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

/// A virtual-host attempt: a revealed name that did not resolve, requested with its own Host header
/// and TLS server name against an address of the origin that revealed it.
#[derive(Debug, Clone, Serialize)]
pub struct VhostRecord {
    /// The name tried.
    pub host: String,
    /// The origin scanned under that name.
    pub origin: String,
    /// The unit that revealed the name.
    pub revealed_by: String,
    /// The address tried (an address of `revealed_by`), null when that origin's addresses could not
    /// be found.
    pub address: Option<String>,
    /// True when the address answered HTTP for the name (any status).
    pub answers: bool,
    /// When it answered: true when the answer differed from the address's answer for a name it
    /// cannot have (a random sibling of the name), so the name is served apart and its documents
    /// are requested through this address; false when the server ignores the name (nothing more is
    /// requested); null when there was no answer to compare.
    pub distinct: Option<bool>,
    /// The status it answered.
    pub status: Option<u16>,
    /// Why it did not answer.
    pub failure: Option<FetchFailure>,
    /// When it was tried.
    pub checked_at: Timestamp,
}

/// A per-unit cap or budget stopped work (`docs/output-schema.md`, "budget"): emitted once per unit
/// and budget, before the unit's `origin` record, with the count of what it left undone.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct BudgetRecord {
    /// The unit (origin, or issuer URL) whose work stopped.
    pub origin: String,
    /// `origin` or `issuer`.
    pub unit: UnitKind,
    /// Which budget: `time_per_origin`, `follow_ups_per_origin`, `follow_up_hops`,
    /// `candidates_per_origin`, `revealed_per_document`, `revealed_per_origin`,
    /// `vhost_tries_per_origin`, `verifications_per_origin`.
    pub budget: &'static str,
    /// The limit in force (a count; milliseconds for `time_per_origin`).
    pub limit: u64,
    /// What was left undone: `follow_ups`, `candidates`, `units`, `vhost_tries`, `verifications`,
    /// `documents`.
    pub skipped_what: &'static str,
    /// How many were left undone.
    pub skipped: u64,
    /// The flag that raises the limit (`--max-follow-ups`), for the reader.
    pub flag: &'static str,
}

/// A scan unit (an origin, or an issuer identifier) finished.
#[derive(Debug, Clone, Serialize)]
pub struct OriginRecord {
    /// The origin (or, for an issuer unit, the issuer URL).
    pub origin: String,
    /// `origin` or `issuer`.
    pub unit: UnitKind,
    /// Feedback hops from the targets (0 for targets and `--issuer`s).
    pub depth: u32,
    /// True when at least one HTTP response was received from it.
    pub reachable: bool,
    /// Document records of it (including follow-ups and documents not attempted).
    pub documents: usize,
    /// Documents it would have requested that another unit of this scan had already requested
    /// (their records are that unit's): an issuer unit whose metadata its origin's unit fetched, or
    /// two issuers naming the same metadata URLs (`https://a.example/t` and `https://a.example/t/`).
    /// Their answers count for `reachable`. Absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub documents_elsewhere: usize,
    /// Candidates first seen while scanning it.
    pub candidates: usize,
    /// Verification verdicts recorded for it.
    pub verified: usize,
    /// Candidate URLs it did not verify because its `--max-verify` budget was spent.
    #[serde(skip_serializing_if = "is_zero")]
    pub verification_skipped: usize,
    /// Budgets that stopped its work, by name (as in its `budget` records), each with the count
    /// left undone. Absent when none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub budgets: BTreeMap<String, u64>,
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
    /// Document records (fetched, failed, refused or not attempted).
    pub documents: usize,
    /// Documents that answered 2xx.
    pub documents_found: usize,
    /// Documents their probe recognised as a document of its kind (see [`recognised`]): what a
    /// scan "found". A 2xx HTML page where data was expected (soft 404, SPA shell) is not one.
    pub documents_recognised: usize,
    /// Documents without a usable answer: no HTTP response (DNS, connect, TLS, timeout, scope or
    /// private-address refusal, ...), or a response left incomplete (`timeout`, `slow_transfer`,
    /// `protocol`, `rate_limited`): the fetch failures, apart from the diagnostics' `errors`. A
    /// redirect out of scope or into a refused private address is not one (see
    /// `redirected_out_of_scope`, `redirected_to_private`); nor is a body cut at the scan's own cap.
    pub fetch_failures: usize,
    /// Documents of `fetch_failures` that were not requested: their unit had already found their
    /// origin unreachable at the connection level, or too slow twice (their records say
    /// `"not_attempted": true`).
    pub documents_not_attempted: usize,
    /// Documents whose server answered with a redirect to a URL outside the scope: not followed
    /// (failure class `out_of_scope` on the document), the target recorded as a `url` candidate
    /// (relation `redirect_location`). The server answered, so these are not `fetch_failures`.
    pub redirected_out_of_scope: usize,
    /// Documents whose server answered with a redirect into an address the private-address rule
    /// refuses (without `--allow-private`): not followed, nothing sent there (failure class
    /// `private_address` on the document), the target recorded as a `redirect_location` candidate
    /// flagged `private_address`. The server answered, so these are not `fetch_failures`.
    pub redirected_to_private: usize,
    /// Distinct candidates.
    pub candidates: usize,
    /// Further sightings of known candidates.
    pub evidence: usize,
    /// Units (origins and issuers) scanned, targets included.
    pub units: usize,
    /// Hosts, origins and issuers revealed by documents (inventory records).
    pub revealed: usize,
    /// Verification verdicts recorded.
    pub verifications: usize,
    /// Verification requests sent (HEAD, and GET fallbacks).
    pub verification_requests: usize,
    /// Candidate URLs not verified because a unit's `--max-verify` budget, or its time budget, was
    /// spent.
    pub verifications_skipped: usize,
    /// `fetch_failures` by failure class (the counts add up to `fetch_failures`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub failures_by_class: BTreeMap<String, usize>,
    /// Documents whose answer matched their origin's answer for a random path (`catch_all`): not
    /// counted as recognised, whatever their parser read.
    #[serde(skip_serializing_if = "is_zero")]
    pub documents_catch_all: usize,
    /// Calibration requests sent: a random path under `/` and under `/.well-known/` per origin
    /// that answered 2xx, and a virtual-host baseline (a random name) once per address, scheme,
    /// port and parent domain.
    #[serde(skip_serializing_if = "is_zero")]
    pub calibration_requests: usize,
    /// Budgets that stopped work, by name, each with the total left undone over all units (the
    /// `budget` records have the details). Absent when none did.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub budgets: BTreeMap<String, u64>,
    /// Documents refused as `rate_limited` that `--retry-rate-limited` asked again at the end of
    /// the scan (each has a second document record).
    #[serde(skip_serializing_if = "is_zero")]
    pub documents_retried: usize,
    /// Units at least one budget stopped.
    #[serde(skip_serializing_if = "is_zero")]
    pub units_over_budget: usize,
    /// Error diagnostics.
    pub errors: usize,
    /// Warning diagnostics.
    pub warnings: usize,
    /// Wall time in milliseconds.
    pub elapsed_ms: u64,
    /// True when the scan was stopped before it finished (SIGINT, SIGTERM): the counts are those of
    /// the work done until then, and `wellknown scan --resume` can finish the scan.
    pub interrupted: bool,
}

/// Report kinds that are no document of the probe's kind: unreadable (`invalid`), an HTML page
/// (`html`), or the change-password probe's check of a path that must not exist (`status_check`).
const NOT_A_DOCUMENT_KINDS: [&str; 3] = ["invalid", "html", "status_check"];

/// Diagnostic codes that say the answer was a soft 404: an HTML page where data was expected, or an
/// origin answering 2xx for every path (change-password's status check).
const SOFT_404_CODES: [&str; 2] = [wellknown_core::diag::codes::HTML_DOCUMENT, "unreliable_status_codes"];

/// True when a document counts as found: its probe interpreted it (`report`), it is no soft 404
/// (diagnosed `html_document` or `unreliable_status_codes`, or of kind `html` or `status_check`),
/// and either it answered 2xx with a readable document (kind not `invalid`) or it still declared
/// candidates (`has_candidates`; e.g. a change-password redirect whose target is gone, or a damaged
/// document read leniently).
pub fn recognised(status_2xx: bool, report: Option<&wellknown_core::Report>, has_candidates: bool) -> bool {
    let Some(r) = report else { return false };
    let soft_404 = matches!(r.kind.as_str(), "html" | "status_check") || SOFT_404_CODES.iter().any(|c| r.has_code(c));
    !soft_404 && ((status_2xx && !NOT_A_DOCUMENT_KINDS.contains(&r.kind.as_str())) || has_candidates)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::Report;

    fn report(kind: &str, codes: &[&str]) -> Report {
        let mut r = Report::new("p", &Url::parse("https://a.example/x").unwrap(), kind);
        for c in codes {
            r.error(c, "m", None);
        }
        r
    }

    #[test]
    fn soft_404s_and_unreadable_answers_are_not_recognised() {
        assert!(recognised(true, Some(&report("robots", &[])), false));
        assert!(recognised(true, Some(&report("openid-configuration", &["missing_issuer"])), false));
        assert!(!recognised(true, None, false));
        assert!(!recognised(false, Some(&report("robots", &[])), false), "a 404 robots.txt is nothing found");
        assert!(!recognised(true, Some(&report("robots", &["html_document"])), false));
        assert!(!recognised(true, Some(&report("html", &[])), false));
        assert!(!recognised(true, Some(&report("invalid", &["invalid_json"])), false));
        assert!(!recognised(true, Some(&report("status_check", &[])), false));
        assert!(!recognised(true, Some(&report("page", &["unreliable_status_codes"])), true), "SPA change-password");
        assert!(recognised(true, Some(&report("invalid", &["invalid_json"])), true), "read leniently");
        assert!(recognised(false, Some(&report("redirect", &[])), true), "a redirect still declares the page");
    }
}
