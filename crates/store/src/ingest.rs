//! From the scan's records (`wellknown-records`) to store writes (backend-neutral). The store is fed from the same
//! records as the JSON Lines output, in the order the engine emits them.

use wellknown_core::Locator;
use wellknown_records::{Record, Unit, UnitKind};

use crate::model::{DiagnosticWrite, DocumentRow, RelationWrite, UnitRow, UnitState, VerificationRow, VhostRow, Write};

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

fn locator(l: Option<&Locator>) -> Option<String> {
    l.map(json)
}

/// The writes one record makes. `summary` records make none (the caller finishes the scan).
pub fn writes_for(record: &Record) -> Vec<Write> {
    match record {
        Record::Document(d) => vec![Write::Document(DocumentRow {
            id: 0,
            scan: 0,
            origin: d.origin.clone(),
            probe: d.probe.clone(),
            role: d.role.clone(),
            hop: d.hop,
            requested_url: d.requested_url.clone(),
            url: d.url.clone(),
            status: d.status,
            redirect_chain: json(&d.redirect_chain),
            content_type: d.content_type.clone(),
            size: d.size,
            sha256: d.sha256.clone(),
            truncated: d.truncated,
            fetched_at: d.fetched_at,
            failure_class: d.failure.as_ref().map(|f| f.class.as_str().to_string()),
            failure_message: d.failure.as_ref().map(|f| f.message.clone()),
            kind: d.kind.clone(),
            valid: d.valid,
            facts: json(&d.facts),
            via: d.via.clone().unwrap_or_default(),
            not_attempted: d.not_attempted,
        })],
        Record::Diagnostic(d) => vec![Write::Diagnostic(DiagnosticWrite {
            probe: d.probe.clone(),
            document_url: d.document.clone(),
            severity: d.severity,
            code: d.code.clone(),
            message: d.message.clone(),
            locator: locator(d.locator.as_ref()),
        })],
        Record::Candidate(c) => vec![Write::Relation(RelationWrite {
            probe: c.evidence.probe.clone(),
            document_url: c.evidence.document_url.to_string(),
            relation: c.relation.clone(),
            kind: c.kind,
            value: c.value.clone(),
            in_scope: c.in_scope,
            fetched_at: c.evidence.fetched_at,
            status: c.evidence.status,
            locator: locator(c.evidence.locator.as_ref()),
            hints: json(&c.hints),
            flags: json(&c.flags),
        })],
        Record::Evidence(e) => vec![Write::Relation(RelationWrite {
            probe: e.evidence.probe.clone(),
            document_url: e.evidence.document_url.to_string(),
            relation: e.relation.clone(),
            kind: e.kind,
            value: e.value.clone(),
            in_scope: None,
            fetched_at: e.evidence.fetched_at,
            status: e.evidence.status,
            locator: locator(e.evidence.locator.as_ref()),
            hints: json(&e.hints),
            flags: json(&e.flags),
        })],
        Record::Verification(v) => vec![Write::Verification(VerificationRow {
            kind: v.kind,
            value: v.value.clone(),
            scan: 0,
            status: v.status,
            http_status: v.http_status,
            target: v.target.clone(),
            method: v.method,
            failure_class: v.failure.as_ref().map(|f| f.class.as_str().to_string()),
            failure_message: v.failure.as_ref().map(|f| f.message.clone()),
            source: v.source,
            verified_at: v.verified_at,
        })],
        Record::Inventory(i) => vec![Write::Unit(UnitRow {
            kind: i.unit,
            value: i.value.clone(),
            depth: i.depth,
            revealed_by: Some(i.revealed_by.clone()),
            state: UnitState::revealed(i.action),
            in_scope: i.in_scope,
        })],
        Record::Vhost(v) => vec![Write::Vhost(VhostRow {
            scan: 0,
            host: v.host.clone(),
            origin: v.origin.clone(),
            revealed_by: v.revealed_by.clone(),
            address: v.address.clone().unwrap_or_default(),
            answers: v.answers,
            status: v.status,
            failure_class: v.failure.as_ref().map(|f| f.class.as_str().to_string()),
            checked_at: v.checked_at,
        })],
        Record::Origin(o) => vec![Write::Unit(UnitRow {
            kind: o.unit,
            value: o.origin.clone(),
            depth: o.depth,
            revealed_by: None,
            state: UnitState::Done,
            in_scope: true,
        })],
        // Kept in the JSON Lines and, totalled, in the scan's stored summary.
        Record::Budget(_) | Record::Summary(_) => Vec::new(),
    }
}

/// The unit rows of a plan's seeds (state pending), for [`crate::Store::begin_scan`].
pub fn seed_rows(seeds: &[Unit]) -> Vec<UnitRow> {
    seeds
        .iter()
        .map(|u| UnitRow {
            kind: u.kind(),
            value: u.label(),
            depth: u.depth,
            revealed_by: u.revealed_by.clone(),
            state: UnitState::Pending,
            in_scope: true,
        })
        .collect()
}

/// Parses a stored unit kind.
pub fn unit_kind(s: &str) -> Option<UnitKind> {
    UnitKind::parse(s)
}
