//! Rows and writes: the backend-neutral shape of the graph.
//!
//! Writes name what they touch by natural keys (a scan id, a (probe, URL) document, a (kind, value)
//! node), never by a backend's surrogate ids, so any backend (SQLite now, PostgreSQL later) resolves
//! them the same way. Rows read back carry the backend's ids only to link rows to each other.

use serde::Serialize;
use wellknown_core::{CandidateKind, Method, Severity, Timestamp};
use wellknown_records::{InventoryAction, UnitKind, VerifySource, VerifyStatus};

/// A scan's id (SQLite `INTEGER PRIMARY KEY`; a PostgreSQL backend would use `bigserial`).
pub type ScanId = i64;

/// Node kind of documents (the sources of relations). Candidate nodes use the candidate kind
/// names (`url`, `host`, `sitemap`, ...).
pub const DOCUMENT_NODE: &str = "document";

/// A scan: when it ran, what it was asked to do, and its totals once finished.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScanRow {
    /// The scan id.
    pub id: ScanId,
    /// When it started.
    pub started_at: Timestamp,
    /// When it finished; None for a scan that was interrupted (resumable with `scan --resume`).
    pub finished_at: Option<Timestamp>,
    /// The plan, as the caller stored it (targets, scope, probes, depth, ...), JSON.
    pub plan: serde_json::Value,
    /// The summary record, JSON (null until finished).
    pub summary: serde_json::Value,
}

/// A scan unit (origin or issuer) of one scan and where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitRow {
    /// `origin` or `issuer`.
    pub kind: UnitKind,
    /// The origin (`https://a.example`) or issuer URL.
    pub value: String,
    /// Feedback hops from the targets.
    pub depth: u32,
    /// The unit that revealed it (None for targets and `--issuer`s).
    pub revealed_by: Option<String>,
    /// [`UnitState`].
    pub state: UnitState,
    /// Whether it is in the scan scope.
    pub in_scope: bool,
}

/// Where a unit stands in its scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitState {
    /// To be scanned (or being scanned when the scan was interrupted).
    Pending,
    /// Scanned completely: every record of it is stored.
    Done,
    /// Revealed in scope but deeper than the scan's `--depth`.
    BeyondDepth,
    /// Revealed out of scope: recorded, never requested.
    OutOfScope,
    /// Revealed in scope within `--depth`, but past its revealer's budget of revealed units
    /// (`--max-revealed-per-document`, `--max-revealed`): recorded, not scanned.
    OverBudget,
}

impl UnitState {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            UnitState::Pending => "pending",
            UnitState::Done => "done",
            UnitState::BeyondDepth => "beyond_depth",
            UnitState::OutOfScope => "out_of_scope",
            UnitState::OverBudget => "over_budget",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<UnitState> {
        [UnitState::Pending, UnitState::Done, UnitState::BeyondDepth, UnitState::OutOfScope, UnitState::OverBudget]
            .into_iter()
            .find(|u| u.as_str() == s)
    }

    /// The state of a unit a document revealed, from its `inventory` record's action: `queued` is
    /// `pending` (it is scanned in this run), the others keep their name.
    pub fn revealed(action: InventoryAction) -> UnitState {
        match action {
            InventoryAction::Queued => UnitState::Pending,
            InventoryAction::BeyondDepth => UnitState::BeyondDepth,
            InventoryAction::OverBudget => UnitState::OverBudget,
            InventoryAction::OutOfScope => UnitState::OutOfScope,
        }
    }
}

/// One fetched (or attempted) document of a scan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentRow {
    /// Backend id (0 in writes).
    pub id: i64,
    /// The scan (set by the backend from the write's scan).
    pub scan: ScanId,
    /// The unit it belongs to.
    pub origin: String,
    /// Probe id.
    pub probe: String,
    /// Why it was fetched.
    pub role: String,
    /// Follow-up hops from the unit's own documents.
    pub hop: u32,
    /// URL first requested.
    pub requested_url: String,
    /// Final URL.
    pub url: String,
    /// Final HTTP status.
    pub status: Option<u16>,
    /// Redirect hops, JSON array of `{"url","status"}`.
    pub redirect_chain: String,
    /// Content-Type as sent.
    pub content_type: Option<String>,
    /// Body bytes read.
    pub size: u64,
    /// SHA-256 of the body (hex).
    pub sha256: Option<String>,
    /// Reading stopped at the size cap.
    pub truncated: bool,
    /// When it was fetched.
    pub fetched_at: Timestamp,
    /// Failure class, when there was no usable response.
    pub failure_class: Option<String>,
    /// Failure details.
    pub failure_message: Option<String>,
    /// Document kind when interpreted.
    pub kind: Option<String>,
    /// No error diagnostics (None when not interpreted).
    pub valid: Option<bool>,
    /// Probe facts, JSON object.
    pub facts: String,
    /// Virtual-host address the request went to ("" when resolved normally).
    pub via: String,
    /// Not requested: its origin had failed at the connection level earlier in the unit (DNS,
    /// refused, timeout, TLS), so the failure was recorded without another attempt.
    pub not_attempted: bool,
}

