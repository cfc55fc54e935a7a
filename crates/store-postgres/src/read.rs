//! Reading rows back: scans, units, and the whole graph for the backend-neutral analysis.

use postgres::{Client, Row};
use wellknown_store::{
    DocumentRow, EvidenceRow, GraphData, NodeRow, RelationRow, ScanId, ScanRow, StoreError, StoredVerification,
    UnitRow, UnitState, VerificationRow, VhostRow,
};

use wellknown_core::{CandidateKind, Method};
use wellknown_records::{UnitKind, VerifySource, VerifyStatus};

use crate::pg_error;

fn json(s: Option<String>) -> serde_json::Value {
    s.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(serde_json::Value::Null)
}

fn status(r: &Row, col: &str) -> Option<u16> {
    r.get::<_, Option<i32>>(col).and_then(|s| u16::try_from(s).ok())
}

fn small(r: &Row, col: &str) -> u32 {
    u32::try_from(r.get::<_, i32>(col)).unwrap_or_default()
}

fn query(
    client: &mut Client,
    what: &str,
    sql: &str,
    params: &[&(dyn postgres::types::ToSql + Sync)],
) -> Result<Vec<Row>, StoreError> {
    client.query(sql, params).map_err(|e| pg_error(what, &e))
}

/// Every scan, oldest first.
pub(crate) fn scans(client: &mut Client) -> Result<Vec<ScanRow>, StoreError> {
    let rows = query(
        client,
        "reading scans",
        "SELECT id, started_at, finished_at, plan::text AS plan, summary::text AS summary FROM scans ORDER BY id",
        &[],
    )?;
    Ok(rows
        .iter()
        .map(|r| ScanRow {
            id: r.get("id"),
            started_at: r.get("started_at"),
            finished_at: r.get("finished_at"),
            plan: json(r.get("plan")),
            summary: json(r.get("summary")),
        })
        .collect())
}

/// The units of `scan`, in insertion order.
pub(crate) fn units(client: &mut Client, scan: ScanId) -> Result<Vec<UnitRow>, StoreError> {
    let rows = query(
        client,
        "reading units",
        "SELECT kind, value, depth, revealed_by, state, in_scope FROM units WHERE scan_id = $1 ORDER BY id",
        &[&scan],
    )?;
    rows.iter().map(unit).collect()
}

pub(crate) fn unit(r: &Row) -> Result<UnitRow, StoreError> {
    let state: String = r.get("state");
    let kind: String = r.get("kind");
    Ok(UnitRow {
        kind: UnitKind::parse(&kind).ok_or_else(|| StoreError::new(format!("unknown unit kind {kind:?}")))?,
        value: r.get("value"),
        depth: small(r, "depth"),
        revealed_by: r.get("revealed_by"),
        state: UnitState::parse(&state).ok_or_else(|| StoreError::new(format!("unknown unit state {state:?}")))?,
        in_scope: r.get("in_scope"),
    })
}

fn verification(r: &Row) -> Result<StoredVerification, StoreError> {
    let named = |col: &str| -> String { r.get(col) };
    let unknown = |what: &str, v: &str| StoreError::new(format!("unknown {what} {v:?}"));
    let (kind, verdict, source) = (named("kind"), named("status"), named("source"));
    let method: Option<String> = r.get("method");
    Ok(StoredVerification {
        node: r.get("node_id"),
        row: VerificationRow {
            kind: CandidateKind::parse(&kind).ok_or_else(|| unknown("candidate kind of a verified node", &kind))?,
            value: r.get("value"),
            scan: r.get("scan_id"),
            status: VerifyStatus::parse(&verdict).ok_or_else(|| unknown("verdict", &verdict))?,
            http_status: status(r, "http_status"),
            target: r.get("target"),
            method: method.map(|m| Method::parse(&m).ok_or_else(|| unknown("verification method", &m))).transpose()?,
            failure_class: r.get("failure_class"),
            failure_message: r.get("failure_message"),
            source: VerifySource::parse(&source).ok_or_else(|| unknown("verification source", &source))?,
            verified_at: r.get("verified_at"),
        },
    })
}

