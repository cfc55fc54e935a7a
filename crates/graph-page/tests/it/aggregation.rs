//! Aggregation: which relations are drawn, which collapse, and what a collapsed node keeps.

use serde_json::Value;
use wellknown_graph_page::{Page, PageOptions};

use crate::records::{build, candidate, document, embedded, nodes_of, relation, scan};

const SITEMAP: &str = "https://a.test/sitemap.xml";
const ROBOTS: &str = "https://a.test/robots.txt";

/// One sitemap declaring `urls` URLs, and robots.txt declaring the sitemap and a contact-free path.
fn graph(urls: usize) -> Vec<Value> {
    let mut r = vec![scan(1), document(ROBOTS, 200), document(SITEMAP, 200)];
    r.push(candidate("path", "/private", true, None));
    r.push(candidate("sitemap", SITEMAP, true, Some("alive")));
    for i in 0..urls {
        r.push(candidate(
            "url",
            &format!("https://a.test/p/{i}"),
            i.is_multiple_of(2),
            i.is_multiple_of(3).then_some("gone"),
        ));
    }
    r.push(relation(ROBOTS, "robots_disallow", "path", "/private", 3, 1));
    r.push(relation(ROBOTS, "robots_sitemap", "sitemap", SITEMAP, 4, 1));
    for i in 0..urls {
        r.push(relation(SITEMAP, "sitemap_loc", "url", &format!("https://a.test/p/{i}"), 10 + i as u64, 1));
    }
    r
}

#[test]
fn a_small_group_is_drawn_edge_by_edge_with_its_evidence() {
    let (html, stats) = build(PageOptions::default(), &graph(50));
    let data = embedded(&html);
    assert_eq!(stats.groups_collapsed, 0);
    assert_eq!(nodes_of(&data, "url").len(), 50);
    assert!(nodes_of(&data, "collapsed").is_empty());
    // Two documents, their origin, a path, the sitemap and 50 URLs.
    assert_eq!(stats.nodes_drawn, 2 + 1 + 1 + 1 + 50);
    // One derived `serves` edge per document, then every relation.
    assert_eq!(stats.edges_drawn, 2 + 2 + 50);
    let origin = nodes_of(&data, "origin");
    assert_eq!(origin.len(), 1);
    assert_eq!(origin[0]["value"], "https://a.test");
    assert_eq!(origin[0]["derived"], true);
    let edges = data["edges"].as_array().unwrap();
    let url7 = nodes_of(&data, "url").into_iter().find(|n| n["value"] == "https://a.test/p/7").unwrap()["id"].clone();
    let e = edges.iter().find(|e| e["target"] == url7).unwrap();
    assert_eq!(e["relation"], "sitemap_loc");
    assert_eq!(e["confidence"], 0.6);
    // The sighting leaves out its document (the edge's source) and its empty hints and flags.
    assert_eq!(
        e["evidence"][0],
        serde_json::json!({"scan": 1, "probe": "sitemap", "fetched_at": "2026-01-02T03:04:06Z", "status": 200,
            "locator": {"line": 17}})
    );
    assert!(stats.notes(&PageOptions::default()).is_empty(), "{:?}", stats.notes(&PageOptions::default()));
}

#[test]
fn a_group_beyond_the_threshold_is_one_node_with_its_values() {
    let (html, stats) = build(PageOptions::default(), &graph(51));
    let data = embedded(&html);
    assert_eq!(stats.groups_collapsed, 1);
    assert_eq!(stats.relations_collapsed, 51);
    assert_eq!(stats.values_kept, 51);
    assert!(nodes_of(&data, "url").is_empty(), "collapsed URLs are not drawn one by one");
    let c = nodes_of(&data, "collapsed");
    assert_eq!(c.len(), 1);
    let c = c[0];
    assert_eq!(c["of"], "url");
    assert_eq!(c["relation"], "sitemap_loc");
    assert_eq!(c["count"], 51);
    assert_eq!(c["not_kept"], 0);
    assert_eq!(c["max_confidence"], 0.6);
    assert_eq!(c["states"]["listed"], 51);
    // The sightings share their document, fetch and status: stored once.
    assert_eq!(c["base"]["document_url"], SITEMAP);
    assert_eq!(c["base"]["fetched_at"], "2026-01-02T03:04:06Z");
    assert_eq!(c["base"]["status"], 200);
    // So do their relation fields.
    assert_eq!(c["relation_base"]["state"], "listed");
    assert_eq!(c["relation_base"]["confidence"], 0.6);
    let v3 = &c["values"][3];
    assert_eq!(v3.as_object().unwrap().len(), 7, "{v3}");
    assert_eq!(v3["value"], "https://a.test/p/3");
    assert_eq!(v3["in_scope"], false);
    assert_eq!(v3["status"], "gone");
    assert_eq!(v3["evidence"][0], serde_json::json!({"locator": {"line": 13}}));
    assert_eq!(v3["evidence_count"], 1);
    // The collapsed node hangs off the sitemap's document node by one edge.
    let sitemap_doc = nodes_of(&data, "document").into_iter().find(|n| n["value"] == SITEMAP).unwrap()["id"].clone();
    assert_eq!(c["source"], sitemap_doc);
    let edge = data["edges"].as_array().unwrap().iter().find(|e| e["target"] == c["id"]).unwrap();
    assert_eq!(edge["source"], sitemap_doc);
    assert_eq!(edge["count"], 51);
    let notes = stats.notes(&PageOptions::default());
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("51 relations drawn as 1 collapsed nodes"), "{notes:?}");
}

