//! Writes, batched: one [`wellknown_store::Store::write`] batch becomes at most one set-based
//! statement per table (`INSERT ... SELECT ... FROM unnest($1, $2, ...)`, the rows passed as arrays),
//! plus two look-ups, in one transaction, instead of one round trip per row.
//!
//! The result is the one the SQLite store reaches by applying the writes one by one: rows with the
//! same key are folded first, in batch order, by the rule each upsert applies (a unit's `done`
//! state sticks, its depth is the least, its revealer the first; a document, verification or
//! virtual-host attempt takes its last values, keeping a virtual host's first origin and revealer;
//! a node keeps its first time and takes the last known scope; a relation keeps its first time;
//! evidence and diagnostics are inserted or ignored). A diagnostic or evidence names its document
//! by (probe, URL): the latest document of the scan with that final URL written before it in the
//! batch, else one stored before the batch, else one with that requested URL (the evidence of a
//! redirect that was not followed names the document that redirected).
//!
//! Node and relation rows are written in key order, so two workers upserting overlapping values take
//! their row locks in the same order; a deadlock or serialization failure still retries the whole
//! batch (at most [`ATTEMPTS`] times).

use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{Client, GenericClient, Transaction};
use wellknown_core::Timestamp;
use wellknown_store::{
    DOCUMENT_NODE, DocumentRow, Lease, RelationWrite, ScanId, StoreError, UnitRow, UnitState, VerificationRow,
    VhostRow, Write,
};

use crate::prepared::{Cache, Prepared};
use crate::{lease, pg_error};

/// A transaction with its connection's prepared statements.
pub(crate) type Tx<'a, 'b> = Prepared<'a, Transaction<'b>>;

/// How many times a batch is tried when the server aborts it for a deadlock or a serialization
/// failure.
pub const ATTEMPTS: usize = 5;

type Params<'a> = Vec<&'a (dyn ToSql + Sync)>;

/// Why a batch failed: the server (maybe worth retrying) or the batch itself.
pub(crate) enum Failure {
    Server(&'static str, postgres::Error),
    Batch(StoreError),
}

impl Failure {
    fn retryable(&self) -> bool {
        use postgres::error::SqlState;
        matches!(self, Failure::Server(_, e) if e.code() == Some(&SqlState::T_R_DEADLOCK_DETECTED)
            || e.code() == Some(&SqlState::T_R_SERIALIZATION_FAILURE))
    }

