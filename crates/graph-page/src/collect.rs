//! The page's data, gathered one export record at a time.
//!
//! What is kept:
//!
//! * every node record (kind, value, scope, confidence, verdict, latest fetch of a document), since
//!   whether a node is drawn is known only once the relations that reach it have been seen;
//! * for each document, its origin (`scheme://host[:port]` of its URL, default port left out, as the
//!   store names `origin` nodes) as a node, with a `serves` edge to the document: derived from the
//!   URL, marked `derived`, carrying no evidence;
//! * relations in groups of (source, relation, target kind). A group of at most
//!   [`PageOptions::collapse_above`] relations is drawn edge by edge, each with at most
//!   [`PageOptions::evidence_per_relation`] sightings. A larger group is *collapsed*: one node
//!   "N urls" (kind `collapsed`) and one edge to it, which list the targets' values with their scope,
//!   verdict, confidence, state and first [`PageOptions::evidence_per_value`] sightings, at most
//!   [`PageOptions::values_per_group`] per group and [`PageOptions::values_total`] in the page
//!   (first come, first kept); the rest are counted. A target reached only through collapsed groups
//!   is not drawn on its own.
//! * `scan` records (the page names the scans); `vhost` records are counted, not drawn.
//!
//! The grouping does not depend on the order of relations (the export sorts them by source and
//! relation, so a group's relations come together, but nothing here relies on it); it needs nodes
//! before the relations that name them (a relation naming a node not seen gets a node with its kind
//! and value alone).

use std::collections::HashMap;
use std::io::{self, Write};

use serde_json::{Map, Value, json};

/// The kind of the nodes that stand for a collapsed group.
pub const COLLAPSED_KIND: &str = "collapsed";

/// The relation of the derived edge from an origin to each of its documents.
pub const SERVES: &str = "serves";

/// The evidence fields a collapsed group's sightings share with the group's first one (stored once,
/// as the group's `base`; each sighting keeps only the fields that differ).
const BASE_FIELDS: [&str; 5] = ["document_url", "probe", "fetched_at", "status", "scan"];

/// What the page shows and where it stops. Every cap is stated on the page and counted in
/// [`PageStats`].
#[derive(Debug, Clone)]
pub struct PageOptions {
    /// The page title (HTML-escaped when written).
    pub title: String,
    /// When the page was made (RFC 3339), shown on the page; the caller's clock.
    pub generated_at: String,
    /// What the caller selected, shown on the page (e.g. `scan 3, in scope`); empty: the whole graph.
    pub selection: String,
    /// A group of more relations than this (one relation of one document, one target kind) is drawn
    /// as one collapsed node. Default 50.
    pub collapse_above: usize,
    /// Values listed per collapsed node. Default 1,000.
    pub values_per_group: usize,
    /// Values listed in all collapsed nodes of the page. Default 20,000.
    pub values_total: usize,
    /// Sightings embedded per drawn relation. Default 50.
    pub evidence_per_relation: usize,
    /// Sightings embedded per value of a collapsed node. Default 3.
    pub evidence_per_value: usize,
    /// Drawn nodes up to which the page lays the graph out with cytoscape's force-directed `cose`;
    /// above it, with `concentric` (rings by kind: origins, documents, candidates), which takes
    /// linear time. Default 1,500.
    pub cose_max_nodes: usize,
}

impl Default for PageOptions {
    fn default() -> Self {
        PageOptions {
            title: "wellknown graph".into(),
            generated_at: String::new(),
            selection: String::new(),
            collapse_above: 50,
            values_per_group: 1_000,
            values_total: 20_000,
            evidence_per_relation: 50,
            evidence_per_value: 3,
            cose_max_nodes: 1_500,
        }
    }
}

/// What a page holds and what its caps left out (all counts; `bytes` is the page's size).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageStats {
    /// `scan` records pushed.
    pub scans: usize,
    /// Nodes known: node records, plus origins derived from document URLs and nodes named only by a
    /// relation.
    pub nodes: usize,
    /// `relation` records pushed.
    pub relations: usize,
    /// Nodes drawn (collapsed nodes included).
    pub nodes_drawn: usize,
    /// Edges drawn (derived `serves` edges and edges to collapsed nodes included).
    pub edges_drawn: usize,
    /// Groups drawn as one collapsed node.
    pub groups_collapsed: usize,
    /// Relations inside collapsed groups.
    pub relations_collapsed: usize,
    /// Values listed in collapsed nodes.
    pub values_kept: usize,
    /// Values of collapsed nodes counted but not listed (past `values_per_group` or `values_total`).
    pub values_not_kept: usize,
    /// Evidence sightings pushed but not embedded (past `evidence_per_relation` or
    /// `evidence_per_value`, or those of a value not listed).
    pub evidence_not_kept: usize,
    /// `vhost` records (counted; the page does not draw them).
    pub vhosts: usize,
    /// Bytes of the page written.
    pub bytes: u64,
}

