//! `wellknown graph --format dot|graphml|jsonl`: the graph with its evidence, for Graphviz, Gephi
//! or a notebook, written as the database streams it ([`crate::query::graph`]): nodes, then
//! relations, then virtual-host attempts, one at a time.
//!
//! Nodes are named by (kind, value) in JSON Lines (ids are a backend detail), so two stores holding
//! the same graph export the same lines apart from times. Output is sorted: nodes by (kind, value),
//! relations by (source, relation, target).

use std::io::{self, Write};

use serde_json::{Value, json};
use wellknown_core::Timestamp;

use crate::model::DOCUMENT_NODE;
use crate::query::graph::{GraphFilter, GraphNode, GraphRelation, nodes, relations, vhosts};
use crate::{Store, StoreError};

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

/// Why an export stopped: the store, or the output.
#[derive(Debug)]
pub enum ExportError {
    /// Reading the store failed.
    Store(StoreError),
    /// Writing the output failed (a closed pipe among others).
    Io(io::Error),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Store(e) => write!(f, "reading the graph: {e}"),
            ExportError::Io(e) => write!(f, "writing the graph: {e}"),
        }
    }
}

impl std::error::Error for ExportError {}

/// What an export wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Exported {
    /// Nodes.
    pub nodes: usize,
    /// Relations.
    pub relations: usize,
}

/// Runs `body` with an output sink whose I/O errors are kept aside, so a stream callback (which
/// returns store errors) can stop on one and the caller still learns it was the output.
fn with_output<T>(
    body: impl FnOnce(&mut dyn FnMut(io::Result<()>) -> Result<(), StoreError>) -> Result<T, StoreError>,
) -> Result<T, ExportError> {
    let mut failed: Option<io::Error> = None;
    let res = body(&mut |r: io::Result<()>| {
        r.map_err(|e| {
            let message = e.to_string();
            failed = Some(e);
            StoreError::new(message)
        })
    });
    match (res, failed) {
        (_, Some(e)) => Err(ExportError::Io(e)),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => Err(ExportError::Store(e)),
    }
}

/// Hands every record of the JSON Lines export to `emit`, in output order: `scan`, `node`,
/// `relation` (with its evidence) and `vhost` objects, as `docs/output-schema.md` describes them,
/// scored at `now`. For writers of other formats built on the same records (the HTML page).
///
/// Errors: the store's; the first `emit` returns (as [`ExportError::Io`]).
pub fn records(
    store: &mut dyn Store,
    filter: &GraphFilter,
    now: Timestamp,
    emit: &mut dyn FnMut(&Value) -> io::Result<()>,
) -> Result<Exported, ExportError> {
    with_output(|out| {
        let mut done = Exported::default();
        for s in store.scans()? {
            if filter.scan.is_some_and(|id| id != s.id) {
                continue;
            }
            out(emit(&json!({"type": "scan", "id": s.id, "started_at": s.started_at, "finished_at": s.finished_at})))?;
        }
        nodes(store, filter, now, &mut |n| {
            done.nodes += 1;
            out(emit(&node_json(&n)))
        })?;
        relations(store, filter, now, &mut |r| {
            done.relations += 1;
            out(emit(&relation_json(&r)))
        })?;
        vhosts(store, filter, &mut |h| {
            let mut o = serde_json::to_value(&h).map_err(|e| StoreError::new(e.to_string()))?;
            o["type"] = json!("vhost");
            out(emit(&o))
        })?;
        Ok(done)
    })
}

/// Writes the graph (the part `filter` selects) in `format`, scored at `now` (confidence depends
/// on age).
///
/// Errors: the store's; the writer's (as [`ExportError::Io`]).
pub fn write(
    store: &mut dyn Store,
    filter: &GraphFilter,
    format: Format,
    now: Timestamp,
    out: &mut dyn Write,
) -> Result<Exported, ExportError> {
    match format {
        Format::Jsonl => records(store, filter, now, &mut |value: &Value| {
            serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
            out.write_all(b"\n")
        }),
        Format::Dot => dot(store, filter, now, out),
        Format::GraphMl => graphml(store, filter, now, out),
    }
}

fn node_json(n: &GraphNode) -> Value {
    let mut o = json!({
        "type": "node",
        "kind": n.kind,
        "value": n.value,
        "in_scope": n.in_scope,
        "first_seen": n.first_seen,
    });
    if n.kind == DOCUMENT_NODE {
        if let Some(d) = &n.document {
            o["document"] = json!({
                "probe": d.probe, "status": d.status, "failure": d.failure, "kind": d.kind,
                "valid": d.valid, "sha256": d.sha256, "scan": d.scan, "fetched_at": d.fetched_at,
            });
            if d.not_attempted {
                o["document"]["not_attempted"] = json!(true);
            }
        }
    } else {
        o["confidence"] = json!(n.confidence.unwrap_or(0.0));
        o["verification"] = n.verification.as_ref().map_or(Value::Null, |v| json!(v));
    }
    o
}