    fn into_error(self) -> StoreError {
        match self {
            Failure::Server(what, e) => pg_error(what, &e),
            Failure::Batch(e) => e,
        }
    }
}

pub(crate) fn server(what: &'static str) -> impl Fn(postgres::Error) -> Failure {
    move |e| Failure::Server(what, e)
}

/// Records a new scan, its seed units and (when given) its lease, in one transaction.
pub(crate) fn insert_scan(
    client: &mut Client,
    cache: &mut Cache,
    started_at: Timestamp,
    plan: &serde_json::Value,
    seeds: &[UnitRow],
    lease: Option<&Lease>,
) -> Result<ScanId, StoreError> {
    let mut tx = client.transaction().map_err(|e| pg_error("recording the scan", &e))?;
    let id: ScanId = tx
        .query_one(
            "INSERT INTO scans (started_at, plan) VALUES ($1, $2::text::json) RETURNING id",
            &[&started_at, &plan.to_string()],
        )
        .map_err(|e| pg_error("recording the scan", &e))?
        .get(0);
    if let Some(lease) = lease {
        lease::put(&mut tx, id, lease)?;
    }
    let seeds: Vec<&UnitRow> = seeds.iter().collect();
    units(&mut Prepared::new(&mut tx, cache), id, &seeds, &[]).map_err(Failure::into_error)?;
    tx.commit().map_err(|e| pg_error("recording the scan", &e))?;
    Ok(id)
}

/// [`wellknown_store::Store::write`]: the batch in one transaction, retried on a deadlock.
pub(crate) fn apply(client: &mut Client, cache: &mut Cache, scan: ScanId, writes: &[Write]) -> Result<(), StoreError> {
    apply_then(client, cache, scan, writes, &[], |_| Ok(()))
}

/// The batch `writes` and then `then` in one transaction, retried on a deadlock or a serialization
/// failure (at most [`ATTEMPTS`] times). The `unit_groups` rows of `lock` (scan `scan`) are locked
/// with the groups the batch gives a pending unit, in one statement and one order ([`units`]): so a
/// transaction that also releases groups does not deadlock with a writer reopening them (one that
/// still does, e.g. two writers creating the same new groups in other orders, is retried).
pub(crate) fn apply_then(
    client: &mut Client,
    cache: &mut Cache,
    scan: ScanId,
    writes: &[Write],
    lock: &[String],
    mut then: impl FnMut(&mut Tx<'_, '_>) -> Result<(), Failure>,
) -> Result<(), StoreError> {
    retried(|| {
        let mut tx = client.transaction().map_err(server("starting a transaction"))?;
        let mut p = Prepared::new(&mut tx, cache);
        apply_in(&mut p, scan, writes, lock).and_then(|()| then(&mut p))?;
        tx.commit().map_err(server("committing"))
    })
}

/// Runs `attempt` (one transaction) until it succeeds, fails for another reason than a deadlock or
/// a serialization failure, or has been tried [`ATTEMPTS`] times.
///
/// Errors: the last attempt's.
pub(crate) fn retried<T>(mut attempt: impl FnMut() -> Result<T, Failure>) -> Result<T, StoreError> {
    let mut tried = 0;
    loop {
        tried += 1;
        match attempt() {
            Err(f) if f.retryable() && tried < ATTEMPTS => continue,
            done => return done.map_err(Failure::into_error),
        }
    }
}

fn apply_in(tx: &mut Tx<'_, '_>, scan: ScanId, writes: &[Write], lock: &[String]) -> Result<(), Failure> {
    let unit_rows: Vec<&UnitRow> =
        writes.iter().filter_map(|w| if let Write::Unit(u) = w { Some(u) } else { None }).collect();
    units(tx, scan, &unit_rows, lock)?;
    let doc_ids = documents(tx, scan, writes)?;
    let refs = resolve_documents(tx, scan, writes, &doc_ids)?;
    // Relations whose document is unknown fail the batch, as in SQLite.
    for (i, w) in writes.iter().enumerate() {
        if let Write::Relation(r) = w
            && !refs.contains_key(&i)
        {
            return Err(Failure::Batch(StoreError::new(format!(
                "evidence for {} {} names document {} ({}) that this scan has not recorded",
                r.kind, r.value, r.document_url, r.probe
            ))));
        }
    }
    let node_ids = nodes(tx, writes)?;
    let rel_ids = relations(tx, writes, &node_ids)?;
    evidence(tx, scan, writes, &refs, &node_ids, &rel_ids)?;
    diagnostics(tx, writes, &refs)?;
    verifications(tx, scan, writes, &node_ids)?;
    vhosts(tx, scan, writes)
}

/// Upserts units, folded by key in batch order. A unit's state only moves forward: `done` stays
/// done, and a `pending` unit stays pending until it is done (a worker that did not know another
/// worker had queued it may record it again `beyond_depth` or `over_budget`, from a deeper or a
/// spent revealer); recorded states become `pending` when a revealer queues the unit.
///
/// Each unit's group is created when new (open when this batch gives it a pending unit). Then the
/// rows of the groups gaining a pending unit, and of `lock`, are locked in group order (the order of
/// every other locker of these rows) and the former reopened: a release that
/// computes whether a group is still open either runs before this transaction's lock (it closes
/// the group, which is reopened here once it commits) or waits for this transaction to commit and
/// then sees its units (`work::release_groups`).
fn units<C: GenericClient>(
    tx: &mut Prepared<'_, C>,
    scan: ScanId,
    rows: &[&UnitRow],
    lock: &[String],
) -> Result<(), Failure> {
    if rows.is_empty() {
        return lock_groups(tx, scan, lock.iter().map(String::as_str).collect());
    }
    let mut folded: Vec<UnitRow> = Vec::new();
    let mut at: HashMap<(&str, &str), usize> = HashMap::new();
    for u in rows {
        match at.get(&(u.kind.as_str(), u.value.as_str())) {
            Some(&i) => {
                let f = &mut folded[i];
                let stays = f.state == UnitState::Done || (f.state == UnitState::Pending && u.state != UnitState::Done);
                if !stays {
                    f.state = u.state;
                }
                f.depth = f.depth.min(u.depth);
                if f.revealed_by.is_none() {
                    f.revealed_by.clone_from(&u.revealed_by);
                }
                f.in_scope = u.in_scope;
            }
            None => {
                at.insert((u.kind.as_str(), u.value.as_str()), folded.len());
                folded.push((*u).clone());
            }
        }
    }
    let kind: Vec<&str> = folded.iter().map(|u| u.kind.as_str()).collect();
    let value: Vec<&str> = folded.iter().map(|u| u.value.as_str()).collect();
    let depth: Vec<i32> = folded.iter().map(|u| i32::try_from(u.depth).unwrap_or(i32::MAX)).collect();
    let revealed: Vec<Option<&str>> = folded.iter().map(|u| u.revealed_by.as_deref()).collect();
    let state: Vec<&str> = folded.iter().map(|u| u.state.as_str()).collect();
    let in_scope: Vec<bool> = folded.iter().map(|u| u.in_scope).collect();
    let group: Vec<String> = folded.iter().map(|u| crate::work::group_of(u.kind.as_str(), &u.value)).collect();
    // In order of first appearance: workers lease groups in that order.
    let mut seen = std::collections::HashSet::new();
    let groups: Vec<&str> = group.iter().map(String::as_str).filter(|g| seen.insert(*g)).collect();
    // A new group is open when this write gives it a pending unit (a group of recorded units only,
    // out of scope or beyond depth, has nothing to lease).
    let pending_in: std::collections::HashSet<&str> =
        folded.iter().zip(&group).filter(|(u, _)| u.state == UnitState::Pending).map(|(_, g)| g.as_str()).collect();
    let open: Vec<bool> = groups.iter().map(|g| pending_in.contains(g)).collect();
    // The groups and the units in one statement (units name their group by value: no foreign key
    // waits for the group row).
    tx.execute(
        "WITH new_groups AS (
           INSERT INTO unit_groups (scan_id, grp, open)
           SELECT $1, g.grp, g.open FROM unnest($9::text[], $10::bool[]) WITH ORDINALITY AS g(grp, open, ord)
           ORDER BY g.ord
           ON CONFLICT DO NOTHING
         )
         INSERT INTO units (scan_id, kind, value, depth, revealed_by, state, in_scope, grp, done_at)
         SELECT $1, u.kind, u.value, u.depth, u.revealed_by, u.state, u.in_scope, u.grp,
                CASE WHEN u.state = 'done' THEN now() END
         FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bool[], $8::text[])
              WITH ORDINALITY AS u(kind, value, depth, revealed_by, state, in_scope, grp, ord)
         ORDER BY u.ord
         ON CONFLICT (scan_id, kind, value) DO UPDATE SET
           state = CASE WHEN units.state = 'done' THEN 'done'
                        WHEN units.state = 'pending' AND excluded.state <> 'done' THEN 'pending'
                        ELSE excluded.state END,
           depth = LEAST(units.depth, excluded.depth),
           revealed_by = COALESCE(units.revealed_by, excluded.revealed_by),
           in_scope = excluded.in_scope,
           done_at = CASE WHEN units.state <> 'done' AND excluded.state = 'done' THEN now() ELSE units.done_at END",
        &[&scan, &kind, &value, &depth, &revealed, &state, &in_scope, &group, &groups, &open],
    )
    .map_err(server("writing units"))?;
    let mut reopened: Vec<&str> = pending_in.into_iter().collect();
    reopened.sort_unstable();
    lock_groups(tx, scan, reopened.iter().copied().chain(lock.iter().map(String::as_str)).collect())?;
    if !reopened.is_empty() {
        tx.execute(
            "UPDATE unit_groups SET open = true WHERE scan_id = $1 AND grp = ANY($2) AND NOT open",
            &[&scan, &reopened],
        )
        .map_err(server("reopening unit groups"))?;
    }
    Ok(())
}

