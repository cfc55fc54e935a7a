//! `wellknown graph --format dot|graphml|jsonl`: the whole graph with its evidence, for Graphviz,
//! Gephi or a notebook.
//!
//! Nodes are named by (kind, value) in JSON Lines (ids are a backend detail), so two stores holding
//! the same graph export the same lines apart from times. Output is sorted: nodes by (kind, value),
//! relations by (source, relation, target).

use std::collections::HashMap;
use std::io::{self, Write};

use serde_json::{Value, json};
use wellknown_core::Timestamp;

use crate::confidence::{Scored, latest_verifications, score_all};
use crate::model::{DOCUMENT_NODE, DocumentRow, GraphData, NodeRow, RelationRow};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Graphviz DOT.
    Dot,
    /// GraphML (Gephi, yEd, networkx).
    GraphMl,
    /// JSON Lines: `scan`, `node`, `relation` and `vhost` objects.
    Jsonl,
}

impl Format {
    /// Parses `dot`, `graphml` or `jsonl`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "dot" => Some(Format::Dot),
            "graphml" => Some(Format::GraphMl),
            "jsonl" => Some(Format::Jsonl),
            _ => None,
        }
    }
}

/// Everything an export needs, precomputed.
struct View<'a> {
    nodes: Vec<&'a NodeRow>,
    by_id: HashMap<i64, &'a NodeRow>,
    relations: Vec<(&'a RelationRow, Option<Scored>)>,
    node_confidence: HashMap<i64, f64>,
    verdicts: HashMap<i64, &'a crate::model::StoredVerification>,
    latest_doc: HashMap<&'a str, &'a DocumentRow>,
}

fn view(g: &GraphData, now: Timestamp) -> View<'_> {
    let mut scores = score_all(g, now);
    let by_id: HashMap<i64, &NodeRow> = g.nodes.iter().map(|n| (n.id, n)).collect();
    let mut nodes: Vec<&NodeRow> = g.nodes.iter().collect();
    nodes.sort_by(|a, b| (&a.kind, &a.value).cmp(&(&b.kind, &b.value)));
    let mut node_confidence: HashMap<i64, f64> = HashMap::new();
    let mut relations: Vec<(&RelationRow, Option<Scored>)> = g
        .relations
        .iter()
        .map(|r| {
            let s = scores.remove(&r.id);
            if let Some(s) = &s {
                let c = node_confidence.entry(r.target).or_insert(0.0);
                *c = c.max(s.confidence);
            }
            (r, s)
        })
        .collect();
    let key = |r: &RelationRow| {
        let n = |id| by_id.get(&id).map(|n| (n.kind.clone(), n.value.clone())).unwrap_or_default();
        (n(r.source), r.relation.clone(), n(r.target))
    };
    relations.sort_by_cached_key(|(r, _)| key(r));
    let mut latest_doc: HashMap<&str, &DocumentRow> = HashMap::new();
    for d in &g.documents {
        let e = latest_doc.entry(d.url.as_str()).or_insert(d);
        if (d.scan, d.id) > (e.scan, e.id) {
            *e = d;
        }
    }
    // A document node named by its requested URL (the source of a redirect it did not follow, whose
    // final URL is the refused target), when no fetch ended at that URL.
    let mut by_requested: HashMap<&str, &DocumentRow> = HashMap::new();
    for d in g.documents.iter().filter(|d| !latest_doc.contains_key(d.requested_url.as_str())) {
        let e = by_requested.entry(d.requested_url.as_str()).or_insert(d);
        if (d.scan, d.id) > (e.scan, e.id) {
            *e = d;
        }
    }
    latest_doc.extend(by_requested);
    View { nodes, by_id, relations, node_confidence, verdicts: latest_verifications(g), latest_doc }
}

/// Writes the graph in `format` at instant `now` (confidence depends on age).
///
/// Errors: the writer's.
pub fn write(g: &GraphData, format: Format, now: Timestamp, out: &mut dyn Write) -> io::Result<()> {
    let v = view(g, now);
    match format {
        Format::Jsonl => jsonl(g, &v, out),
        Format::Dot => dot(&v, out),
        Format::GraphMl => graphml(&v, out),
    }
}

