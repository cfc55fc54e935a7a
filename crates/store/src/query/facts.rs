//! The confidence of relations in SQL: the facts the model of [`crate::confidence`] is computed
//! from (declaration state, sightings, first and last seen, corroboration), one row per relation,
//! and the latest verification verdict of values. The score itself (its decay with age) is
//! [`crate::confidence::score`], applied to each streamed row.

use wellknown_core::Timestamp;
use wellknown_records::VerifyStatus;

use super::{Dialect, SqlRow};
use crate::StoreError;
use crate::confidence::{Declaration, Scored, score};

/// The common table expressions that score the relations of a CTE named `rel` (columns `id`,
/// `source_id`, `target_id`, `relation`), which the caller defines first. They define `scored`:
/// every `rel` row with `n` (evidence rows, 0 when none), `first_seen`, `last_seen` (as
/// [`Dialect::time`]), `state` (0 listed, 1 unanswered, 2 withdrawn; NULL without evidence) and
/// `corroborating` (other sources currently listing the same target; every relation of a target
/// must be in `rel` for it to be right).
///
/// A relation's state (`docs/confidence.md`): the fetches of its declaring documents (same probe,
/// requested URL and route) in scans after its latest evidence: none, listed; one read in full (a
/// 2xx without failure, not cut at the size cap, not of kind `invalid`), withdrawn; only others,
/// unanswered.
pub fn scored_ctes(d: Dialect) -> String {
    let fetched = d.time("e.fetched_at");
    format!(
        "ev AS MATERIALIZED (
            SELECT e.relation_id, COUNT(*) AS n, MIN({fetched}) AS first_seen, MAX({fetched}) AS last_seen,
                   MAX(e.scan_id) AS last_scan
            FROM evidence e JOIN rel ON rel.id = e.relation_id GROUP BY e.relation_id),
        keys AS (
            SELECT DISTINCT e.relation_id, dd.probe, dd.requested_url, dd.via
            FROM evidence e JOIN rel ON rel.id = e.relation_id JOIN documents dd ON dd.id = e.document_id),
        later AS (
            SELECT k.relation_id,
                   MAX(CASE WHEN {read_in_full} THEN 1 ELSE 0 END) AS answered
            FROM keys k JOIN ev ON ev.relation_id = k.relation_id
            JOIN documents d ON d.probe = k.probe AND d.requested_url = k.requested_url AND d.via = k.via
                 AND d.scan_id > ev.last_scan
            GROUP BY k.relation_id),
        facts AS MATERIALIZED (
            SELECT rel.id, rel.source_id, rel.target_id, rel.relation, COALESCE(ev.n, 0) AS n,
                   ev.first_seen, ev.last_seen,
                   CASE WHEN ev.relation_id IS NULL THEN NULL
                        WHEN later.relation_id IS NULL THEN 0
                        WHEN later.answered = 1 THEN 2 ELSE 1 END AS state
            FROM rel LEFT JOIN ev ON ev.relation_id = rel.id LEFT JOIN later ON later.relation_id = rel.id),
        pairs AS (SELECT DISTINCT target_id, source_id FROM facts WHERE state = 0),
        listing AS (SELECT target_id, COUNT(*) AS sources FROM pairs GROUP BY target_id),
        scored AS (
            SELECT f.id, f.source_id, f.target_id, f.relation, f.n, f.first_seen, f.last_seen, f.state,
                   COALESCE(l.sources, 0) - CASE WHEN p.source_id IS NULL THEN 0 ELSE 1 END AS corroborating
            FROM facts f LEFT JOIN listing l ON l.target_id = f.target_id
            LEFT JOIN pairs p ON p.target_id = f.target_id AND p.source_id = f.source_id)",
        read_in_full = read_in_full("d"),
    )
}

/// SQL: document `d` could have listed its relations (`docs/confidence.md`): a 2xx without
/// failure, read in full, recognised as the document the probe expects.
pub fn read_in_full(d: &str) -> String {
    format!(
        "({d}.status BETWEEN 200 AND 299 AND {d}.failure_class IS NULL AND NOT {d}.truncated
          AND ({d}.kind IS NULL OR {d}.kind <> 'invalid'))"
    )
}

/// SQL: document `d` answered (a 2xx without failure).
pub fn answered(d: &str) -> String {
    format!("({d}.status BETWEEN 200 AND 299 AND {d}.failure_class IS NULL)")
}

/// The columns of `scored` alias `s` that [`Facts::read`] reads, in its order.
pub const FACT_COLUMNS: &str = "s.state, s.n, s.first_seen, s.last_seen, s.corroborating";

/// A CTE `latest_v` of the latest verdict of each node `node_filter` (an SQL condition on
/// verification `v`) admits: highest scan, then latest time. Columns: `node_id`, `status`,
/// `http_status`, `target`, `method`, `failure_class`, `scan_id`, `verified_at`.
pub fn latest_verdicts(d: Dialect, node_filter: &str) -> String {
    format!(
        "latest_v AS (
            SELECT node_id, status, http_status, target, method, failure_class, scan_id, verified_at FROM (
                SELECT v.node_id, v.status, v.http_status, v.target, v.method, v.failure_class, v.scan_id,
                       v.verified_at,
                       ROW_NUMBER() OVER (PARTITION BY v.node_id ORDER BY v.scan_id DESC, {t} DESC) AS rn
                FROM verifications v WHERE {node_filter}) AS ranked
            WHERE rn = 1)",
        t = d.time("v.verified_at"),
    )
}

/// What a relation's score is computed from, read off a streamed row.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    /// Declaration state; None for a relation without evidence (not scored).
    pub state: Option<Declaration>,
    /// Evidence rows.
    pub evidence: usize,
    /// Earliest and latest evidence.
    pub seen: Option<(Timestamp, Timestamp)>,
    /// Other documents currently listing the same value.
    pub corroborating: usize,
}

impl Facts {
    /// Reads the [`FACT_COLUMNS`] starting at column `at`.
    ///
    /// Errors: a column of another type; a state outside 0..=2.
    pub fn read(row: &SqlRow, at: usize) -> Result<Facts, StoreError> {
        let state = match row.opt_int(at)? {
            None => None,
            Some(0) => Some(Declaration::Listed),
            Some(1) => Some(Declaration::Unanswered),
            Some(2) => Some(Declaration::Withdrawn),
            Some(other) => return Err(StoreError::new(format!("declaration state {other}"))),
        };
        let count = |i| row.opt_int(i).map(|v| usize::try_from(v.unwrap_or(0)).unwrap_or(0));
        let seen = match (row.opt_time(at + 2)?, row.opt_time(at + 3)?) {
            (Some(first), Some(last)) => Some((first, last)),
            _ => None,
        };
        Ok(Facts { state, evidence: count(at + 1)?, seen, corroborating: count(at + 4)? })
    }

    /// The relation's [`Scored`] at `now`, given its value's latest verdict; None without evidence.
    pub fn scored(&self, verification: Option<VerifyStatus>, now: Timestamp) -> Option<Scored> {
        let (state, (first_seen, last_seen)) = (self.state?, self.seen?);
        let mut s = Scored {
            confidence: 0.0,
            state,
            evidence: self.evidence,
            last_seen,
            first_seen,
            corroborating: self.corroborating,
            verification,
        };
        s.confidence = score(&s, now);
        Some(s)
    }
}