/// Locks the `unit_groups` rows of `groups` (scan `scan`) in group order, for this transaction
/// (nothing when `groups` is empty).
fn lock_groups<C: GenericClient>(tx: &mut Prepared<'_, C>, scan: ScanId, mut groups: Vec<&str>) -> Result<(), Failure> {
    if groups.is_empty() {
        return Ok(());
    }
    groups.sort_unstable();
    groups.dedup();
    tx.execute(
        "SELECT 1 FROM unit_groups WHERE scan_id = $1 AND grp = ANY($2) ORDER BY grp FOR UPDATE",
        &[&scan, &groups],
    )
    .map_err(server("locking unit groups"))?;
    Ok(())
}

/// Upserts documents (the last write of a key wins); their ids by (probe, requested URL, via).
fn documents<'w>(
    tx: &mut Tx<'_, '_>,
    scan: ScanId,
    writes: &'w [Write],
) -> Result<HashMap<(&'w str, &'w str, &'w str), i64>, Failure> {
    let mut folded: Vec<&DocumentRow> = Vec::new();
    let mut at: HashMap<(&str, &str, &str), usize> = HashMap::new();
    for w in writes {
        if let Write::Document(d) = w {
            let key = (d.probe.as_str(), d.requested_url.as_str(), d.via.as_str());
            match at.get(&key) {
                Some(&i) => folded[i] = d,
                None => {
                    at.insert(key, folded.len());
                    folded.push(d);
                }
            }
        }
    }
    let mut ids = HashMap::new();
    if folded.is_empty() {
        return Ok(ids);
    }
    let col = |f: fn(&DocumentRow) -> Option<&str>| folded.iter().map(|d| f(d)).collect::<Vec<_>>();
    let origin = col(|d| Some(&d.origin));
    let probe = col(|d| Some(&d.probe));
    let role = col(|d| Some(&d.role));
    let requested = col(|d| Some(&d.requested_url));
    let url = col(|d| Some(&d.url));
    let chain = col(|d| Some(&d.redirect_chain));
    let content_type = col(|d| d.content_type.as_deref());
    let sha = col(|d| d.sha256.as_deref());
    let class = col(|d| d.failure_class.as_deref());
    let message = col(|d| d.failure_message.as_deref());
    let kind = col(|d| d.kind.as_deref());
    let facts = col(|d| Some(&d.facts));
    let via = col(|d| Some(&d.via));
    let hop: Vec<i32> = folded.iter().map(|d| i32::try_from(d.hop).unwrap_or(i32::MAX)).collect();
    let status: Vec<Option<i32>> = folded.iter().map(|d| d.status.map(i32::from)).collect();
    let size: Vec<i64> = folded.iter().map(|d| i64::try_from(d.size).unwrap_or(i64::MAX)).collect();
    let truncated: Vec<bool> = folded.iter().map(|d| d.truncated).collect();
    let fetched: Vec<Timestamp> = folded.iter().map(|d| d.fetched_at).collect();
    let valid: Vec<Option<bool>> = folded.iter().map(|d| d.valid).collect();
    let skipped: Vec<bool> = folded.iter().map(|d| d.not_attempted).collect();
    let params: Params<'_> = vec![
        &scan,
        &origin,
        &probe,
        &role,
        &hop,
        &requested,
        &url,
        &status,
        &chain,
        &content_type,
        &size,
        &sha,
        &truncated,
        &fetched,
        &class,
        &message,
        &kind,
        &valid,
        &facts,
        &via,
        &skipped,
    ];
    let rows = tx
        .query(
            "INSERT INTO documents (scan_id, origin, probe, role, hop, requested_url, url, status, redirect_chain,
               content_type, size, sha256, truncated, fetched_at, failure_class, failure_message, kind, valid,
               facts, via, not_attempted)
             SELECT $1, d.origin, d.probe, d.role, d.hop, d.requested_url, d.url, d.status, d.redirect_chain::json,
               d.content_type, d.size, d.sha256, d.truncated, d.fetched_at, d.failure_class, d.failure_message,
               d.kind, d.valid, d.facts::json, d.via, d.not_attempted
             FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::int[],
                         $9::text[], $10::text[], $11::int8[], $12::text[], $13::bool[], $14::timestamptz[],
                         $15::text[], $16::text[], $17::text[], $18::bool[], $19::text[], $20::text[], $21::bool[])
                  WITH ORDINALITY AS d(origin, probe, role, hop, requested_url, url, status, redirect_chain,
                    content_type, size, sha256, truncated, fetched_at, failure_class, failure_message, kind, valid,
                    facts, via, not_attempted, ord)
             ORDER BY d.ord
             ON CONFLICT (scan_id, probe, md5(requested_url), via) DO UPDATE SET
               origin = excluded.origin, role = excluded.role, hop = excluded.hop, url = excluded.url,
               status = excluded.status, redirect_chain = excluded.redirect_chain,
               content_type = excluded.content_type, size = excluded.size, sha256 = excluded.sha256,
               truncated = excluded.truncated, fetched_at = excluded.fetched_at,
               failure_class = excluded.failure_class, failure_message = excluded.failure_message,
               kind = excluded.kind, valid = excluded.valid, facts = excluded.facts,
               not_attempted = excluded.not_attempted
             RETURNING id, probe, requested_url, via",
            &params,
        )
        .map_err(server("writing documents"))?;
    for r in rows {
        let (p, q, v): (String, String, String) = (r.get(1), r.get(2), r.get(3));
        if let Some(&i) = at.get(&(p.as_str(), q.as_str(), v.as_str())) {
            let d = folded[i];
            ids.insert((d.probe.as_str(), d.requested_url.as_str(), d.via.as_str()), r.get::<_, i64>(0));
        }
    }
    Ok(ids)
}