fn node_json(v: &View<'_>, n: &NodeRow) -> Value {
    let verification = v.verdicts.get(&n.id).map(|s| {
        json!({
            "status": s.row.status, "http_status": s.row.http_status, "target": s.row.target,
            "method": s.row.method, "failure": s.row.failure_class, "scan": s.row.scan,
            "verified_at": s.row.verified_at,
        })
    });
    let mut o = json!({
        "type": "node",
        "kind": n.kind,
        "value": n.value,
        "in_scope": n.in_scope,
        "first_seen": n.first_seen,
    });
    if n.kind == DOCUMENT_NODE {
        if let Some(d) = v.latest_doc.get(n.value.as_str()) {
            o["document"] = json!({
                "probe": d.probe, "status": d.status, "failure": d.failure_class, "kind": d.kind,
                "valid": d.valid, "sha256": d.sha256, "scan": d.scan, "fetched_at": d.fetched_at,
            });
            if d.not_attempted {
                o["document"]["not_attempted"] = json!(true);
            }
        }
    } else {
        o["confidence"] = json!(v.node_confidence.get(&n.id).copied().unwrap_or(0.0));
        o["verification"] = verification.unwrap_or(Value::Null);
    }
    o
}

/// Hands every record of the JSON Lines export to `emit`, in output order: `scan`, `node`,
/// `relation` (with its evidence) and `vhost` objects, as `docs/output-schema.md` describes them.
/// For writers of other formats built on the same records (the HTML page).
///
/// Errors: the first `emit` returns.
pub fn records(g: &GraphData, now: Timestamp, emit: &mut dyn FnMut(&Value) -> io::Result<()>) -> io::Result<()> {
    let v = view(g, now);
    jsonl_records(g, &v, emit)
}

fn jsonl(g: &GraphData, v: &View<'_>, out: &mut dyn Write) -> io::Result<()> {
    jsonl_records(g, v, &mut |value: &Value| {
        serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
        out.write_all(b"\n")
    })
}