impl PageStats {
    /// One line per cap that left something out, for standard error (empty when none did).
    pub fn notes(&self, o: &PageOptions) -> Vec<String> {
        let mut v = Vec::new();
        if self.groups_collapsed > 0 {
            v.push(format!(
                "graph page: {} relations drawn as {} collapsed nodes (a document's targets of one relation and \
                 kind beyond {} are one node \"N <kind>s\", expandable on the page)",
                self.relations_collapsed, self.groups_collapsed, o.collapse_above
            ));
        }
        if self.values_not_kept > 0 {
            v.push(format!(
                "graph page: {} values of collapsed nodes counted but not listed (at most {} per collapsed node, {} \
                 per page); `wellknown graph --format jsonl` has them all",
                self.values_not_kept, o.values_per_group, o.values_total
            ));
        }
        if self.evidence_not_kept > 0 {
            v.push(format!(
                "graph page: {} evidence sightings counted but not embedded (at most {} per relation, {} per value \
                 of a collapsed node)",
                self.evidence_not_kept, o.evidence_per_relation, o.evidence_per_value
            ));
        }
        if self.vhosts > 0 {
            v.push(format!("graph page: {} vhost records not drawn (`--format jsonl` lists them)", self.vhosts));
        }
        v
    }
}

#[derive(Debug, Default)]
pub(crate) struct NodeEntry {
    pub kind: String,
    pub value: String,
    pub in_scope: Option<bool>,
    pub confidence: Option<f64>,
    pub first_seen: Option<String>,
    pub verification: Option<Value>,
    pub document: Option<Value>,
    /// Known from a node record (not only derived or named by a relation).
    pub from_record: bool,
    /// Derived from a document's URL.
    pub derived_origin: bool,
    /// Named by at least one relation (drawn or collapsed).
    pub targeted: bool,
    /// Target of a drawn edge.
    pub drawn_target: bool,
}

#[derive(Debug)]
pub(crate) struct Edge {
    pub target: u32,
    pub fields: Map<String, Value>,
    pub evidence: Vec<Value>,
    pub evidence_count: usize,
}

#[derive(Debug, Default)]
pub(crate) struct Collapsed {
    pub count: usize,
    pub base: Map<String, Value>,
    /// The relation fields (confidence, state, corroborating, first and last seen) of the group's
    /// first value; each value keeps only the fields that differ.
    pub relation_base: Map<String, Value>,
    pub values: Vec<Value>,
    pub not_kept: usize,
    pub max_confidence: Option<f64>,
    pub states: HashMap<String, usize>,
}

#[derive(Debug)]
pub(crate) struct Group {
    pub source: u32,
    pub relation: String,
    pub target_kind: String,
    pub edges: Vec<Edge>,
    pub collapsed: Option<Collapsed>,
}

/// A page being built: push the export's records, then [`Page::finish`].
#[derive(Debug)]
pub struct Page {
    pub(crate) options: PageOptions,
    pub(crate) nodes: Vec<NodeEntry>,
    index: HashMap<(String, String), u32>,
    pub(crate) groups: Vec<Group>,
    group_index: HashMap<(u32, String, String), usize>,
    pub(crate) serves: Vec<(u32, u32)>,
    pub(crate) scans: Vec<Value>,
    pub(crate) stats: PageStats,
}

fn str_field<'a>(o: &'a Value, k: &str) -> Result<&'a str, String> {
    o.get(k).and_then(Value::as_str).ok_or_else(|| format!("a {} record without a string {k:?}", kind_of(o)))
}

fn kind_of(o: &Value) -> &str {
    o.get("type").and_then(Value::as_str).unwrap_or("typeless")
}

/// The origin (`scheme://host[:port]`, lower-case scheme and host, default port left out) of an
/// http(s) URL; None for anything else.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if hostport.is_empty() {
        return None;
    }
    // A port follows the last ':' unless it is inside an IPv6 literal's brackets.
    let (host, port) = match hostport.rfind(':') {
        Some(i) if !hostport[i..].contains(']') => (&hostport[..i], Some(&hostport[i + 1..])),
        _ => (hostport, None),
    };
    let host = host.to_ascii_lowercase();
    Some(match port {
        Some(p) if !p.is_empty() && p != default_port => format!("{scheme}://{host}:{p}"),
        _ => format!("{scheme}://{host}"),
    })
}

impl Page {
    /// An empty page.
    pub fn new(options: PageOptions) -> Page {
        Page {
            options,
            nodes: Vec::new(),
            index: HashMap::new(),
            groups: Vec::new(),
            group_index: HashMap::new(),
            serves: Vec::new(),
            scans: Vec::new(),
            stats: PageStats::default(),
        }
    }