/// The document id each diagnostic and relation write (by batch position) names, where one exists.
fn resolve_documents(
    tx: &mut Tx<'_, '_>,
    scan: ScanId,
    writes: &[Write],
    doc_ids: &HashMap<(&str, &str, &str), i64>,
) -> Result<HashMap<usize, i64>, Failure> {
    let mut by_url: HashMap<(&str, &str), i64> = HashMap::new();
    let mut by_requested: HashMap<(&str, &str), i64> = HashMap::new();
    let mut found = HashMap::new();
    // (position, probe, URL, what the batch so far has under that requested URL)
    let mut open: Vec<(usize, &str, &str, Option<i64>)> = Vec::new();
    for (i, w) in writes.iter().enumerate() {
        let (probe, url) = match w {
            Write::Document(d) => {
                if let Some(&id) = doc_ids.get(&(d.probe.as_str(), d.requested_url.as_str(), d.via.as_str())) {
                    by_url.insert((d.probe.as_str(), d.url.as_str()), id);
                    by_requested.insert((d.probe.as_str(), d.requested_url.as_str()), id);
                }
                continue;
            }
            Write::Diagnostic(d) => (d.probe.as_str(), d.document_url.as_str()),
            Write::Relation(r) => (r.probe.as_str(), r.document_url.as_str()),
            _ => continue,
        };
        match by_url.get(&(probe, url)) {
            Some(&id) => {
                found.insert(i, id);
            }
            None => open.push((i, probe, url, by_requested.get(&(probe, url)).copied())),
        }
    }
    if open.is_empty() {
        return Ok(found);
    }
    let written: Vec<i64> = doc_ids.values().copied().collect();
    let probes: Vec<&str> = open.iter().map(|o| o.1).collect();
    let urls: Vec<&str> = open.iter().map(|o| o.2).collect();
    let rows = tx
        .query(
            "SELECT k.ord,
               (SELECT d.id FROM documents d WHERE d.scan_id = $1 AND d.probe = k.probe AND md5(d.url) = md5(k.url)
                  AND d.url = k.url AND d.id <> ALL($4) ORDER BY d.id DESC LIMIT 1),
               (SELECT d.id FROM documents d WHERE d.scan_id = $1 AND d.probe = k.probe
                  AND md5(d.requested_url) = md5(k.url) AND d.requested_url = k.url AND d.id <> ALL($4)
                  ORDER BY d.id DESC LIMIT 1)
             FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS k(probe, url, ord)",
            &[&scan, &probes, &urls, &written],
        )
        .map_err(server("finding documents"))?;
    for r in rows {
        let Ok(k) = usize::try_from(r.get::<_, i64>(0) - 1) else { continue };
        let Some(&(i, _, _, batch_requested)) = open.get(k) else { continue };
        let stored_url: Option<i64> = r.get(1);
        let stored_requested: Option<i64> = r.get(2);
        if let Some(id) = stored_url.or(batch_requested).or(stored_requested) {
            found.insert(i, id);
        }
    }
    Ok(found)
}

