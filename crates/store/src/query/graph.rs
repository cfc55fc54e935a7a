//! `wellknown graph` as streamed statements: the nodes sorted by (kind, value), each with its
//! latest verdict, its latest document (document nodes) and the confidence of the relations
//! declaring it; then the relations sorted by (source, relation, target), each with its score and
//! its evidence rows; then the virtual-host attempts. Rows of one node or one relation are folded
//! as they arrive, so memory holds one of them at a time.

use serde::Serialize;
use wellknown_core::Timestamp;
use wellknown_records::VerifyStatus;

use super::facts::{FACT_COLUMNS, Facts, latest_verdicts, scored_ctes};
use super::{Dialect, Each, Param, SqlRow, fold_rows};
use crate::confidence::Scored;
use crate::model::{DOCUMENT_NODE, ScanId, VhostRow};
use crate::{Store, StoreError};

/// What part of the graph to export. The default is all of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphFilter {
    /// Only relations with evidence in this scan, with that scan's evidence only (and that scan's
    /// record and virtual-host attempts).
    pub scan: Option<ScanId>,
    /// Only relations declaring a value of this candidate kind.
    pub kind: Option<String>,
    /// Only relations declaring a value in scope.
    pub in_scope_only: bool,
}

impl GraphFilter {
    /// Whether any filter is set: then the nodes are the two ends of the relations admitted
    /// (a document that declared nothing admitted is left out), else every node.
    pub fn is_set(&self) -> bool {
        self.scan.is_some() || self.kind.is_some() || self.in_scope_only
    }
}

/// A node's latest verification verdict (highest scan, then latest time).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeVerdict {
    /// The verdict.
    pub status: String,
    /// The HTTP status it answered.
    pub http_status: Option<u16>,
    /// Redirect target.
    pub target: Option<String>,
    /// `GET` or `HEAD`.
    pub method: Option<String>,
    /// Failure class.
    pub failure: Option<String>,
    /// The scan.
    pub scan: ScanId,
    /// When.
    pub verified_at: Timestamp,
}

/// The latest fetch of a document node's URL (the fetch that ended there, else the latest fetch
/// requested there, for the target of a redirect that was not followed).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatestDocument {
    /// Probe id.
    pub probe: String,
    /// HTTP status.
    pub status: Option<u16>,
    /// Failure class.
    pub failure: Option<String>,
    /// Document kind.
    pub kind: Option<String>,
    /// Validity.
    pub valid: Option<bool>,
    /// Content hash.
    pub sha256: Option<String>,
    /// The scan.
    pub scan: ScanId,
    /// When it was fetched.
    pub fetched_at: Timestamp,
    /// Whether it was never requested (a budget or a verdict on its origin stopped it).
    pub not_attempted: bool,
}

/// A node of the exported graph.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphNode {
    /// The backend's id (links relations to nodes within one export).
    pub id: i64,
    /// `document` or a candidate kind.
    pub kind: String,
    /// The value (a document's URL).
    pub value: String,
    /// Scope (null for kinds without a host).
    pub in_scope: Option<bool>,
    /// First sighting.
    pub first_seen: Timestamp,
    /// The highest confidence of the relations declaring it (None when none is scored).
    pub confidence: Option<f64>,
    /// Its latest verdict.
    pub verification: Option<NodeVerdict>,
    /// For a document node, its latest fetch.
    pub document: Option<LatestDocument>,
}

/// One sighting of a relation.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphEvidence {
    /// The scan.
    pub scan: ScanId,
    /// The declaring document's node (its final URL; its requested URL for the target of a
    /// redirect it did not follow).
    pub document_url: String,
    /// Probe id.
    pub probe: String,
    /// When the document was fetched.
    pub fetched_at: Timestamp,
    /// The document's HTTP status.
    pub status: Option<u16>,
    /// Where in the document (JSON text: line, JSON pointer, XML path), None when not located.
    pub locator: Option<String>,
    /// Hints, JSON text.
    pub hints: String,
    /// Flags, JSON text.
    pub flags: String,
}