/// Everything.
pub(crate) fn load(client: &mut Client) -> Result<GraphData, StoreError> {
    let scans = scans(client)?;
    let nodes =
        query(client, "reading nodes", "SELECT id, kind, value, in_scope, first_seen FROM nodes ORDER BY id", &[])?
            .iter()
            .map(|r| NodeRow {
                id: r.get("id"),
                kind: r.get("kind"),
                value: r.get("value"),
                in_scope: r.get("in_scope"),
                first_seen: r.get("first_seen"),
            })
            .collect();
    let relations = query(
        client,
        "reading relations",
        "SELECT id, source_id, relation, target_id, first_seen FROM relations ORDER BY id",
        &[],
    )?
    .iter()
    .map(|r| RelationRow {
        id: r.get("id"),
        source: r.get("source_id"),
        relation: r.get("relation"),
        target: r.get("target_id"),
        first_seen: r.get("first_seen"),
    })
    .collect();
    let evidence = query(
        client,
        "reading evidence",
        "SELECT id, relation_id, scan_id, document_id, probe, fetched_at, status, locator, hints::text AS hints,
                flags::text AS flags
         FROM evidence ORDER BY id",
        &[],
    )?
    .iter()
    .map(|r| EvidenceRow {
        id: r.get("id"),
        relation: r.get("relation_id"),
        scan: r.get("scan_id"),
        document: r.get("document_id"),
        probe: r.get("probe"),
        fetched_at: r.get("fetched_at"),
        status: status(r, "status"),
        locator: Some(r.get::<_, String>("locator")).filter(|l| !l.is_empty()),
        hints: r.get("hints"),
        flags: r.get("flags"),
    })
    .collect();
    let documents = query(
        client,
        "reading documents",
        "SELECT id, scan_id, origin, probe, role, hop, requested_url, url, status,
                redirect_chain::text AS redirect_chain, content_type, size, sha256, truncated, fetched_at,
                failure_class, failure_message, kind, valid, facts::text AS facts, via, not_attempted
         FROM documents ORDER BY id",
        &[],
    )?
    .iter()
    .map(|r| DocumentRow {
        id: r.get("id"),
        scan: r.get("scan_id"),
        origin: r.get("origin"),
        probe: r.get("probe"),
        role: r.get("role"),
        hop: small(r, "hop"),
        requested_url: r.get("requested_url"),
        url: r.get("url"),
        status: status(r, "status"),
        redirect_chain: r.get("redirect_chain"),
        content_type: r.get("content_type"),
        size: u64::try_from(r.get::<_, i64>("size")).unwrap_or_default(),
        sha256: r.get("sha256"),
        truncated: r.get("truncated"),
        fetched_at: r.get("fetched_at"),
        failure_class: r.get("failure_class"),
        failure_message: r.get("failure_message"),
        kind: r.get("kind"),
        valid: r.get("valid"),
        facts: r.get("facts"),
        via: r.get("via"),
        not_attempted: r.get("not_attempted"),
    })
    .collect();
    let verifications = query(
        client,
        "reading verifications",
        "SELECT v.node_id, n.kind, n.value, v.scan_id, v.status, v.http_status, v.target, v.method,
                v.failure_class, v.failure_message, v.source, v.verified_at
         FROM verifications v JOIN nodes n ON n.id = v.node_id ORDER BY v.id",
        &[],
    )?
    .iter()
    .map(verification)
    .collect::<Result<_, _>>()?;
    let vhosts = query(
        client,
        "reading virtual-host attempts",
        "SELECT scan_id, host, origin, revealed_by, address, answers, status, failure_class, checked_at
         FROM vhosts ORDER BY id",
        &[],
    )?
    .iter()
    .map(|r| VhostRow {
        scan: r.get("scan_id"),
        host: r.get("host"),
        origin: r.get("origin"),
        revealed_by: r.get("revealed_by"),
        address: r.get("address"),
        answers: r.get("answers"),
        status: status(r, "status"),
        failure_class: r.get("failure_class"),
        checked_at: r.get("checked_at"),
    })
    .collect();
    Ok(GraphData { scans, nodes, relations, evidence, documents, verifications, vhosts })
}