fn jsonl_records(g: &GraphData, v: &View<'_>, emit: &mut dyn FnMut(&Value) -> io::Result<()>) -> io::Result<()> {
    for s in &g.scans {
        emit(&json!({"type": "scan", "id": s.id, "started_at": s.started_at, "finished_at": s.finished_at}))?;
    }
    for n in &v.nodes {
        emit(&node_json(v, n))?;
    }
    let docs: HashMap<i64, &DocumentRow> = g.documents.iter().map(|d| (d.id, d)).collect();
    let mut evidence: HashMap<i64, Vec<&crate::model::EvidenceRow>> = HashMap::new();
    for e in &g.evidence {
        evidence.entry(e.relation).or_default().push(e);
    }
    let endpoint = |id: i64| v.by_id.get(&id).map_or(Value::Null, |n| json!({"kind": n.kind, "value": n.value}));
    for (r, s) in &v.relations {
        let ev: Vec<Value> = evidence
            .get(&r.id)
            .map(|list| {
                list.iter()
                    .map(|e| {
                        json!({
                            "scan": e.scan,
                            // The declaring document's node (its final URL; its requested URL
                            // for the target of a redirect it did not follow).
                            "document_url": v.by_id.get(&r.source).map_or_else(
                                || docs.get(&e.document).map(|d| d.url.as_str()),
                                |n| Some(n.value.as_str()),
                            ),
                            "probe": e.probe,
                            "fetched_at": e.fetched_at,
                            "status": e.status,
                            "locator": e.locator.as_deref().and_then(|l| serde_json::from_str::<Value>(l).ok()),
                            "hints": serde_json::from_str::<Value>(&e.hints).unwrap_or(Value::Null),
                            "flags": serde_json::from_str::<Value>(&e.flags).unwrap_or(Value::Null),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut o = json!({
            "type": "relation",
            "source": endpoint(r.source),
            "relation": r.relation,
            "target": endpoint(r.target),
            "evidence": ev,
        });
        if let Some(s) = s {
            o["confidence"] = json!(s.confidence);
            o["state"] = json!(s.state);
            o["corroborating"] = json!(s.corroborating);
            o["first_seen"] = json!(s.first_seen);
            o["last_seen"] = json!(s.last_seen);
        }
        emit(&o)?;
    }
    for h in &g.vhosts {
        let mut o = serde_json::to_value(h).map_err(io::Error::from)?;
        o["type"] = json!("vhost");
        emit(&o)?;
    }
    Ok(())
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn dot(v: &View<'_>, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "digraph wellknown {{")?;
    writeln!(out, "  rankdir=LR;")?;
    writeln!(out, "  node [shape=box, fontname=\"monospace\", fontsize=10];")?;
    for n in &v.nodes {
        let shape = if n.kind == DOCUMENT_NODE { "note" } else { "box" };
        let mut label = format!("{}\n{}", n.kind, n.value);
        if let Some(s) = v.verdicts.get(&n.id) {
            label.push_str(&format!("\n{}", s.row.status.as_str()));
        }
        if let Some(c) = v.node_confidence.get(&n.id) {
            label.push_str(&format!(" ({c:.2})"));
        }
        let style = if n.in_scope == Some(false) { ", style=dashed" } else { "" };
        writeln!(out, "  n{} [label=\"{}\", shape={shape}{style}];", n.id, dot_escape(&label))?;
    }
    for (r, s) in &v.relations {
        let label = match s {
            Some(s) => format!("{} {:.2}", r.relation, s.confidence),
            None => r.relation.clone(),
        };
        writeln!(out, "  n{} -> n{} [label=\"{}\"];", r.source, r.target, dot_escape(&label))?;
    }
    writeln!(out, "}}")
}

fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

fn graphml(v: &View<'_>, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(out, r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns">"#)?;
    for (id, dom, name, ty) in [
        ("kind", "node", "kind", "string"),
        ("value", "node", "value", "string"),
        ("in_scope", "node", "in_scope", "string"),
        ("status", "node", "status", "string"),
        ("node_confidence", "node", "confidence", "double"),
        ("relation", "edge", "relation", "string"),
        ("confidence", "edge", "confidence", "double"),
        ("state", "edge", "state", "string"),
        ("evidence", "edge", "evidence", "int"),
        ("first_seen", "edge", "first_seen", "string"),
        ("last_seen", "edge", "last_seen", "string"),
    ] {
        writeln!(out, r#"  <key id="{id}" for="{dom}" attr.name="{name}" attr.type="{ty}"/>"#)?;
    }
    writeln!(out, r#"  <graph id="wellknown" edgedefault="directed">"#)?;
    for n in &v.nodes {
        writeln!(out, r#"    <node id="n{}">"#, n.id)?;
        writeln!(out, r#"      <data key="kind">{}</data>"#, xml_escape(&n.kind))?;
        writeln!(out, r#"      <data key="value">{}</data>"#, xml_escape(&n.value))?;
        if let Some(s) = n.in_scope {
            writeln!(out, r#"      <data key="in_scope">{s}</data>"#)?;
        }
        if let Some(s) = v.verdicts.get(&n.id) {
            writeln!(out, r#"      <data key="status">{}</data>"#, xml_escape(s.row.status.as_str()))?;
        }
        if let Some(c) = v.node_confidence.get(&n.id) {
            writeln!(out, r#"      <data key="node_confidence">{c}</data>"#)?;
        }
        writeln!(out, "    </node>")?;
    }
    for (r, s) in &v.relations {
        writeln!(out, r#"    <edge id="e{}" source="n{}" target="n{}">"#, r.id, r.source, r.target)?;
        writeln!(out, r#"      <data key="relation">{}</data>"#, xml_escape(&r.relation))?;
        if let Some(s) = s {
            writeln!(out, r#"      <data key="confidence">{}</data>"#, s.confidence)?;
            writeln!(out, r#"      <data key="state">{}</data>"#, s.state.as_str())?;
            writeln!(out, r#"      <data key="evidence">{}</data>"#, s.evidence)?;
            writeln!(out, r#"      <data key="first_seen">{}</data>"#, s.first_seen)?;
            writeln!(out, r#"      <data key="last_seen">{}</data>"#, s.last_seen)?;
        }
        writeln!(out, "    </edge>")?;
    }
    writeln!(out, "  </graph>")?;
    writeln!(out, "</graphml>")
}