    /// The options the page was made with.
    pub fn options(&self) -> &PageOptions {
        &self.options
    }

    /// Counts so far (`bytes` is set by [`Page::finish`]).
    pub fn stats(&self) -> &PageStats {
        &self.stats
    }

    fn node_id(&mut self, kind: &str, value: &str) -> u32 {
        if let Some(&i) = self.index.get(&(kind.to_string(), value.to_string())) {
            return i;
        }
        let i = self.nodes.len() as u32;
        self.nodes.push(NodeEntry { kind: kind.to_string(), value: value.to_string(), ..NodeEntry::default() });
        self.index.insert((kind.to_string(), value.to_string()), i);
        i
    }

    /// Takes one record of the JSON Lines export (`docs/output-schema.md`, "`wellknown graph`").
    ///
    /// Errors: a record without a string `type`, a node without `kind`/`value`, a relation without
    /// `source`/`target`/`relation`. Unknown record types are an error too (nothing is skipped
    /// silently).
    pub fn push(&mut self, record: &Value) -> Result<(), String> {
        match kind_of(record) {
            "scan" => {
                self.stats.scans += 1;
                self.scans.push(record.clone());
                Ok(())
            }
            "node" => self.push_node(record),
            "relation" => self.push_relation(record),
            "vhost" => {
                self.stats.vhosts += 1;
                Ok(())
            }
            other => Err(format!("a record of type {other:?}: expected scan, node, relation or vhost")),
        }
    }

    fn push_node(&mut self, r: &Value) -> Result<(), String> {
        let kind = str_field(r, "kind")?;
        let value = str_field(r, "value")?;
        let i = self.node_id(kind, value);
        let n = &mut self.nodes[i as usize];
        n.from_record = true;
        n.in_scope = r.get("in_scope").and_then(Value::as_bool);
        n.confidence = r.get("confidence").and_then(Value::as_f64);
        n.first_seen = r.get("first_seen").and_then(Value::as_str).map(str::to_string);
        n.verification = r.get("verification").filter(|v| !v.is_null()).cloned();
        n.document = r.get("document").filter(|v| !v.is_null()).cloned();
        if kind == "document"
            && let Some(origin) = origin_of(value)
        {
            let o = self.node_id("origin", &origin);
            self.nodes[o as usize].derived_origin = true;
            self.serves.push((o, i));
        }
        Ok(())
    }

    fn endpoint(&mut self, r: &Value, k: &str) -> Result<u32, String> {
        let e = r.get(k).ok_or_else(|| format!("a relation without {k:?}"))?;
        let kind = str_field(e, "kind").map_err(|_| format!("a relation whose {k} has no kind"))?;
        let value = str_field(e, "value").map_err(|_| format!("a relation whose {k} has no value"))?;
        Ok(self.node_id(kind, value))
    }

    fn push_relation(&mut self, r: &Value) -> Result<(), String> {
        let source = self.endpoint(r, "source")?;
        let target = self.endpoint(r, "target")?;
        let relation = str_field(r, "relation")?.to_string();
        self.stats.relations += 1;
        self.nodes[target as usize].targeted = true;
        let target_kind = self.nodes[target as usize].kind.clone();
        let key = (source, relation.clone(), target_kind.clone());
        let g = match self.group_index.get(&key) {
            Some(&g) => g,
            None => {
                self.groups.push(Group { source, relation, target_kind, edges: Vec::new(), collapsed: None });
                self.group_index.insert(key, self.groups.len() - 1);
                self.groups.len() - 1
            }
        };
        let evidence: &[Value] = r.get("evidence").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        let mut fields = Map::new();
        for k in ["confidence", "state", "corroborating", "first_seen", "last_seen"] {
            if let Some(v) = r.get(k).filter(|v| !v.is_null()) {
                fields.insert(k.to_string(), v.clone());
            }
        }
        if self.groups[g].collapsed.is_none() && self.groups[g].edges.len() < self.options.collapse_above {
            let keep = evidence.len().min(self.options.evidence_per_relation);
            self.stats.evidence_not_kept += evidence.len() - keep;
            self.groups[g].edges.push(Edge {
                target,
                fields,
                evidence: evidence[..keep].to_vec(),
                evidence_count: evidence.len(),
            });
            return Ok(());
        }
        if self.groups[g].collapsed.is_none() {
            self.collapse(g);
        }
        self.add_collapsed(g, target, fields, evidence);
        Ok(())
    }

