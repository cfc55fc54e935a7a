//! End to end: two scans of a site whose second version drops its sitemap and its security.txt.
//! `diff` shows it, the confidences of what was withdrawn fall, and the first scan's evidence stays.

use crate::common;

use std::path::Path;

use common::{jsonl, own_server, scan_in, wellknown_in};
use serde_json::Value;
use wellknown_tests::fixture_sites;

/// Version 2 of history.test: no sitemap, no security.txt, no `Sitemap:` line.
fn version_two(root: &Path) {
    let site = root.join("history.test");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::copy(fixture_sites().join("history.test/about"), site.join("about")).unwrap();
    std::fs::write(site.join("robots.txt"), "User-agent: *\nDisallow: /drafts/\n").unwrap();
}

fn relation<'a>(graph: &'a [Value], relation: &str, target: &str) -> &'a Value {
    graph
        .iter()
        .find(|l| l["type"] == "relation" && l["relation"] == relation && l["target"]["value"] == target)
        .unwrap_or_else(|| panic!("no {relation} relation to {target}"))
}

fn confidence(v: &Value) -> f64 {
    v["confidence"].as_f64().expect("confidence")
}

#[test]
fn a_second_scan_without_sitemap_and_security_txt_shows_in_diff_and_lowers_confidence() {
    let v1 = own_server(&fixture_sites());
    let root2 = tempfile::tempdir().unwrap();
    version_two(root2.path());
    let v2 = own_server(root2.path());
    let dir = tempfile::tempdir().unwrap();

    let (code, records, stderr) = scan_in(dir.path(), &v1, &["--rate", "0", "https://history.test"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(records.iter().any(|r| r["type"] == "candidate" && r["value"] == "mailto:security@history.test"));
    let graph1 = jsonl(&wellknown_in(dir.path(), &["graph"]).stdout);
    let sitemap1 = relation(&graph1, "robots_sitemap", "https://history.test/sitemap.xml").clone();
    let contact1 = relation(&graph1, "contact", "mailto:security@history.test").clone();
    assert_eq!(sitemap1["state"], "listed");
    assert_eq!(sitemap1["evidence"].as_array().map(Vec::len), Some(1));

    let (code, _, stderr) = scan_in(dir.path(), &v2, &["--rate", "0", "https://history.test"]);
    assert!(code <= 1, "{stderr}");

    // diff (default: the last two scans).
    let out = wellknown_in(dir.path(), &["diff"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "- relation sitemap https://history.test/sitemap.xml (robots_sitemap in https://history.test/robots.txt) [withdrawn]",
        "- relation contact mailto:security@history.test (contact in https://history.test/.well-known/security.txt) [unanswered]",
        "- relation url https://history.test/about (sitemap_loc in https://history.test/sitemap.xml) [unanswered]",
        "~ document security.txt https://history.test/.well-known/security.txt: 200 -> 404",
        "~ document sitemap https://history.test/sitemap.xml: 200 -> 404",
    ] {
        assert!(text.lines().any(|l| l == expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("/drafts/"), "an unchanged declaration is not a change:\n{text}");
    let out = wellknown_in(dir.path(), &["diff", "1", "2", "--format", "jsonl"]);
    let changes = jsonl(&out.stdout);
    assert_eq!(changes.len(), text.lines().count());
    assert!(changes.iter().any(|c| c["what"] == "document" && c["from"] == "200" && c["to"] == "404"));

    // Confidence falls; the first scan's evidence is still there, with its date.
    let graph2 = jsonl(&wellknown_in(dir.path(), &["graph"]).stdout);
    let sitemap2 = relation(&graph2, "robots_sitemap", "https://history.test/sitemap.xml");
    let contact2 = relation(&graph2, "contact", "mailto:security@history.test");
    assert_eq!(sitemap2["state"], "withdrawn");
    assert_eq!(contact2["state"], "unanswered");
    assert!(confidence(sitemap2) < confidence(&sitemap1), "{sitemap2} vs {sitemap1}");
    assert!(confidence(contact2) < confidence(&contact1), "{contact2} vs {contact1}");
    assert_eq!(sitemap2["evidence"], sitemap1["evidence"], "evidence is kept as it was");
    assert_eq!(sitemap2["evidence"][0]["scan"], 1);
    let drafts = relation(&graph2, "robots_disallow", "https://history.test/drafts/");
    assert_eq!(drafts["state"], "listed");
    assert_eq!(drafts["evidence"].as_array().map(Vec::len), Some(2), "one sighting per scan");

    // candidates reflect it too.
    let out = wellknown_in(dir.path(), &["candidates", "--kind", "sitemap", "--format", "jsonl"]);
    let rows = jsonl(&out.stdout);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["value"], "https://history.test/sitemap.xml");
    assert_eq!(rows[0]["confidence"], sitemap2["confidence"]);

    // The other exports carry the same graph.
    let dot = String::from_utf8(wellknown_in(dir.path(), &["graph", "--format", "dot"]).stdout).unwrap();
    assert!(dot.starts_with("digraph wellknown {") && dot.contains("robots_sitemap"), "{dot}");
    let graphml = String::from_utf8(wellknown_in(dir.path(), &["graph", "--format", "graphml"]).stdout).unwrap();
    assert!(graphml.contains("<data key=\"state\">withdrawn</data>"), "{graphml}");
}

#[test]
fn read_commands_need_a_store() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["diff"][..], &["candidates"], &["graph", "--format", "dot"]] {
        let out = wellknown_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("run `wellknown scan` first"), "{args:?}");
    }
    assert!(!dir.path().join("wellknown.db").exists(), "reading creates no store");
    let out = wellknown_in(dir.path(), &["graph", "--format", "svg", "--db", "x.db"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected dot, graphml, jsonl or html"));
}

#[test]
fn no_store_leaves_no_file_and_db_chooses_the_file() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) =
        scan_in(dir.path(), &server, &["--no-store", "--depth", "0", "--no-verify", "https://history.test"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
    let (code, _, stderr) =
        scan_in(dir.path(), &server, &["--db", "elsewhere.sqlite", "--depth", "0", "https://history.test"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.path().join("elsewhere.sqlite").is_file());
    assert!(!dir.path().join("wellknown.db").exists());
    let out = wellknown_in(dir.path(), &["candidates", "--db", "elsewhere.sqlite", "--kind", "contact"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "mailto:security@history.test\n");
}
