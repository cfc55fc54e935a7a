//! `wellknown diff` as six streamed statements, one per kind of change, run in the order the
//! changes sort in ([`Change`]'s order: documents, relations, verifications; appeared, changed,
//! disappeared), each sorted in the database.

use super::facts::answered;
use super::{Dialect, Each, Param, SqlRow};
use crate::analysis::Change;
use crate::confidence::Declaration;
use crate::model::ScanId;
use crate::{Store, StoreError};

/// SQL: a document's outcome in one word: its failure class, else its status, else `none`.
fn outcome(d: &str) -> String {
    format!("COALESCE({d}.failure_class, CAST({d}.status AS TEXT), 'none')")
}

/// SQL: documents `x` and `y` are the same document identity (probe, requested URL, route).
fn same_document(x: &str, y: &str) -> String {
    format!("{x}.probe = {y}.probe AND {x}.requested_url = {y}.requested_url AND {x}.via = {y}.via")
}

/// The statements, with what each yields: (`what`, `change`, SQL). Parameters: 1 is scan `a`, 2
/// scan `b`. Every statement selects kind, value, relation, document, from, to, reason.
fn statements(d: Dialect) -> Vec<(&'static str, &'static str, String)> {
    let (a, b) = (d.param(1), d.param(2));
    let s = |e: &str| d.sort(e);
    let docs_of = |scan: &str, other: &str, alias: &str, o: &str| {
        format!(
            "SELECT {alias}.probe, {alias}.requested_url, NULL, NULL, {from}, {to}, NULL FROM documents {alias}
             WHERE {alias}.scan_id = {scan}
               AND NOT EXISTS (SELECT 1 FROM documents {o} WHERE {o}.scan_id = {other} AND {same})
             ORDER BY {p}, {u}, {o_sort}",
            from = if alias == "da" { outcome(alias) } else { "NULL".into() },
            to = if alias == "db" { outcome(alias) } else { "NULL".into() },
            same = same_document(o, alias),
            p = s(&format!("{alias}.probe")),
            u = s(&format!("{alias}.requested_url")),
            o_sort = s(&outcome(alias)),
        )
    };
    let relation_in = |scan: &str| format!("SELECT DISTINCT relation_id FROM evidence WHERE scan_id = {scan}");
    vec![
        ("document", "appeared", docs_of(&b, &a, "db", "da")),
        (
            "document",
            "changed",
            format!(
                "SELECT db.probe, db.requested_url, NULL, NULL, {oa}, {ob}, NULL
                 FROM documents db JOIN documents da ON da.scan_id = {a} AND {same}
                 WHERE db.scan_id = {b} AND {oa} <> {ob}
                 ORDER BY {p}, {u}, {soa}, {sob}",
                oa = outcome("da"),
                ob = outcome("db"),
                same = same_document("da", "db"),
                p = s("db.probe"),
                u = s("db.requested_url"),
                soa = s(&outcome("da")),
                sob = s(&outcome("db")),
            ),
        ),
        ("document", "disappeared", docs_of(&a, &b, "da", "db")),
        (
            "relation",
            "appeared",
            format!(
                "WITH added AS ({rb} EXCEPT {ra})
                 SELECT t.kind, t.value, r.relation, src.value, NULL, NULL, NULL
                 FROM added JOIN relations r ON r.id = added.relation_id
                 JOIN nodes t ON t.id = r.target_id JOIN nodes src ON src.id = r.source_id
                 ORDER BY {tk}, {tv}, {rr}, {sv}",
                rb = relation_in(&b),
                ra = relation_in(&a),
                tk = s("t.kind"),
                tv = s("t.value"),
                rr = s("r.relation"),
                sv = s("src.value"),
            ),
        ),
        (
            "relation",
            "disappeared",
            // Why: the later scan fetched none of the documents that declared it (`not_fetched`),
            // one of them answered without it (withdrawn), or none answered (unanswered).
            format!(
                "WITH gone AS ({ra} EXCEPT {rb}),
                 keys AS (
                    SELECT DISTINCT e.relation_id, dd.probe, dd.requested_url, dd.via
                    FROM evidence e JOIN gone g ON g.relation_id = e.relation_id
                    JOIN documents dd ON dd.id = e.document_id),
                 fetched AS (
                    SELECT k.relation_id, MAX(CASE WHEN {answered} THEN 1 ELSE 0 END) AS answered
                    FROM keys k JOIN documents d ON d.scan_id = {b} AND {same}
                    GROUP BY k.relation_id),
                 why AS (
                    SELECT g.relation_id,
                           CASE WHEN f.relation_id IS NULL THEN 'not_fetched'
                                WHEN f.answered = 1 THEN '{withdrawn}' ELSE '{unanswered}' END AS reason
                    FROM gone g LEFT JOIN fetched f ON f.relation_id = g.relation_id)
                 SELECT t.kind, t.value, r.relation, src.value, NULL, NULL, why.reason
                 FROM why JOIN relations r ON r.id = why.relation_id
                 JOIN nodes t ON t.id = r.target_id JOIN nodes src ON src.id = r.source_id
                 ORDER BY {tk}, {tv}, {rr}, {sv}, {wr}",
                ra = relation_in(&a),
                rb = relation_in(&b),
                answered = answered("d"),
                same = same_document("d", "k"),
                withdrawn = Declaration::Withdrawn.as_str(),
                unanswered = Declaration::Unanswered.as_str(),
                tk = s("t.kind"),
                tv = s("t.value"),
                rr = s("r.relation"),
                sv = s("src.value"),
                wr = s("why.reason"),
            ),
        ),
        (
            "verification",
            "changed",
            format!(
                "SELECT n.kind, n.value, NULL, NULL, va.status, vb.status, NULL
                 FROM verifications vb JOIN verifications va ON va.node_id = vb.node_id AND va.scan_id = {a}
                 JOIN nodes n ON n.id = vb.node_id
                 WHERE vb.scan_id = {b} AND va.status <> vb.status
                 ORDER BY {nk}, {nv}, {fa}, {tb}",
                nk = s("n.kind"),
                nv = s("n.value"),
                fa = s("va.status"),
                tb = s("vb.status"),
            ),
        ),
    ]
}

/// Streams what changed from scan `a` to scan `b` to `each`, sorted: relations declared in one
/// and not the other (a disappeared one with why), documents that appeared, disappeared or
/// changed outcome, and verdicts that changed.
///
/// Errors: `a` or `b` is not a scan of the store; the store's; the first error `each` returns.
pub fn diff(store: &mut dyn Store, a: ScanId, b: ScanId, each: Each<'_, Change>) -> Result<(), StoreError> {
    let scans = store.scans()?;
    for s in [a, b] {
        if !scans.iter().any(|x| x.id == s) {
            return Err(StoreError::new(format!("no scan {s} in the store")));
        }
    }
    let params = [Param::Int(a), Param::Int(b)];
    for (what, change, sql) in statements(store.dialect()) {
        store.stream(&sql, &params, &mut |r: &SqlRow| {
            each(Change {
                what,
                change,
                kind: r.text(0)?,
                value: r.text(1)?,
                relation: r.opt_text(2)?,
                document: r.opt_text(3)?,
                from: r.opt_text(4)?,
                to: r.opt_text(5)?,
                reason: r.opt_text(6)?,
            })
        })?;
    }
    Ok(())
}