/// A relation of the exported graph.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphRelation {
    /// The backend's id.
    pub id: i64,
    /// Source node id, kind and value.
    pub source: (i64, String, String),
    /// Relation name.
    pub relation: String,
    /// Target node id, kind and value.
    pub target: (i64, String, String),
    /// Its confidence (None without evidence).
    pub score: Option<Scored>,
    /// Its evidence rows (of the filter's scan only, when it names one), oldest first.
    pub evidence: Vec<GraphEvidence>,
}

/// The filter's parameters and the CTEs every graph statement starts with: `targets` (the nodes
/// whose declaring relations are scored), `rel`, the scoring CTEs, and `kept` (the `scored` rows
/// the filter admits).
fn prelude(d: Dialect, f: &GraphFilter) -> (String, Vec<Param>) {
    let mut params = Vec::new();
    let mut target = "TRUE".to_string();
    if let Some(k) = &f.kind {
        params.push(Param::Text(k.clone()));
        target.push_str(&format!(" AND n.kind = {}", d.param(params.len())));
    }
    if f.in_scope_only {
        target.push_str(" AND n.in_scope IS TRUE");
    }
    let kept = match f.scan {
        Some(scan) => {
            params.push(Param::Int(scan));
            format!(
                "SELECT s.* FROM scored s WHERE EXISTS (SELECT 1 FROM evidence e WHERE e.relation_id = s.id AND \
                 e.scan_id = {})",
                d.param(params.len())
            )
        }
        None => "SELECT s.* FROM scored s".to_string(),
    };
    let sql = format!(
        "WITH targets AS MATERIALIZED (SELECT n.id FROM nodes n WHERE {target}),
        rel AS (SELECT r.id, r.source_id, r.target_id, r.relation FROM relations r JOIN targets t ON t.id = r.target_id),
        {scored},
        kept AS MATERIALIZED ({kept})",
        scored = scored_ctes(d),
    );
    (sql, params)
}

/// Columns of `latest_v` alias `v`, read by [`verdict`].
const VERDICT_COLUMNS: &str = "v.status, v.http_status, v.target, v.method, v.failure_class, v.scan_id, v.verified_at";

fn verdict(r: &SqlRow, at: usize) -> Result<Option<NodeVerdict>, StoreError> {
    let Some(status) = r.opt_text(at)? else { return Ok(None) };
    Ok(Some(NodeVerdict {
        status,
        http_status: r.opt_status(at + 1)?,
        target: r.opt_text(at + 2)?,
        method: r.opt_text(at + 3)?,
        failure: r.opt_text(at + 4)?,
        scan: r.int(at + 5)?,
        verified_at: r.time(at + 6)?,
    }))
}

/// The latest fetch of each URL of `column` (`url` or `requested_url`) among the document nodes
/// selected, as CTE `name`.
fn latest_documents(name: &str, column: &str) -> String {
    format!(
        "{name} AS (
            SELECT * FROM (
                SELECT d.{column} AS key, d.probe, d.status, d.failure_class, d.kind, d.valid, d.sha256, d.scan_id,
                       d.fetched_at, d.not_attempted,
                       ROW_NUMBER() OVER (PARTITION BY d.{column} ORDER BY d.scan_id DESC, d.id DESC) AS rn
                FROM documents d WHERE d.{column} IN (SELECT value FROM doc_nodes)) AS ranked
            WHERE rn = 1)"
    )
}

fn latest_document(r: &SqlRow, at: usize) -> Result<Option<LatestDocument>, StoreError> {
    if r.opt_text(at)?.is_none() {
        return Ok(None);
    }
    Ok(Some(LatestDocument {
        probe: r.text(at + 1)?,
        status: r.opt_status(at + 2)?,
        failure: r.opt_text(at + 3)?,
        kind: r.opt_text(at + 4)?,
        valid: r.opt_bool(at + 5)?,
        sha256: r.opt_text(at + 6)?,
        scan: r.int(at + 7)?,
        fetched_at: r.time(at + 8)?,
        not_attempted: r.opt_bool(at + 9)?.unwrap_or(false),
    }))
}