fn relation_json(r: &GraphRelation) -> Value {
    let evidence: Vec<Value> = r
        .evidence
        .iter()
        .map(|e| {
            json!({
                "scan": e.scan,
                "document_url": e.document_url,
                "probe": e.probe,
                "fetched_at": e.fetched_at,
                "status": e.status,
                "locator": e.locator.as_deref().and_then(|l| serde_json::from_str::<Value>(l).ok()),
                "hints": serde_json::from_str::<Value>(&e.hints).unwrap_or(Value::Null),
                "flags": serde_json::from_str::<Value>(&e.flags).unwrap_or(Value::Null),
            })
        })
        .collect();
    let mut o = json!({
        "type": "relation",
        "source": {"kind": r.source.1, "value": r.source.2},
        "relation": r.relation,
        "target": {"kind": r.target.1, "value": r.target.2},
        "evidence": evidence,
    });
    if let Some(s) = &r.score {
        o["confidence"] = json!(s.confidence);
        o["state"] = json!(s.state);
        o["corroborating"] = json!(s.corroborating);
        o["first_seen"] = json!(s.first_seen);
        o["last_seen"] = json!(s.last_seen);
    }
    o
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

fn dot(
    store: &mut dyn Store,
    filter: &GraphFilter,
    now: Timestamp,
    out: &mut dyn Write,
) -> Result<Exported, ExportError> {
    with_output(|sink| {
        let mut done = Exported::default();
        sink(writeln!(out, "digraph wellknown {{"))?;
        sink(writeln!(out, "  rankdir=LR;"))?;
        sink(writeln!(out, "  node [shape=box, fontname=\"monospace\", fontsize=10];"))?;
        nodes(store, filter, now, &mut |n| {
            done.nodes += 1;
            let shape = if n.kind == DOCUMENT_NODE { "note" } else { "box" };
            let mut label = format!("{}\n{}", n.kind, n.value);
            if let Some(v) = &n.verification {
                label.push_str(&format!("\n{}", v.status));
            }
            if let Some(c) = n.confidence {
                label.push_str(&format!(" ({c:.2})"));
            }
            let style = if n.in_scope == Some(false) { ", style=dashed" } else { "" };
            sink(writeln!(out, "  n{} [label=\"{}\", shape={shape}{style}];", n.id, dot_escape(&label)))
        })?;
        relations(store, filter, now, &mut |r| {
            done.relations += 1;
            let label = match &r.score {
                Some(s) => format!("{} {:.2}", r.relation, s.confidence),
                None => r.relation.clone(),
            };
            sink(writeln!(out, "  n{} -> n{} [label=\"{}\"];", r.source.0, r.target.0, dot_escape(&label)))
        })?;
        sink(writeln!(out, "}}"))?;
        Ok(done)
    })
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

const GRAPHML_KEYS: [(&str, &str, &str, &str); 11] = [
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
];

fn graphml(
    store: &mut dyn Store,
    filter: &GraphFilter,
    now: Timestamp,
    out: &mut dyn Write,
) -> Result<Exported, ExportError> {
    with_output(|sink| {
        let mut done = Exported::default();
        sink(writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#))?;
        sink(writeln!(out, r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns">"#))?;
        for (id, dom, name, ty) in GRAPHML_KEYS {
            sink(writeln!(out, r#"  <key id="{id}" for="{dom}" attr.name="{name}" attr.type="{ty}"/>"#))?;
        }
        sink(writeln!(out, r#"  <graph id="wellknown" edgedefault="directed">"#))?;
        nodes(store, filter, now, &mut |n| {
            done.nodes += 1;
            let mut s = format!("    <node id=\"n{}\">\n", n.id);
            s.push_str(&format!("      <data key=\"kind\">{}</data>\n", xml_escape(&n.kind)));
            s.push_str(&format!("      <data key=\"value\">{}</data>\n", xml_escape(&n.value)));
            if let Some(v) = n.in_scope {
                s.push_str(&format!("      <data key=\"in_scope\">{v}</data>\n"));
            }
            if let Some(v) = &n.verification {
                s.push_str(&format!("      <data key=\"status\">{}</data>\n", xml_escape(&v.status)));
            }
            if let Some(c) = n.confidence {
                s.push_str(&format!("      <data key=\"node_confidence\">{c}</data>\n"));
            }
            s.push_str("    </node>\n");
            sink(out.write_all(s.as_bytes()))
        })?;
        relations(store, filter, now, &mut |r| {
            done.relations += 1;
            let mut s = format!("    <edge id=\"e{}\" source=\"n{}\" target=\"n{}\">\n", r.id, r.source.0, r.target.0);
            s.push_str(&format!("      <data key=\"relation\">{}</data>\n", xml_escape(&r.relation)));
            if let Some(sc) = &r.score {
                s.push_str(&format!("      <data key=\"confidence\">{}</data>\n", sc.confidence));
                s.push_str(&format!("      <data key=\"state\">{}</data>\n", sc.state.as_str()));
                s.push_str(&format!("      <data key=\"evidence\">{}</data>\n", sc.evidence));
                s.push_str(&format!("      <data key=\"first_seen\">{}</data>\n", sc.first_seen));
                s.push_str(&format!("      <data key=\"last_seen\">{}</data>\n", sc.last_seen));
            }
            s.push_str("    </edge>\n");
            sink(out.write_all(s.as_bytes()))
        })?;
        sink(writeln!(out, "  </graph>"))?;
        sink(writeln!(out, "</graphml>"))?;
        Ok(done)
    })
}