/// Node keys of the batch: documents declaring relations, their values, verified values.
fn node_keys(writes: &[Write]) -> Vec<(&str, &str, Option<bool>, Timestamp)> {
    let mut out = Vec::new();
    for w in writes {
        match w {
            Write::Relation(r) => {
                out.push((DOCUMENT_NODE, r.document_url.as_str(), None, r.fetched_at));
                out.push((r.kind.as_str(), r.value.as_str(), r.in_scope, r.fetched_at));
            }
            Write::Verification(v) => out.push((v.kind.as_str(), v.value.as_str(), None, v.verified_at)),
            _ => {}
        }
    }
    out
}

type NodeIds<'w> = HashMap<(&'w str, &'w str), i64>;

/// Upserts nodes (first time kept, last known scope taken), in key order; their ids.
fn nodes<'w>(tx: &mut Tx<'_, '_>, writes: &'w [Write]) -> Result<NodeIds<'w>, Failure> {
    let mut folded: HashMap<(&str, &str), (Option<bool>, Timestamp)> = HashMap::new();
    for (kind, value, scope, seen) in node_keys(writes) {
        let e = folded.entry((kind, value)).or_insert((scope, seen));
        if scope.is_some() {
            e.0 = scope;
        }
    }
    let mut ids = HashMap::new();
    if folded.is_empty() {
        return Ok(ids);
    }
    let mut keys: Vec<_> = folded.into_iter().collect();
    keys.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let kind: Vec<&str> = keys.iter().map(|k| k.0.0).collect();
    let value: Vec<&str> = keys.iter().map(|k| k.0.1).collect();
    let scope: Vec<Option<bool>> = keys.iter().map(|k| k.1.0).collect();
    let seen: Vec<Timestamp> = keys.iter().map(|k| k.1.1).collect();
    tx.execute(
        "INSERT INTO nodes (kind, value, in_scope, first_seen)
         SELECT n.kind, n.value, n.in_scope, n.first_seen
         FROM unnest($1::text[], $2::text[], $3::bool[], $4::timestamptz[]) WITH ORDINALITY AS n(kind, value, in_scope, first_seen, ord)
         ORDER BY n.ord
         ON CONFLICT (kind, md5(value)) DO UPDATE SET in_scope = excluded.in_scope
           WHERE excluded.in_scope IS NOT NULL AND excluded.in_scope IS DISTINCT FROM nodes.in_scope",
        &[&kind, &value, &scope, &seen],
    )
    .map_err(server("writing nodes"))?;
    let rows = tx
        .query(
            "SELECT k.ord, n.id FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(kind, value, ord)
             JOIN nodes n ON n.kind = k.kind AND md5(n.value) = md5(k.value) AND n.value = k.value",
            &[&kind, &value],
        )
        .map_err(server("reading node ids"))?;
    for r in rows {
        if let Some(k) = usize::try_from(r.get::<_, i64>(0) - 1).ok().and_then(|k| keys.get(k)) {
            ids.insert(k.0, r.get::<_, i64>(1));
        }
    }
    if ids.len() != keys.len() {
        return Err(Failure::Batch(StoreError::new(
            "a node value collides with another under md5() in the nodes key: not stored",
        )));
    }
    Ok(ids)
}

