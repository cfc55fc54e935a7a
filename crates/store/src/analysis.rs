//! Backend-neutral views of the graph: candidate lists (`wellknown candidates`) and the difference
//! between two scans (`wellknown diff`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;
use wellknown_core::Timestamp;
use wellknown_records::VerifyStatus;

use crate::confidence::{Declaration, latest_verifications, score_all};
use crate::model::{DOCUMENT_NODE, DocumentRow, GraphData, NodeRow, ScanId};

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

/// The candidates matching `q`, sorted by kind then value.
pub fn candidates(g: &GraphData, q: &CandidateQuery, now: Timestamp) -> Vec<CandidateRow> {
    let scores = score_all(g, now);
    let verdicts = latest_verifications(g);
    let nodes: HashMap<i64, &NodeRow> = g.nodes.iter().map(|n| (n.id, n)).collect();
    let mut incoming: HashMap<i64, Vec<i64>> = HashMap::new();
    for r in &g.relations {
        incoming.entry(r.target).or_default().push(r.id);
    }
    let relations: HashMap<i64, &crate::model::RelationRow> = g.relations.iter().map(|r| (r.id, r)).collect();
    let latest_flags = latest_flags(g);
    let mut out = Vec::new();
    for n in &g.nodes {
        if n.kind == DOCUMENT_NODE {
            continue;
        }
        if q.kind.as_deref().is_some_and(|k| k != n.kind) || (q.in_scope_only && n.in_scope != Some(true)) {
            continue;
        }
        let verdict = verdicts.get(&n.id);
        let status = match verdict {
            Some(v) => v.row.status.as_str().to_string(),
            // Out-of-scope values are never requested, so never get a verdict of their own.
            None if n.in_scope == Some(false) => OUT_OF_SCOPE.to_string(),
            None => UNVERIFIED.to_string(),
        };
        if q.status.as_deref().is_some_and(|s| s != status) {
            continue;
        }
        let rels = incoming.get(&n.id).map(Vec::as_slice).unwrap_or_default();
        let mut names = BTreeSet::new();
        let mut documents = BTreeSet::new();
        let mut flags = BTreeSet::new();
        let mut confidence: f64 = 0.0;
        let (mut first, mut last): (Option<Timestamp>, Option<Timestamp>) = (None, None);
        for id in rels {
            let Some(r) = relations.get(id) else { continue };
            names.insert(r.relation.clone());
            if let Some((_, fs)) = latest_flags.get(id) {
                flags.extend(fs.iter().cloned());
            }
            if let Some(src) = nodes.get(&r.source) {
                documents.insert(src.value.clone());
            }
            if let Some(s) = scores.get(id) {
                confidence = confidence.max(s.confidence);
                first = Some(first.map_or(s.first_seen, |f| f.min(s.first_seen)));
                last = Some(last.map_or(s.last_seen, |l| l.max(s.last_seen)));
            }
        }
        out.push(CandidateRow {
            kind: n.kind.clone(),
            value: n.value.clone(),
            in_scope: n.in_scope,
            status,
            http_status: verdict.and_then(|v| v.row.http_status),
            target: verdict.and_then(|v| v.row.target.clone()),
            confidence,
            relations: names.into_iter().collect(),
            documents: documents.into_iter().collect(),
            first_seen: first,
            last_seen: last,
            flags: flags.into_iter().collect(),
        });
    }
    out.sort_by(|a, b| (&a.kind, &a.value).cmp(&(&b.kind, &b.value)));
    out
}

