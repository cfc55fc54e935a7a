//! `wellknown candidates` as one streamed statement: the candidate nodes the query admits, each
//! with one row per relation declaring it (its facts, declaring document and latest flags) and its
//! latest verdict, sorted by (kind, value); rows of one node are folded into one
//! [`CandidateRow`] as they arrive.

use std::collections::BTreeSet;

use wellknown_core::Timestamp;
use wellknown_records::VerifyStatus;

use super::facts::{FACT_COLUMNS, Facts, latest_verdicts, scored_ctes};
use super::{Dialect, Each, Param, SqlRow, fold_rows};
use crate::analysis::{CandidateQuery, CandidateRow, OUT_OF_SCOPE, UNVERIFIED};
use crate::model::DOCUMENT_NODE;
use crate::{Store, StoreError};

/// The statement and its parameters.
fn statement(d: Dialect, q: &CandidateQuery) -> (String, Vec<Param>) {
    let mut params = vec![Param::Text(DOCUMENT_NODE.to_string())];
    let mut filter = format!("n.kind <> {}", d.param(1));
    if let Some(k) = &q.kind {
        params.push(Param::Text(k.clone()));
        filter.push_str(&format!(" AND n.kind = {}", d.param(params.len())));
    }
    if q.in_scope_only {
        filter.push_str(" AND n.in_scope IS TRUE");
    }
    let sql = format!(
        "WITH cand AS MATERIALIZED (SELECT n.id, n.kind, n.value, n.in_scope FROM nodes n WHERE {filter}),
        rel AS (SELECT r.id, r.source_id, r.target_id, r.relation FROM relations r JOIN cand ON cand.id = r.target_id),
        {scored},
        latest_flags AS (
            SELECT e.relation_id, {flags} AS flags
            FROM evidence e JOIN ev ON ev.relation_id = e.relation_id AND {fetched} = ev.last_seen
            GROUP BY e.relation_id),
        {verdicts}
        SELECT c.id, c.kind, c.value, c.in_scope, v.status, v.http_status, v.target,
               s.relation, src.value, lf.flags, {FACT_COLUMNS}
        FROM cand c
        LEFT JOIN latest_v v ON v.node_id = c.id
        LEFT JOIN scored s ON s.target_id = c.id
        LEFT JOIN nodes src ON src.id = s.source_id
        LEFT JOIN latest_flags lf ON lf.relation_id = s.id
        ORDER BY {kind}, {value}, c.id",
        scored = scored_ctes(d),
        flags = d.join_texts(&d.json("e.flags")),
        fetched = d.time("e.fetched_at"),
        verdicts = latest_verdicts(d, "v.node_id IN (SELECT id FROM cand)"),
        kind = d.sort("c.kind"),
        value = d.sort("c.value"),
    );
    (sql, params)
}

/// One candidate being folded from its rows.
struct Folding {
    row: CandidateRow,
    verification: Option<VerifyStatus>,
    relations: BTreeSet<String>,
    documents: BTreeSet<String>,
    flags: BTreeSet<String>,
}

impl Folding {
    fn start(r: &SqlRow) -> Result<Folding, StoreError> {
        let verdict = r.opt_text(4)?;
        let verification = verdict.as_deref().and_then(VerifyStatus::parse);
        let in_scope = r.opt_bool(3)?;
        let status = match (&verdict, in_scope) {
            (Some(v), _) => v.clone(),
            // Out-of-scope values are never requested, so never get a verdict of their own.
            (None, Some(false)) => OUT_OF_SCOPE.to_string(),
            (None, _) => UNVERIFIED.to_string(),
        };
        Ok(Folding {
            row: CandidateRow {
                kind: r.text(1)?,
                value: r.text(2)?,
                in_scope,
                status,
                http_status: r.opt_status(5)?,
                target: r.opt_text(6)?,
                confidence: 0.0,
                relations: Vec::new(),
                documents: Vec::new(),
                first_seen: None,
                last_seen: None,
                flags: Vec::new(),
            },
            verification,
            relations: BTreeSet::new(),
            documents: BTreeSet::new(),
            flags: BTreeSet::new(),
        })
    }

    /// Adds one declaring relation (a row with a NULL relation: the node has none).
    fn add(&mut self, r: &SqlRow, now: Timestamp) -> Result<(), StoreError> {
        let Some(relation) = r.opt_text(7)? else { return Ok(()) };
        self.relations.insert(relation);
        if let Some(doc) = r.opt_text(8)? {
            self.documents.insert(doc);
        }
        for list in r.joined(9)? {
            // A flags column that is not a JSON array of strings reads as none.
            self.flags.extend(serde_json::from_str::<Vec<String>>(&list).unwrap_or_default());
        }
        if let Some(s) = Facts::read(r, 10)?.scored(self.verification, now) {
            let row = &mut self.row;
            row.confidence = row.confidence.max(s.confidence);
            row.first_seen = Some(row.first_seen.map_or(s.first_seen, |f| f.min(s.first_seen)));
            row.last_seen = Some(row.last_seen.map_or(s.last_seen, |l| l.max(s.last_seen)));
        }
        Ok(())
    }

    fn finish(mut self) -> CandidateRow {
        self.row.relations = self.relations.into_iter().collect();
        self.row.documents = self.documents.into_iter().collect();
        self.row.flags = self.flags.into_iter().collect();
        self.row
    }
}

/// Streams the candidates matching `q` to `each`, sorted by kind then value, scored at `now`.
/// Memory holds one candidate at a time.
///
/// Errors: the store's; a malformed stored value; the first error `each` returns.
pub fn candidates(
    store: &mut dyn Store,
    q: &CandidateQuery,
    now: Timestamp,
    each: Each<'_, CandidateRow>,
) -> Result<(), StoreError> {
    let (sql, params) = statement(store.dialect(), q);
    fold_rows(store, &sql, &params, &mut Folding::start, &mut |f, r| f.add(r, now), &mut |f: Folding| {
        let row = f.finish();
        if q.status.as_deref().is_some_and(|s| s != row.status) {
            return Ok(());
        }
        each(row)
    })
}