fn node_of<'w>(ids: &NodeIds<'w>, kind: &'w str, value: &'w str) -> Result<i64, Failure> {
    ids.get(&(kind, value))
        .copied()
        .ok_or_else(|| Failure::Batch(StoreError::new(format!("node {kind} {value} was not written"))))
}

type RelKey<'w> = (i64, &'w str, i64);

/// Upserts relations (first time kept), in key order; their ids.
fn relations<'w>(
    tx: &mut Tx<'_, '_>,
    writes: &'w [Write],
    node_ids: &NodeIds<'w>,
) -> Result<HashMap<RelKey<'w>, i64>, Failure> {
    let mut folded: HashMap<RelKey<'w>, Timestamp> = HashMap::new();
    for w in writes {
        if let Write::Relation(r) = w {
            let key = relation_key(r, node_ids)?;
            folded.entry(key).or_insert(r.fetched_at);
        }
    }
    let mut ids = HashMap::new();
    if folded.is_empty() {
        return Ok(ids);
    }
    let mut keys: Vec<_> = folded.into_iter().collect();
    keys.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let source: Vec<i64> = keys.iter().map(|k| k.0.0).collect();
    let relation: Vec<&str> = keys.iter().map(|k| k.0.1).collect();
    let target: Vec<i64> = keys.iter().map(|k| k.0.2).collect();
    let seen: Vec<Timestamp> = keys.iter().map(|k| k.1).collect();
    tx.execute(
        "INSERT INTO relations (source_id, relation, target_id, first_seen)
         SELECT r.source_id, r.relation, r.target_id, r.first_seen
         FROM unnest($1::int8[], $2::text[], $3::int8[], $4::timestamptz[]) WITH ORDINALITY AS r(source_id, relation, target_id, first_seen, ord)
         ORDER BY r.ord
         ON CONFLICT (source_id, relation, target_id) DO NOTHING",
        &[&source, &relation, &target, &seen],
    )
    .map_err(server("writing relations"))?;
    let rows = tx
        .query(
            "SELECT k.ord, r.id FROM unnest($1::int8[], $2::text[], $3::int8[]) WITH ORDINALITY AS k(source_id, relation, target_id, ord)
             JOIN relations r ON r.source_id = k.source_id AND r.relation = k.relation AND r.target_id = k.target_id",
            &[&source, &relation, &target],
        )
        .map_err(server("reading relation ids"))?;
    for r in rows {
        if let Some(k) = usize::try_from(r.get::<_, i64>(0) - 1).ok().and_then(|k| keys.get(k)) {
            ids.insert(k.0, r.get::<_, i64>(1));
        }
    }
    Ok(ids)
}

