//! Backend-neutral views of the graph: candidate lists (`wellknown candidates`) and the difference
//! between two scans (`wellknown diff`). Both run as SQL in the database and stream
//! ([`crate::query::candidates`], [`crate::query::diff`]); this module holds what they yield.

use serde::Serialize;
use wellknown_core::Timestamp;
use wellknown_records::VerifyStatus;

pub use crate::query::candidates::candidates;
pub use crate::query::diff::diff;

/// The verdict name of a value never verified.
pub const UNVERIFIED: &str = "unverified";

/// The status of a value outside the scope (never requested, so never verified).
pub const OUT_OF_SCOPE: &str = VerifyStatus::OutOfScope.as_str();

/// Filters of `wellknown candidates`.
#[derive(Debug, Clone, Default)]
pub struct CandidateQuery {
    /// Only this candidate kind (`url`, `host`, ...).
    pub kind: Option<String>,
    /// Only values in scope.
    pub in_scope_only: bool,
    /// Only values whose latest verdict is this (`alive`, `gone`, ..., or `unverified`).
    pub status: Option<String>,
}

/// One candidate value with what is known about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CandidateRow {
    /// Candidate kind.
    pub kind: String,
    /// The value.
    pub value: String,
    /// Scope (null for kinds without a host).
    pub in_scope: Option<bool>,
    /// Latest verification verdict, else `out_of_scope` for a value outside the scope, else
    /// `unverified`.
    pub status: String,
    /// HTTP status of that verdict.
    pub http_status: Option<u16>,
    /// Redirect target of that verdict.
    pub target: Option<String>,
    /// The highest confidence of the relations that declare it.
    pub confidence: f64,
    /// Relations declaring it (`relation` names, sorted, distinct).
    pub relations: Vec<String>,
    /// Documents declaring it (final URLs, sorted).
    pub documents: Vec<String>,
    /// Earliest evidence.
    pub first_seen: Option<Timestamp>,
    /// Latest evidence.
    pub last_seen: Option<Timestamp>,
    /// The flags of its latest sightings (every evidence row of the latest fetch of each relation
    /// declaring it), sorted, distinct: e.g. `signature_failed` for a value read from a security.txt
    /// whose signature does not verify, `excluded` for an AASA path. Empty when none.
    pub flags: Vec<String>,
}

/// One difference between two scans.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    /// `relation`, `document` or `verification`.
    pub what: &'static str,
    /// `appeared`, `disappeared` or `changed`.
    pub change: &'static str,
    /// Candidate kind (relations, verifications) or probe id (documents).
    pub kind: String,
    /// The value (relations, verifications) or requested URL (documents).
    pub value: String,
    /// Relation name (relations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    /// Declaring document (relations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    /// Before (status or verdict), for `changed` and `disappeared` documents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// After.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// For a disappeared relation: `withdrawn` (the document answered in the later scan without
    /// it), `unanswered` (the document did not answer) or `not_fetched` (the later scan did not
    /// fetch the document).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Change {
    /// One line for people: `+`, `-` or `~`, what, and the details.
    pub fn text(&self) -> String {
        let sign = match self.change {
            "appeared" => '+',
            "disappeared" => '-',
            _ => '~',
        };
        let mut s = format!("{sign} {} {} {}", self.what, self.kind, self.value);
        if let (Some(r), Some(d)) = (&self.relation, &self.document) {
            s.push_str(&format!(" ({r} in {d})"));
        }
        match (&self.from, &self.to) {
            (Some(f), Some(t)) => s.push_str(&format!(": {f} -> {t}")),
            (Some(f), None) => s.push_str(&format!(": was {f}")),
            (None, Some(t)) => s.push_str(&format!(": {t}")),
            (None, None) => {}
        }
        if let Some(r) = &self.reason {
            s.push_str(&format!(" [{r}]"));
        }
        s
    }
}