    /// Turns group `g`'s drawn edges into the values of one collapsed node.
    fn collapse(&mut self, g: usize) {
        let edges = std::mem::take(&mut self.groups[g].edges);
        self.groups[g].collapsed = Some(Collapsed::default());
        self.stats.groups_collapsed += 1;
        for e in edges {
            // Sightings the drawn edge had left out were counted then; count only what this drops.
            self.stats.evidence_not_kept -= e.evidence_count - e.evidence.len();
            let mut evidence = e.evidence;
            evidence.resize(e.evidence_count.max(evidence.len()), Value::Null);
            self.add_collapsed(g, e.target, e.fields, &evidence);
        }
    }

    fn add_collapsed(&mut self, g: usize, target: u32, fields: Map<String, Value>, evidence: &[Value]) {
        self.stats.relations_collapsed += 1;
        let room = self.stats.values_kept < self.options.values_total;
        let per_value = self.options.evidence_per_value;
        let values_per_group = self.options.values_per_group;
        let n = &self.nodes[target as usize];
        let c = self.groups[g].collapsed.get_or_insert_with(Collapsed::default);
        c.count += 1;
        let conf = fields.get("confidence").and_then(Value::as_f64);
        if let Some(x) = conf {
            c.max_confidence = Some(c.max_confidence.map_or(x, |m| m.max(x)));
        }
        if let Some(s) = fields.get("state").and_then(Value::as_str) {
            *c.states.entry(s.to_string()).or_insert(0) += 1;
        }
        if c.base.is_empty()
            && let Some(first) = evidence.first().and_then(Value::as_object)
        {
            for k in BASE_FIELDS {
                if let Some(v) = first.get(k) {
                    c.base.insert(k.to_string(), v.clone());
                }
            }
        }
        if !room || c.values.len() >= values_per_group {
            c.not_kept += 1;
            self.stats.values_not_kept += 1;
            self.stats.evidence_not_kept += evidence.len();
            return;
        }
        let mut v = Map::new();
        v.insert("value".into(), json!(n.value));
        v.insert("in_scope".into(), json!(n.in_scope));
        if let Some(ver) = &n.verification {
            v.insert("status".into(), ver.get("status").cloned().unwrap_or(Value::Null));
            v.insert("http_status".into(), ver.get("http_status").cloned().unwrap_or(Value::Null));
        }
        if let Some(x) = n.confidence {
            v.insert("node_confidence".into(), json!(x));
        }
        if c.values.is_empty() && c.relation_base.is_empty() {
            c.relation_base = fields.clone();
        }
        // Fields of the base this relation lacks are said as null.
        for k in c.relation_base.keys() {
            if !fields.contains_key(k) {
                v.insert(k.clone(), Value::Null);
            }
        }
        for (k, x) in fields {
            if c.relation_base.get(&k) != Some(&x) {
                v.insert(k, x);
            }
        }
        let kept: Vec<Value> = evidence
            .iter()
            .filter(|e| !e.is_null())
            .take(per_value)
            .map(|e| Value::Object(diff_from_base(&c.base, e)))
            .collect();
        self.stats.evidence_not_kept += evidence.len() - kept.len();
        v.insert("evidence".into(), Value::Array(kept));
        v.insert("evidence_count".into(), json!(evidence.len()));
        c.values.push(Value::Object(v));
        self.stats.values_kept += 1;
    }

    /// Writes the page and returns its counts. The caller flushes `out`.
    ///
    /// Errors: the writer's.
    pub fn finish(mut self, out: &mut dyn Write) -> io::Result<PageStats> {
        self.stats.nodes = self.nodes.len();
        crate::html::write(&mut self, out)
    }
}

/// A sighting with the fields it shares with `base` left out.
fn diff_from_base(base: &Map<String, Value>, e: &Value) -> Map<String, Value> {
    let mut o = Map::new();
    if let Some(m) = e.as_object() {
        for (k, v) in m {
            if base.get(k) == Some(v) {
                continue;
            }
            let empty =
                v.is_null() || v.as_array().is_some_and(Vec::is_empty) || v.as_object().is_some_and(Map::is_empty);
            if empty && !base.contains_key(k) {
                continue;
            }
            o.insert(k.clone(), v.clone());
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_of_document_urls() {
        assert_eq!(origin_of("https://Example.COM/robots.txt").as_deref(), Some("https://example.com"));
        assert_eq!(origin_of("http://a.test:80/x").as_deref(), Some("http://a.test"));
        assert_eq!(origin_of("https://a.test:8443/x?y").as_deref(), Some("https://a.test:8443"));
        assert_eq!(origin_of("https://u:p@a.test/").as_deref(), Some("https://a.test"));
        assert_eq!(origin_of("http://[::1]:8080/").as_deref(), Some("http://[::1]:8080"));
        assert_eq!(origin_of("http://[::1]/").as_deref(), Some("http://[::1]"));
        assert_eq!(origin_of("javascript:alert(1)"), None);
        assert_eq!(origin_of("ftp://a.test/"), None);
        assert_eq!(origin_of("https:///x"), None);
    }
}