fn relation_key<'w>(r: &'w RelationWrite, node_ids: &NodeIds<'w>) -> Result<RelKey<'w>, Failure> {
    let source = node_of(node_ids, DOCUMENT_NODE, &r.document_url)?;
    let target = node_of(node_ids, r.kind.as_str(), &r.value)?;
    Ok((source, r.relation.as_str(), target))
}

/// Appends evidence (inserted or ignored), in batch order.
fn evidence<'w>(
    tx: &mut Tx<'_, '_>,
    scan: ScanId,
    writes: &'w [Write],
    refs: &HashMap<usize, i64>,
    node_ids: &NodeIds<'w>,
    rel_ids: &HashMap<RelKey<'w>, i64>,
) -> Result<(), Failure> {
    let (mut rel, mut doc, mut probe, mut fetched, mut status, mut locator, mut hints, mut flags) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, w) in writes.iter().enumerate() {
        let Write::Relation(r) = w else { continue };
        let (Some(&d), Some(&id)) = (refs.get(&i), rel_ids.get(&relation_key(r, node_ids)?)) else {
            return Err(Failure::Batch(StoreError::new(format!("relation of {} {} was not written", r.kind, r.value))));
        };
        rel.push(id);
        doc.push(d);
        probe.push(r.probe.as_str());
        fetched.push(r.fetched_at);
        status.push(r.status.map(i32::from));
        locator.push(r.locator.as_deref().unwrap_or_default());
        hints.push(r.hints.as_str());
        flags.push(r.flags.as_str());
    }
    if rel.is_empty() {
        return Ok(());
    }
    tx.execute(
        "INSERT INTO evidence (relation_id, scan_id, document_id, probe, fetched_at, status, locator, hints, flags)
         SELECT e.relation_id, $1, e.document_id, e.probe, e.fetched_at, e.status, e.locator, e.hints::json, e.flags::json
         FROM unnest($2::int8[], $3::int8[], $4::text[], $5::timestamptz[], $6::int[], $7::text[], $8::text[], $9::text[])
              WITH ORDINALITY AS e(relation_id, document_id, probe, fetched_at, status, locator, hints, flags, ord)
         ORDER BY e.ord
         ON CONFLICT DO NOTHING",
        &[&scan, &rel, &doc, &probe, &fetched, &status, &locator, &hints, &flags],
    )
    .map_err(server("writing evidence"))?;
    Ok(())
}

/// Inserts diagnostics of known documents (inserted or ignored; one naming no document is dropped,
/// as in SQLite).
fn diagnostics(tx: &mut Tx<'_, '_>, writes: &[Write], refs: &HashMap<usize, i64>) -> Result<(), Failure> {
    let (mut doc, mut severity, mut code, mut message, mut locator) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, w) in writes.iter().enumerate() {
        let Write::Diagnostic(d) = w else { continue };
        let Some(&id) = refs.get(&i) else { continue };
        doc.push(id);
        severity.push(d.severity.as_str());
        code.push(d.code.as_str());
        message.push(d.message.as_str());
        locator.push(d.locator.as_deref().unwrap_or_default());
    }
    if doc.is_empty() {
        return Ok(());
    }
    tx.execute(
        "INSERT INTO diagnostics (document_id, severity, code, message, locator)
         SELECT d.document_id, d.severity, d.code, d.message, d.locator
         FROM unnest($1::int8[], $2::text[], $3::text[], $4::text[], $5::text[])
              WITH ORDINALITY AS d(document_id, severity, code, message, locator, ord)
         ORDER BY d.ord
         ON CONFLICT DO NOTHING",
        &[&doc, &severity, &code, &message, &locator],
    )
    .map_err(server("writing diagnostics"))?;
    Ok(())
}

