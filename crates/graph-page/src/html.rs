//! The page: `assets/page.html` with the style, the data, the vendored library and the page's script
//! put in its places.

use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};

use serde_json::{Map, Value, json};

use crate::collect::{COLLAPSED_KIND, Page, PageStats, SERVES};
use crate::embed::{html_text, script_json};

/// The version of the vendored cytoscape.js (`assets/VENDORED.md`).
pub const CYTOSCAPE_VERSION: &str = "3.35.0";

pub(crate) const TEMPLATE: &str = include_str!("../assets/page.html");
pub(crate) const STYLE: &str = include_str!("../assets/page.css");
pub(crate) const SCRIPT: &str = include_str!("../assets/page.js");
/// cytoscape.js, its published minified build, unchanged.
pub(crate) const LIBRARY: &str = include_str!("../assets/cytoscape.min.js");

/// Counts the bytes written through it.
struct Counting<'a> {
    inner: &'a mut dyn Write,
    bytes: u64,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A fresh script nonce (128 bits from the standard library's per-process random hash keys; no
/// dependency for it): the page's Content-Security-Policy runs only the two scripts carrying it.
fn nonce() -> String {
    let a = std::collections::hash_map::RandomState::new().build_hasher().finish();
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(a);
    format!("{a:016x}{:016x}", h.finish())
}

pub(crate) fn write(page: &mut Page, out: &mut dyn Write) -> io::Result<PageStats> {
    let mut w = Counting { inner: out, bytes: 0 };
    let title = html_text(&page.options.title);
    let nonce = nonce();
    let mut rest = TEMPLATE;
    while let Some(i) = rest.find("@@") {
        w.write_all(&rest.as_bytes()[..i])?;
        let after = &rest[i + 2..];
        let Some(j) = after.find("@@") else {
            w.write_all(&rest.as_bytes()[i..])?;
            rest = "";
            break;
        };
        match &after[..j] {
            "TITLE" => w.write_all(title.as_bytes())?,
            "NONCE" => w.write_all(nonce.as_bytes())?,
            "STYLE" => w.write_all(STYLE.as_bytes())?,
            "LIBRARY" => w.write_all(LIBRARY.as_bytes())?,
            "SCRIPT" => w.write_all(SCRIPT.as_bytes())?,
            "DATA" => data(page, &mut w)?,
            other => return Err(io::Error::other(format!("page template: unknown place @@{other}@@"))),
        }
        rest = &after[j + 2..];
    }
    w.write_all(rest.as_bytes())?;
    page.stats.bytes = w.bytes;
    Ok(page.stats.clone())
}

/// Writes one escaped JSON item, with a comma before every item but the first.
fn item(w: &mut dyn Write, buf: &mut Vec<u8>, first: &mut bool, v: &Value) -> io::Result<()> {
    buf.clear();
    if !*first {
        buf.push(b',');
    }
    *first = false;
    script_json(v, buf);
    w.write_all(buf)
}

/// The embedded data: `{"meta":{...},"nodes":[...],"edges":[...]}` (the page's script reads it;
/// shapes in docs/graph-page.md).
fn data(page: &mut Page, w: &mut dyn Write) -> io::Result<()> {
    // Which nodes are drawn: documents, origins derived from them, targets of drawn edges, and nodes
    // no relation names (they would be invisible otherwise).
    for g in &page.groups {
        if g.collapsed.is_none() {
            for e in &g.edges {
                page.nodes[e.target as usize].drawn_target = true;
            }
        }
    }
    let mut ids: Vec<Option<String>> = Vec::with_capacity(page.nodes.len());
    let mut drawn = 0usize;
    for n in &page.nodes {
        let show = n.kind == "document" || n.derived_origin || n.drawn_target || !n.targeted;
        ids.push(show.then(|| {
            drawn += 1;
            format!("n{}", drawn - 1)
        }));
    }
    // A collapsed group's source is drawn (it is a node no rule above hides only when it is itself a
    // target of collapsed groups alone; draw it then too).
    for g in &page.groups {
        if ids[g.source as usize].is_none() {
            drawn += 1;
            ids[g.source as usize] = Some(format!("n{}", drawn - 1));
        }
    }
    let collapsed_nodes = page.groups.iter().filter(|g| g.collapsed.is_some()).count();
    let edges_drawn = page.serves.len()
        + page.groups.iter().map(|g| if g.collapsed.is_some() { 1 } else { g.edges.len() }).sum::<usize>();
    page.stats.nodes_drawn = drawn + collapsed_nodes;
    page.stats.edges_drawn = edges_drawn;

    let s = &page.stats;
    let o = &page.options;
    let meta = json!({
        "title": o.title,
        "generated_at": o.generated_at,
        "selection": o.selection,
        "library_version": CYTOSCAPE_VERSION,
        "scans": page.scans,
        "caps": {
            "collapse_above": o.collapse_above,
            "values_per_group": o.values_per_group,
            "values_total": o.values_total,
            "evidence_per_relation": o.evidence_per_relation,
            "evidence_per_value": o.evidence_per_value,
            "cose_max_nodes": o.cose_max_nodes,
        },
        "stats": {
            "scans": s.scans, "nodes": page.nodes.len(), "relations": s.relations,
            "nodes_drawn": s.nodes_drawn, "edges_drawn": s.edges_drawn,
            "groups_collapsed": s.groups_collapsed, "relations_collapsed": s.relations_collapsed,
            "values_kept": s.values_kept, "values_not_kept": s.values_not_kept,
            "evidence_not_kept": s.evidence_not_kept, "vhosts": s.vhosts,
        },
    });
    let mut buf = Vec::new();
    w.write_all(b"{\"meta\":")?;
    script_json(&meta, &mut buf);
    w.write_all(&buf)?;
    w.write_all(b",\"nodes\":[")?;
    let mut first = true;
    for (n, id) in page.nodes.iter().zip(&ids) {
        let Some(id) = id else { continue };
        let mut o = Map::new();
        o.insert("id".into(), json!(id));
        o.insert("kind".into(), json!(n.kind));
        o.insert("value".into(), json!(n.value));
        o.insert("in_scope".into(), json!(n.in_scope));
        if let Some(c) = n.confidence {
            o.insert("confidence".into(), json!(c));
        }
        if let Some(f) = &n.first_seen {
            o.insert("first_seen".into(), json!(f));
        }
        if let Some(v) = &n.verification {
            o.insert("verification".into(), v.clone());
        }
        if let Some(d) = &n.document {
            o.insert("document".into(), d.clone());
        }
        if !n.from_record {
            o.insert("derived".into(), json!(true));
        }
        item(w, &mut buf, &mut first, &Value::Object(o))?;
    }
    for (k, g) in page.groups.iter().enumerate() {
        let Some(c) = &g.collapsed else { continue };
        let mut states: Vec<(&String, &usize)> = c.states.iter().collect();
        states.sort();
        let v = json!({
            "id": format!("c{k}"),
            "kind": COLLAPSED_KIND,
            "of": g.target_kind,
            "relation": g.relation,
            "source": ids[g.source as usize],
            "count": c.count,
            "not_kept": c.not_kept,
            "max_confidence": c.max_confidence,
            "states": states.into_iter().map(|(k, v)| (k.clone(), json!(v))).collect::<Map<String, Value>>(),
            "base": c.base,
            "relation_base": c.relation_base,
            "values": c.values,
        });
        item(w, &mut buf, &mut first, &v)?;
    }
    w.write_all(b"],\"edges\":[")?;
    let mut first = true;
    for (k, (origin, doc)) in page.serves.iter().enumerate() {
        let v = json!({
            "id": format!("s{k}"), "source": ids[*origin as usize], "target": ids[*doc as usize],
            "relation": SERVES, "derived": true,
        });
        item(w, &mut buf, &mut first, &v)?;
    }
    for (k, g) in page.groups.iter().enumerate() {
        let source = &ids[g.source as usize];
        if let Some(c) = &g.collapsed {
            let v = json!({
                "id": format!("c{k}e"), "source": source, "target": format!("c{k}"), "relation": g.relation,
                "confidence": c.max_confidence, "collapsed": true, "count": c.count, "evidence": [],
                "evidence_count": 0,
            });
            item(w, &mut buf, &mut first, &v)?;
            continue;
        }
        for (j, e) in g.edges.iter().enumerate() {
            let mut o = Map::new();
            o.insert("id".into(), json!(format!("e{k}_{j}")));
            o.insert("source".into(), json!(source));
            o.insert("target".into(), json!(ids[e.target as usize]));
            o.insert("relation".into(), json!(g.relation));
            o.extend(e.fields.clone());
            let source_value = page.nodes[g.source as usize].value.as_str();
            o.insert("evidence".into(), Value::Array(e.evidence.iter().map(|x| compact(x, source_value)).collect()));
            o.insert("evidence_count".into(), json!(e.evidence_count));
            item(w, &mut buf, &mut first, &Value::Object(o))?;
        }
    }
    w.write_all(b"]}")
}

/// A drawn edge's sighting without what the page knows otherwise: `document_url` when it is the
/// edge's source (the page's script puts it back), and empty `hints`, `flags` and a null `locator`.
fn compact(e: &Value, source_value: &str) -> Value {
    let Some(m) = e.as_object() else { return e.clone() };
    let mut o = Map::new();
    for (k, v) in m {
        let empty = v.is_null() || v.as_array().is_some_and(Vec::is_empty) || v.as_object().is_some_and(Map::is_empty);
        if empty || (k == "document_url" && v.as_str() == Some(source_value)) {
            continue;
        }
        o.insert(k.clone(), v.clone());
    }
    Value::Object(o)
}