/// Per relation id: the latest evidence time and the union of the flags of every evidence row
/// fetched at that time (a flags column that is not a JSON array of strings reads as none).
fn latest_flags(g: &GraphData) -> HashMap<i64, (Timestamp, BTreeSet<String>)> {
    let mut out: HashMap<i64, (Timestamp, BTreeSet<String>)> = HashMap::new();
    for e in &g.evidence {
        let fs: Vec<String> = serde_json::from_str(&e.flags).unwrap_or_default();
        let slot = out.entry(e.relation).or_insert_with(|| (e.fetched_at, BTreeSet::new()));
        if e.fetched_at > slot.0 {
            *slot = (e.fetched_at, BTreeSet::new());
        }
        if e.fetched_at == slot.0 {
            slot.1.extend(fs);
        }
    }
    out
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

/// A document's outcome in one word: its failure class, else its status, else `none`.
fn outcome(d: &DocumentRow) -> String {
    d.failure_class.clone().or_else(|| d.status.map(|s| s.to_string())).unwrap_or_else(|| "none".into())
}

/// What changed from scan `a` to scan `b`: relations declared in one and not the other, documents
/// that appeared, disappeared or changed outcome, and verdicts that changed. Sorted.
///
/// Errors: `a` or `b` is not a scan of the store.
pub fn diff(g: &GraphData, a: ScanId, b: ScanId) -> Result<Vec<Change>, String> {
    for s in [a, b] {
        if !g.scans.iter().any(|x| x.id == s) {
            return Err(format!("no scan {s} in the store"));
        }
    }
    let nodes: HashMap<i64, &NodeRow> = g.nodes.iter().map(|n| (n.id, n)).collect();
    let docs: HashMap<i64, &DocumentRow> = g.documents.iter().map(|d| (d.id, d)).collect();
    let mut out = Vec::new();

    // Documents, by identity (probe, requested URL, route).
    let per_scan = |s: ScanId| -> BTreeMap<(String, String, String), &DocumentRow> {
        g.documents
            .iter()
            .filter(|d| d.scan == s)
            .map(|d| ((d.probe.clone(), d.requested_url.clone(), d.via.clone()), d))
            .collect()
    };
    let (da, db) = (per_scan(a), per_scan(b));
    for (k, d) in &db {
        match da.get(k) {
            None => out.push(doc_change("appeared", d, None, Some(outcome(d)))),
            Some(old) if outcome(old) != outcome(d) => {
                out.push(doc_change("changed", d, Some(outcome(old)), Some(outcome(d))));
            }
            Some(_) => {}
        }
    }
    for (k, d) in &da {
        if !db.contains_key(k) {
            out.push(doc_change("disappeared", d, Some(outcome(d)), None));
        }
    }

    // Relations, by evidence in each scan.
    let in_scan =
        |s: ScanId| -> HashSet<i64> { g.evidence.iter().filter(|e| e.scan == s).map(|e| e.relation).collect() };
    let (ra, rb) = (in_scan(a), in_scan(b));
    // The source document identities each relation was declared by.
    let mut sources: HashMap<i64, HashSet<(String, String, String)>> = HashMap::new();
    for e in &g.evidence {
        if let Some(d) = docs.get(&e.document) {
            sources.entry(e.relation).or_default().insert((d.probe.clone(), d.requested_url.clone(), d.via.clone()));
        }
    }
    for r in &g.relations {
        let (was, is) = (ra.contains(&r.id), rb.contains(&r.id));
        if was == is {
            continue;
        }
        let (Some(src), Some(tgt)) = (nodes.get(&r.source), nodes.get(&r.target)) else { continue };
        let reason = (!is).then(|| {
            let keys = sources.get(&r.id);
            let fetched: Vec<&&DocumentRow> =
                keys.map(|ks| ks.iter().filter_map(|k| db.get(k)).collect()).unwrap_or_default();
            if fetched.is_empty() {
                "not_fetched"
            } else if fetched.iter().any(|d| d.answered()) {
                Declaration::Withdrawn.as_str()
            } else {
                Declaration::Unanswered.as_str()
            }
            .to_string()
        });
        out.push(Change {
            what: "relation",
            change: if is { "appeared" } else { "disappeared" },
            kind: tgt.kind.clone(),
            value: tgt.value.clone(),
            relation: Some(r.relation.clone()),
            document: Some(src.value.clone()),
            from: None,
            to: None,
            reason,
        });
    }

    // Verdicts of values verified in both scans.
    let verdicts = |s: ScanId| -> HashMap<i64, &str> {
        g.verifications.iter().filter(|v| v.row.scan == s).map(|v| (v.node, v.row.status.as_str())).collect()
    };
    let (va, vb) = (verdicts(a), verdicts(b));
    for (node, new) in &vb {
        let Some(n) = nodes.get(node) else { continue };
        if let Some(old) = va.get(node).filter(|old| *old != new) {
            out.push(Change {
                what: "verification",
                change: "changed",
                kind: n.kind.clone(),
                value: n.value.clone(),
                relation: None,
                document: None,
                from: Some(old.to_string()),
                to: Some(new.to_string()),
                reason: None,
            });
        }
    }
    out.sort();
    Ok(out)
}

fn doc_change(change: &'static str, d: &DocumentRow, from: Option<String>, to: Option<String>) -> Change {
    Change {
        what: "document",
        change,
        kind: d.probe.clone(),
        value: d.requested_url.clone(),
        relation: None,
        document: None,
        from,
        to,
        reason: None,
    }
}