impl DocumentRow {
    /// True when the final response was 2xx without a failure.
    pub fn answered(&self) -> bool {
        self.failure_class.is_none() && self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// A relation declared by a document, with the evidence of this sighting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationWrite {
    /// Probe that interpreted the document.
    pub probe: String,
    /// Final URL of the declaring document (its node's value).
    pub document_url: String,
    /// Relation name (`robots_disallow`, `sitemap_loc`, ...).
    pub relation: String,
    /// Candidate kind of the value.
    pub kind: CandidateKind,
    /// Normalised value.
    pub value: String,
    /// Scope of the value (None: unknown for this sighting, or a kind without a host).
    pub in_scope: Option<bool>,
    /// When the document was fetched.
    pub fetched_at: Timestamp,
    /// HTTP status of the document.
    pub status: Option<u16>,
    /// Locator, JSON (None when the format has none).
    pub locator: Option<String>,
    /// Declared hints, JSON object.
    pub hints: String,
    /// Flags, JSON array.
    pub flags: String,
}

/// A verification verdict of a URL node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerificationRow {
    /// The node's candidate kind.
    pub kind: CandidateKind,
    /// The URL.
    pub value: String,
    /// The scan (set by the backend).
    pub scan: ScanId,
    /// Verdict (`alive`, `gone`, `auth_required`, `redirect`, ...).
    pub status: VerifyStatus,
    /// HTTP status when there was a response.
    pub http_status: Option<u16>,
    /// Redirect target.
    pub target: Option<String>,
    /// `HEAD` or `GET`.
    pub method: Option<Method>,
    /// Fetcher failure class.
    pub failure_class: Option<String>,
    /// Failure details.
    pub failure_message: Option<String>,
    /// `request`, `document` or `none`.
    pub source: VerifySource,
    /// When.
    pub verified_at: Timestamp,
}

/// A virtual-host attempt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VhostRow {
    /// The scan (set by the backend).
    pub scan: ScanId,
    /// The name tried.
    pub host: String,
    /// The origin scanned under that name.
    pub origin: String,
    /// The unit that revealed it.
    pub revealed_by: String,
    /// The address tried ("" when none could be found).
    pub address: String,
    /// Whether the address answered for the name.
    pub answers: bool,
    /// Status it answered.
    pub status: Option<u16>,
    /// Failure class when it did not answer.
    pub failure_class: Option<String>,
    /// When.
    pub checked_at: Timestamp,
}

/// A diagnostic about a document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiagnosticWrite {
    /// Probe id.
    pub probe: String,
    /// Final URL of the document.
    pub document_url: String,
    /// `error` or `warning`.
    pub severity: Severity,
    /// Stable code.
    pub code: String,
    /// Explanation.
    pub message: String,
    /// Locator, JSON.
    pub locator: Option<String>,
}

/// One write of a scan. A batch of writes is applied in one transaction, in order; every write is
/// idempotent (re-applying a batch, as a resumed scan does for a unit it redoes, changes nothing).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Write {
    /// Insert or update a unit of the scan (keyed by kind and value).
    Unit(UnitRow),
    /// Insert or update a document of the scan (keyed by probe, requested URL and route).
    Document(DocumentRow),
    /// A diagnostic of the latest document of this scan with that probe and final URL.
    Diagnostic(DiagnosticWrite),
    /// Upsert the document node, the value node and the relation; append the evidence.
    Relation(RelationWrite),
    /// A verification verdict (one per node and scan; the last write wins).
    Verification(VerificationRow),
    /// A virtual-host attempt.
    Vhost(VhostRow),
}

/// A node of the graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeRow {
    /// Backend id.
    pub id: i64,
    /// `document` or a candidate kind.
    pub kind: String,
    /// URL, host, path, contact, ...
    pub value: String,
    /// Scope when known.
    pub in_scope: Option<bool>,
    /// First written.
    pub first_seen: Timestamp,
}

/// A relation of the graph: `source --relation--> target`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationRow {
    /// Backend id.
    pub id: i64,
    /// Source node id (a document).
    pub source: i64,
    /// Relation name.
    pub relation: String,
    /// Target node id.
    pub target: i64,
    /// First written.
    pub first_seen: Timestamp,
}

/// One sighting of a relation (append-only).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceRow {
    /// Backend id.
    pub id: i64,
    /// Relation id.
    pub relation: i64,
    /// Scan.
    pub scan: ScanId,
    /// Document row id.
    pub document: i64,
    /// Probe id.
    pub probe: String,
    /// When the document was fetched.
    pub fetched_at: Timestamp,
    /// Document status.
    pub status: Option<u16>,
    /// Locator, JSON.
    pub locator: Option<String>,
    /// Hints, JSON object.
    pub hints: String,
    /// Flags, JSON array.
    pub flags: String,
}

/// A stored verification, linked to its node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredVerification {
    /// Node id.
    pub node: i64,
    /// The verdict.
    pub row: VerificationRow,
}

/// Everything in the store, for analysis (confidence, diff, export). Loaded in one go: fine for
/// graphs of millions of rows on one machine; a shared PostgreSQL backend would page instead.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GraphData {
    /// Scans, by id.
    pub scans: Vec<ScanRow>,
    /// Nodes.
    pub nodes: Vec<NodeRow>,
    /// Relations.
    pub relations: Vec<RelationRow>,
    /// Evidence.
    pub evidence: Vec<EvidenceRow>,
    /// Documents.
    pub documents: Vec<DocumentRow>,
    /// Verifications.
    pub verifications: Vec<StoredVerification>,
    /// Virtual-host attempts.
    pub vhosts: Vec<VhostRow>,
}
