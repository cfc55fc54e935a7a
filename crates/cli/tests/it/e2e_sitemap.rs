//! End to end: a real six-level nested sitemap tree declared by robots.txt
//! (sitemaps.mydripnurse.com), scanned through the fixture server. Every URL the served files declare
//! is found, and children that answer 404 are reported without losing what their index declared.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{document, scan};

/// Every `<loc>` value in the fixture files of a host: an oracle independent of the parser.
fn declared_locs(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            declared_locs(&p, out);
        } else if p.extension().is_some_and(|e| e == "xml") {
            let text = std::fs::read_to_string(&p).unwrap();
            for chunk in text.split("<loc>").skip(1) {
                if let Some((loc, _)) = chunk.split_once("</loc>") {
                    out.insert(loc.trim().replace("&amp;", "&"));
                }
            }
        }
    }
}

#[test]
fn nested_indexes_declared_by_robots_yield_every_url() {
    let (code, records, stderr) = scan(&[
        "--probe",
        "robots",
        "--probe",
        "sitemap",
        "--rate",
        "2000",
        "--per-host",
        "8",
        "https://sitemaps.mydripnurse.com",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let root = wellknown_tests::fixture_sites().join("sitemaps.mydripnurse.com");
    let mut declared = BTreeSet::new();
    declared_locs(&root, &mut declared);
    assert!(declared.len() > 500, "oracle found {} locs", declared.len());
    let found: BTreeSet<String> = records
        .iter()
        .filter(|r| r["type"] == "candidate" && (r["kind"] == "url" || r["kind"] == "sitemap"))
        .filter_map(|r| r["value"].as_str().map(str::to_string))
        .collect();
    let missing: Vec<&String> = declared.iter().filter(|l| !found.contains(*l)).take(5).collect();
    assert!(missing.is_empty(), "{} declared locs not found, e.g. {missing:?}", declared.difference(&found).count());

    // The robots.txt declaration is the first hop; the root index is interpreted as an index.
    let root_index = document(&records, "https://sitemaps.mydripnurse.com/sitemap.xml").expect("root index");
    assert_eq!(root_index["role"], "robots_sitemap");
    assert_eq!(root_index["kind"], "sitemapindex");
    // The deepest level present (a city sitemap under states/delaware/...) was reached.
    let max_hop = records.iter().filter(|r| r["type"] == "document").filter_map(|r| r["hop"].as_u64()).max();
    assert!(max_hop >= Some(4), "max hop {max_hop:?}");
    // Children outside the corpus answer 404: reported as documents, and their index's
    // declaration of them stays a candidate.
    let gone: Vec<&serde_json::Value> =
        records.iter().filter(|r| r["type"] == "document" && r["probe"] == "sitemap" && r["status"] == 404).collect();
    assert!(!gone.is_empty());
    let child = gone[0]["requested_url"].as_str().unwrap();
    assert!(found.contains(child), "{child} lost its declaration");
}