/// Upserts verdicts, one per node (the last of the batch wins).
fn verifications<'w>(
    tx: &mut Tx<'_, '_>,
    scan: ScanId,
    writes: &'w [Write],
    node_ids: &NodeIds<'w>,
) -> Result<(), Failure> {
    let mut folded: Vec<(i64, &VerificationRow)> = Vec::new();
    let mut at: HashMap<i64, usize> = HashMap::new();
    for w in writes {
        let Write::Verification(v) = w else { continue };
        let node = node_of(node_ids, v.kind.as_str(), &v.value)?;
        match at.get(&node) {
            Some(&i) => folded[i].1 = v,
            None => {
                at.insert(node, folded.len());
                folded.push((node, v));
            }
        }
    }
    if folded.is_empty() {
        return Ok(());
    }
    let node: Vec<i64> = folded.iter().map(|f| f.0).collect();
    let col = |f: fn(&VerificationRow) -> Option<&str>| folded.iter().map(|v| f(v.1)).collect::<Vec<_>>();
    let status = col(|v| Some(v.status.as_str()));
    let target = col(|v| v.target.as_deref());
    let method = col(|v| v.method.map(|m| m.as_str()));
    let class = col(|v| v.failure_class.as_deref());
    let message = col(|v| v.failure_message.as_deref());
    let source = col(|v| Some(v.source.as_str()));
    let http: Vec<Option<i32>> = folded.iter().map(|f| f.1.http_status.map(i32::from)).collect();
    let at_: Vec<Timestamp> = folded.iter().map(|f| f.1.verified_at).collect();
    tx.execute(
        "INSERT INTO verifications (node_id, scan_id, status, http_status, target, method, failure_class,
           failure_message, source, verified_at)
         SELECT v.node_id, $1, v.status, v.http_status, v.target, v.method, v.failure_class, v.failure_message,
           v.source, v.verified_at
         FROM unnest($2::int8[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                     $10::timestamptz[])
              WITH ORDINALITY AS v(node_id, status, http_status, target, method, failure_class, failure_message,
                source, verified_at, ord)
         ORDER BY v.ord
         ON CONFLICT (node_id, scan_id) DO UPDATE SET
           status = excluded.status, http_status = excluded.http_status, target = excluded.target,
           method = excluded.method, failure_class = excluded.failure_class,
           failure_message = excluded.failure_message, source = excluded.source, verified_at = excluded.verified_at",
        &[&scan, &node, &status, &http, &target, &method, &class, &message, &source, &at_],
    )
    .map_err(server("writing verifications"))?;
    Ok(())
}

/// Upserts virtual-host attempts (first origin and revealer kept, the rest from the last write).
fn vhosts(tx: &mut Tx<'_, '_>, scan: ScanId, writes: &[Write]) -> Result<(), Failure> {
    let mut folded: Vec<VhostRow> = Vec::new();
    let mut at: HashMap<(&str, &str), usize> = HashMap::new();
    for w in writes {
        let Write::Vhost(v) = w else { continue };
        match at.get(&(v.host.as_str(), v.address.as_str())) {
            Some(&i) => {
                let f = &mut folded[i];
                f.answers = v.answers;
                f.status = v.status;
                f.failure_class.clone_from(&v.failure_class);
                f.checked_at = v.checked_at;
            }
            None => {
                at.insert((v.host.as_str(), v.address.as_str()), folded.len());
                folded.push(v.clone());
            }
        }
    }
    if folded.is_empty() {
        return Ok(());
    }
    let host: Vec<&str> = folded.iter().map(|v| v.host.as_str()).collect();
    let origin: Vec<&str> = folded.iter().map(|v| v.origin.as_str()).collect();
    let revealed: Vec<&str> = folded.iter().map(|v| v.revealed_by.as_str()).collect();
    let address: Vec<&str> = folded.iter().map(|v| v.address.as_str()).collect();
    let answers: Vec<bool> = folded.iter().map(|v| v.answers).collect();
    let status: Vec<Option<i32>> = folded.iter().map(|v| v.status.map(i32::from)).collect();
    let class: Vec<Option<&str>> = folded.iter().map(|v| v.failure_class.as_deref()).collect();
    let checked: Vec<Timestamp> = folded.iter().map(|v| v.checked_at).collect();
    tx.execute(
        "INSERT INTO vhosts (scan_id, host, origin, revealed_by, address, answers, status, failure_class, checked_at)
         SELECT $1, v.host, v.origin, v.revealed_by, v.address, v.answers, v.status, v.failure_class, v.checked_at
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::int[], $8::text[],
                     $9::timestamptz[])
              WITH ORDINALITY AS v(host, origin, revealed_by, address, answers, status, failure_class, checked_at, ord)
         ORDER BY v.ord
         ON CONFLICT (scan_id, host, address) DO UPDATE SET
           answers = excluded.answers, status = excluded.status,
           failure_class = excluded.failure_class, checked_at = excluded.checked_at",
        &[&scan, &host, &origin, &revealed, &address, &answers, &status, &class, &checked],
    )
    .map_err(server("writing virtual-host attempts"))?;
    Ok(())
}