#[test]
fn caps_on_values_and_sightings_are_counted_and_said() {
    let options = PageOptions {
        collapse_above: 5,
        values_per_group: 10,
        values_total: 12,
        evidence_per_relation: 2,
        evidence_per_value: 1,
        ..PageOptions::default()
    };
    let mut records = graph(30);
    // A second document with 8 URLs: collapsed too, and only 2 more values fit the page's 12.
    let other = "https://b.test/sitemap.xml";
    records.push(document(other, 200));
    for i in 0..8 {
        records.push(relation(other, "sitemap_loc", "url", &format!("https://b.test/{i}"), 1, 3));
    }
    // A drawn relation with 4 sightings keeps 2.
    records.push(relation(ROBOTS, "robots_allow", "path", "/open", 1, 4));
    let (html, stats) = build(options.clone(), &records);
    let data = embedded(&html);
    assert_eq!(stats.groups_collapsed, 2);
    assert_eq!(stats.relations_collapsed, 38);
    assert_eq!(stats.values_kept, 12);
    assert_eq!(stats.values_not_kept, 26);
    let c = nodes_of(&data, "collapsed");
    assert_eq!(c.iter().map(|c| c["values"].as_array().unwrap().len()).collect::<Vec<_>>(), [10, 2]);
    assert_eq!(c.iter().map(|c| c["not_kept"].as_u64().unwrap()).collect::<Vec<_>>(), [20, 6]);
    // Sightings: the /open relation's 2 of 4; b.test's two listed values keep 1 of 3 each, its six
    // values not listed drop all 3; a.test's 20 values not listed drop their one each.
    assert_eq!(stats.evidence_not_kept, 2 + 2 * 2 + 6 * 3 + 20);
    let open = data["edges"].as_array().unwrap().iter().find(|e| e["relation"] == "robots_allow").unwrap();
    assert_eq!(open["evidence"].as_array().unwrap().len(), 2);
    assert_eq!(open["evidence_count"], 4);
    let notes = stats.notes(&options).join("\n");
    assert!(
        notes.contains(
            "26 values of collapsed nodes counted but not listed (at most 10 per collapsed node, 12 per page)"
        ),
        "{notes}"
    );
    assert!(
        notes.contains("44 evidence sightings counted but not embedded (at most 2 per relation, 1 per value"),
        "{notes}"
    );
    // The page states the caps and counts too (its meta, which the page's notes list).
    assert_eq!(data["meta"]["caps"]["values_per_group"], 10);
    assert_eq!(data["meta"]["stats"]["values_not_kept"], 26);
}

#[test]
fn a_target_also_reached_by_a_drawn_edge_is_drawn_once() {
    let mut records = graph(60);
    // robots.txt also names one of the sitemap's URLs: that URL is drawn, and still listed in the
    // collapsed node.
    records.push(relation(ROBOTS, "robots_disallow", "url", "https://a.test/p/6", 9, 1));
    let (html, _) = build(PageOptions::default(), &records);
    let data = embedded(&html);
    let urls = nodes_of(&data, "url");
    assert_eq!(urls.len(), 1);
    assert_eq!(urls[0]["value"], "https://a.test/p/6");
    assert_eq!(urls[0]["verification"]["status"], "gone");
    assert_eq!(nodes_of(&data, "collapsed")[0]["values"][6]["value"], "https://a.test/p/6");
}

#[test]
fn vhosts_are_counted_and_malformed_records_refused() {
    let mut page = Page::new(PageOptions::default());
    page.push(&serde_json::json!({"type": "vhost", "name": "x.test"})).unwrap();
    assert_eq!(page.stats().vhosts, 1);
    assert!(page.push(&serde_json::json!({"kind": "url"})).unwrap_err().contains("typeless"));
    assert!(page.push(&serde_json::json!({"type": "node", "kind": "url"})).unwrap_err().contains("\"value\""));
    assert!(page.push(&serde_json::json!({"type": "inventory"})).unwrap_err().contains("inventory"));
    let e = page
        .push(&serde_json::json!({"type": "relation", "source": {"kind": "document"}, "relation": "x",
            "target": {"kind": "url", "value": "u"}}))
        .unwrap_err();
    assert!(e.contains("source has no value"), "{e}");
}
