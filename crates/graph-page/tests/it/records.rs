//! Export records as `wellknown graph --format jsonl` writes them, and the data read back from a page.

use serde_json::{Value, json};
use wellknown_graph_page::{Page, PageOptions, PageStats};

pub fn scan(id: i64) -> Value {
    json!({"type": "scan", "id": id, "started_at": "2026-01-02T03:04:05Z", "finished_at": "2026-01-02T03:05:00Z"})
}

pub fn document(url: &str, status: u16) -> Value {
    json!({"type": "node", "kind": "document", "value": url, "in_scope": null, "first_seen": "2026-01-02T03:04:06Z",
        "document": {"probe": "sitemap", "status": status, "failure": null, "kind": "urlset", "valid": true,
            "sha256": "00", "scan": 1, "fetched_at": "2026-01-02T03:04:06Z"}})
}

pub fn candidate(kind: &str, value: &str, in_scope: bool, status: Option<&str>) -> Value {
    json!({"type": "node", "kind": kind, "value": value, "in_scope": in_scope, "first_seen": "2026-01-02T03:04:06Z",
        "confidence": 0.5,
        "verification": status.map(|s| json!({"status": s, "http_status": 200, "target": null, "method": "HEAD",
            "failure": null, "scan": 1, "verified_at": "2026-01-02T03:04:07Z"}))})
}

pub fn relation(doc: &str, relation: &str, kind: &str, value: &str, line: u64, sightings: usize) -> Value {
    let evidence: Vec<Value> = (0..sightings)
        .map(|i| {
            json!({"scan": 1, "document_url": doc, "probe": "sitemap", "fetched_at": "2026-01-02T03:04:06Z",
                "status": 200, "locator": {"line": line + i as u64}, "hints": {}, "flags": []})
        })
        .collect();
    json!({"type": "relation", "source": {"kind": "document", "value": doc}, "relation": relation,
        "target": {"kind": kind, "value": value}, "evidence": evidence, "confidence": 0.6, "state": "listed",
        "corroborating": 1, "first_seen": "2026-01-02T03:04:06Z", "last_seen": "2026-01-02T03:04:06Z"})
}

/// Builds a page from `records` and returns its HTML and counts.
pub fn build(options: PageOptions, records: &[Value]) -> (String, PageStats) {
    let mut page = Page::new(options);
    for r in records {
        page.push(r).unwrap();
    }
    let mut out = Vec::new();
    let stats = page.finish(&mut out).unwrap();
    assert_eq!(stats.bytes, out.len() as u64);
    (String::from_utf8(out).unwrap(), stats)
}

/// The JSON between the data element's tags, as the page's script reads it.
pub fn embedded(html: &str) -> Value {
    let open = r#"<script type="application/json" id="wellknown-data">"#;
    let start = html.find(open).expect("data element") + open.len();
    let end = start + html[start..].find("</script>").expect("end of data element");
    serde_json::from_str(&html[start..end]).expect("embedded JSON")
}

pub fn nodes_of<'a>(data: &'a Value, kind: &str) -> Vec<&'a Value> {
    data["nodes"].as_array().unwrap().iter().filter(|n| n["kind"] == kind).collect()
}