const DOC_COLUMNS: [&str; 10] =
    ["key", "probe", "status", "failure_class", "kind", "valid", "sha256", "scan_id", "fetched_at", "not_attempted"];

/// Streams the nodes the filter selects to `each`, sorted by (kind, value), scored at `now`.
///
/// Errors: the store's; a malformed stored value; the first error `each` returns.
pub fn nodes(
    store: &mut dyn Store,
    f: &GraphFilter,
    now: Timestamp,
    each: Each<'_, GraphNode>,
) -> Result<(), StoreError> {
    let d = store.dialect();
    let (prelude, mut params) = prelude(d, f);
    let selected = if f.is_set() {
        "SELECT target_id AS id FROM kept UNION SELECT source_id FROM kept".to_string()
    } else {
        "SELECT id FROM nodes".to_string()
    };
    params.push(Param::Text(DOCUMENT_NODE.to_string()));
    let doc = d.param(params.len());
    let cols = |alias: &str| DOC_COLUMNS.iter().map(|c| format!("{alias}.{c}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "{prelude},
        sel AS MATERIALIZED ({selected}),
        doc_nodes AS (SELECT n.value FROM sel JOIN nodes n ON n.id = sel.id WHERE n.kind = {doc}),
        {verdicts},
        {by_url},
        {by_request}
        SELECT n.id, n.kind, n.value, n.in_scope, n.first_seen, {VERDICT_COLUMNS}, {ld}, {lr}, {FACT_COLUMNS}
        FROM sel JOIN nodes n ON n.id = sel.id
        LEFT JOIN latest_v v ON v.node_id = n.id
        LEFT JOIN latest_by_url ld ON n.kind = {doc} AND ld.key = n.value
        LEFT JOIN latest_by_request lr ON n.kind = {doc} AND lr.key = n.value
        LEFT JOIN scored s ON s.target_id = n.id
        ORDER BY {kind}, {value}, n.id",
        verdicts = latest_verdicts(d, "v.node_id IN (SELECT id FROM sel)"),
        by_url = latest_documents("latest_by_url", "url"),
        by_request = latest_documents("latest_by_request", "requested_url"),
        ld = cols("ld"),
        lr = cols("lr"),
        kind = d.sort("n.kind"),
        value = d.sort("n.value"),
    );
    let start = &mut |r: &SqlRow| -> Result<GraphNode, StoreError> {
        let document = match latest_document(r, 12)? {
            Some(doc) => Some(doc),
            None => latest_document(r, 22)?,
        };
        Ok(GraphNode {
            id: r.int(0)?,
            kind: r.text(1)?,
            value: r.text(2)?,
            in_scope: r.opt_bool(3)?,
            first_seen: r.time(4)?,
            confidence: None,
            verification: verdict(r, 5)?,
            document,
        })
    };
    // Each row carries one relation declaring the node: the node's confidence is their highest.
    let add = &mut |node: &mut GraphNode, r: &SqlRow| -> Result<(), StoreError> {
        let status = node.verification.as_ref().and_then(|v| VerifyStatus::parse(&v.status));
        if let Some(s) = Facts::read(r, 32)?.scored(status, now) {
            node.confidence = Some(node.confidence.map_or(s.confidence, |c| c.max(s.confidence)));
        }
        Ok(())
    };
    fold_rows(store, &sql, &params, start, add, each)
}

/// Streams the relations the filter admits to `each`, sorted by (source, relation, target), with
/// their evidence (of the filter's scan only, when it names one), scored at `now`.
///
/// Errors: the store's; a malformed stored value; the first error `each` returns.
pub fn relations(
    store: &mut dyn Store,
    f: &GraphFilter,
    now: Timestamp,
    each: Each<'_, GraphRelation>,
) -> Result<(), StoreError> {
    let d = store.dialect();
    let (prelude, mut params) = prelude(d, f);
    let evidence_scan = match f.scan {
        Some(scan) => {
            params.push(Param::Int(scan));
            format!(" AND e.scan_id = {}", d.param(params.len()))
        }
        None => String::new(),
    };
    let sql = format!(
        "{prelude},
        {verdicts}
        SELECT s.id, src.id, src.kind, src.value, s.relation, t.id, t.kind, t.value, v.status, {FACT_COLUMNS},
               e.scan_id, e.probe, e.fetched_at, e.status, e.locator, {hints}, {flags}
        FROM kept s JOIN nodes src ON src.id = s.source_id JOIN nodes t ON t.id = s.target_id
        LEFT JOIN latest_v v ON v.node_id = s.target_id
        LEFT JOIN evidence e ON e.relation_id = s.id{evidence_scan}
        ORDER BY {sk}, {sv}, {rr}, {tk}, {tv}, s.id, e.id",
        verdicts = latest_verdicts(d, "v.node_id IN (SELECT target_id FROM kept)"),
        hints = d.json("e.hints"),
        flags = d.json("e.flags"),
        sk = d.sort("src.kind"),
        sv = d.sort("src.value"),
        rr = d.sort("s.relation"),
        tk = d.sort("t.kind"),
        tv = d.sort("t.value"),
    );
    let start = &mut |r: &SqlRow| -> Result<GraphRelation, StoreError> {
        let status = r.opt_text(8)?.as_deref().and_then(VerifyStatus::parse);
        Ok(GraphRelation {
            id: r.int(0)?,
            source: (r.int(1)?, r.text(2)?, r.text(3)?),
            relation: r.text(4)?,
            target: (r.int(5)?, r.text(6)?, r.text(7)?),
            score: Facts::read(r, 9)?.scored(status, now),
            evidence: Vec::new(),
        })
    };
    // Each row carries one evidence row of the relation (none: NULL columns).
    let add = &mut |rel: &mut GraphRelation, r: &SqlRow| -> Result<(), StoreError> {
        if let Some(scan) = r.opt_int(14)? {
            rel.evidence.push(GraphEvidence {
                scan,
                document_url: rel.source.2.clone(),
                probe: r.text(15)?,
                fetched_at: r.time(16)?,
                status: r.opt_status(17)?,
                locator: r.opt_text(18)?.filter(|l| !l.is_empty()),
                hints: r.text(19)?,
                flags: r.text(20)?,
            });
        }
        Ok(())
    };
    fold_rows(store, &sql, &params, start, add, each)
}

/// Streams the virtual-host attempts (of the filter's scan only, when it names one), in the order
/// they were recorded. None when the filter names a kind other than `host`.
///
/// Errors: the store's; a malformed stored value; the first error `each` returns.
pub fn vhosts(store: &mut dyn Store, f: &GraphFilter, each: Each<'_, VhostRow>) -> Result<(), StoreError> {
    if f.kind.as_deref().is_some_and(|k| k != "host") {
        return Ok(());
    }
    let d = store.dialect();
    let (filter, params) = match f.scan {
        Some(scan) => (format!(" WHERE scan_id = {}", d.param(1)), vec![Param::Int(scan)]),
        None => (String::new(), Vec::new()),
    };
    let sql = format!(
        "SELECT scan_id, host, origin, revealed_by, address, answers, status, failure_class, checked_at
         FROM vhosts{filter} ORDER BY id"
    );
    store.stream(&sql, &params, &mut |r: &SqlRow| {
        each(VhostRow {
            scan: r.int(0)?,
            host: r.text(1)?,
            origin: r.text(2)?,
            revealed_by: r.text(3)?,
            address: r.text(4)?,
            answers: r.opt_bool(5)?.unwrap_or(false),
            status: r.opt_status(6)?,
            failure_class: r.opt_text(7)?,
            checked_at: r.time(8)?,
        })
    })
}
