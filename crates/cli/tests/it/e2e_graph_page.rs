//! End to end in a browser: `wellknown graph --format html` of a scan of the fixture sites, opened
//! from a file:// URL in headless chromium (chromedriver, `common::webdriver`): the nodes render,
//! a real click on a node shows its evidence, and documents carrying `<script>` and `javascript:`
//! payloads show them as text and run nothing. Screenshots are kept in `target/graph-page/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); outside CI the tests
//! skip without them.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use common::webdriver::Browser;

const OIDC: &str = "https://accounts.google.com/.well-known/openid-configuration";
const DEVICE_ENDPOINT: &str = "https://oauth2.googleapis.com/device/code";
const READY: &str = "return !!(window.wellknownGraph && window.wellknownGraph.isReady())";
const LIMIT: Duration = Duration::from_secs(120);

/// `target/graph-page/`, beside the test binary's `debug/`.
fn shots() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).expect("target directory");
    let dir = target.join("graph-page");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn file_url(p: &Path) -> String {
    format!("file://{}", p.canonicalize().unwrap().display())
}

/// `wellknown graph --format html -o page.html` in `dir`; returns the page's path and standard error.
fn html_page(dir: &Path) -> (PathBuf, String) {
    let out = common::wellknown_in(dir, &["graph", "--format", "html", "-o", "page.html"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    (dir.join("page.html"), stderr)
}

/// Clicks the node (kind, value) where it is drawn and returns the evidence panel's text.
fn click_node(b: &Browser, kind: &str, value: &str) -> String {
    let id = b.js("return window.wellknownGraph.nodeId(arguments[0], arguments[1])", json!([kind, value]));
    assert!(id.is_string(), "no node {kind} {value}");
    let p = b.js("return window.wellknownGraph.clientPosition(arguments[0])", json!([id]));
    b.click_at(p["x"].as_i64().unwrap(), p["y"].as_i64().unwrap());
    b.js("return document.getElementById('panel').innerText", json!([])).as_str().unwrap().to_string()
}

fn pwned(b: &Browser) -> Value {
    b.js("return [typeof window.__pwned, document.title]", json!([]))
}

#[test]
fn the_page_of_a_fixture_scan_renders_and_shows_evidence_on_click() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = common::scan_in(
        dir.path(),
        common::server(),
        &[
            "--depth",
            "0",
            "--rate",
            "2000",
            "--per-host",
            "8",
            "--max-verify",
            "40",
            "https://accounts.google.com",
            "https://sitemaps.mydripnurse.com",
        ],
    );
    assert!(code <= 1, "{stderr}");
    let (page, notes) = html_page(dir.path());
    assert!(notes.contains("graph page:"), "{notes}");
    // The JSON Lines export of the same store: what the page must show.
    let export = common::jsonl(&common::wellknown_in(dir.path(), &["graph"]).stdout);
    let relation = export
        .iter()
        .find(|r| r["type"] == "relation" && r["target"]["value"] == DEVICE_ENDPOINT && r["source"]["value"] == OIDC)
        .expect("the device endpoint's relation");
    let fetched_at = relation["evidence"][0]["fetched_at"].as_str().unwrap();
    let pointer = relation["evidence"][0]["locator"]["json_pointer"].as_str().unwrap();
    let documents = export.iter().filter(|r| r["type"] == "node" && r["kind"] == "document").count();

    let Some(b) = Browser::start() else { return };
    b.open(&file_url(&page));
    let took = b.wait_for(READY, LIMIT);
    eprintln!("graph page ready in {took:?}");
    let nodes = b.js("return window.wellknownGraph.nodeCount()", json!([])).as_u64().unwrap();
    let drawn = b.js("return document.querySelectorAll('#cy canvas').length", json!([])).as_u64().unwrap();
    assert!(drawn > 0, "no canvas");
    // Every document is drawn, with its origin; the sitemap tree's URLs are collapsed.
    assert!(nodes as usize > documents, "{nodes} nodes for {documents} documents");
    let collapsed = b.js("return window.wellknownGraph.collapsedIds().length", json!([])).as_u64().unwrap();
    assert!(collapsed >= 1, "the nested sitemaps' URLs are collapsed");
    let summary = b.js("return document.getElementById('summary').textContent", json!([]));
    assert!(summary.as_str().unwrap().starts_with(&format!("{nodes} of {nodes} nodes shown")), "{summary}");

    let panel = click_node(&b, "endpoint", DEVICE_ENDPOINT);
    std::fs::write(shots().join("fixture-scan.png"), b.screenshot()).unwrap();
    assert!(panel.contains(DEVICE_ENDPOINT), "{panel}");
    assert!(panel.contains(&format!("Declared by {OIDC}")), "{panel}");
    assert!(panel.contains(OIDC), "{panel}");
    assert!(panel.contains(fetched_at), "fetched at {fetched_at}: {panel}");
    assert!(panel.contains(&format!("json_pointer {pointer}")), "{panel}");
    assert!(panel.contains("device_authorization_endpoint"), "{panel}");
    assert!(panel.contains("verdict"), "{panel}");
    assert_eq!(pwned(&b), json!(["undefined", "wellknown graph"]));
}

/// A site whose robots.txt and sitemap carry script payloads.
fn payload_site(root: &Path) {
    let site = root.join("payload.test");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(
        site.join("robots.txt"),
        "User-agent: </script><script>window.__pwned=1</script>\n\
         Disallow: /</script><script>window.__pwned=2;document.title='pwned'</script>\n\
         Disallow: /<img src=x onerror=window.__pwned=3>\n\
         Sitemap: https://payload.test/sitemap.xml\n",
    )
    .unwrap();
    std::fs::write(
        site.join("sitemap.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
         <url><loc>javascript:window.__pwned=4</loc></url>\n\
         <url><loc>https://payload.test/a?q=&lt;/script&gt;&lt;script&gt;window.__pwned=5&lt;/script&gt;</loc></url>\n\
         </urlset>\n",
    )
    .unwrap();
}

#[test]
fn script_payloads_in_scanned_documents_show_as_text_and_run_nothing() {
    let root = tempfile::tempdir().unwrap();
    payload_site(root.path());
    let server = common::own_server(root.path());
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = common::scan_in(dir.path(), &server, &["--depth", "0", "https://payload.test"]);
    assert!(code <= 1, "{stderr}");
    let (page, _) = html_page(dir.path());
    let export = common::jsonl(&common::wellknown_in(dir.path(), &["graph"]).stdout);
    // The store holds the paths and URLs percent-encoded, but the robots.txt group a sighting names
    // (its hints) as written: the target nodes of those sightings must show it as text.
    let raw: Vec<(String, String, String)> = export
        .iter()
        .filter(|r| r["type"] == "relation")
        .filter_map(|r| {
            let group = r["evidence"][0]["hints"]["group"].as_str()?;
            group.contains("<script>").then(|| {
                let t = &r["target"];
                (t["kind"].as_str().unwrap().to_string(), t["value"].as_str().unwrap().to_string(), group.to_string())
            })
        })
        .collect();
    assert!(!raw.is_empty(), "no sighting kept the payload: {export:?}");
    // And a page built straight from records whose values hold a script end tag.
    let crafted = dir.path().join("crafted.html");
    let payload = "https://x.test/</script><script>window.__pwned=6;document.title='pwned'</script>";
    let mut p = wellknown_graph_page::Page::new(wellknown_graph_page::PageOptions::default());
    for r in [
        json!({"type": "node", "kind": "document", "value": "https://x.test/sitemap.xml", "in_scope": null}),
        json!({"type": "node", "kind": "url", "value": payload, "in_scope": true, "verification": null}),
        json!({"type": "relation", "source": {"kind": "document", "value": "https://x.test/sitemap.xml"},
            "relation": "sitemap_loc", "target": {"kind": "url", "value": payload}, "confidence": 0.5,
            "state": "listed", "evidence": [{"document_url": "https://x.test/sitemap.xml", "fetched_at": "2026-01-01T00:00:00Z",
            "status": 200, "probe": "sitemap", "scan": 1, "locator": {"line": 3},
            "hints": {"note": "<img src=x onerror=window.__pwned=7>"}, "flags": []}]}),
    ] {
        p.push(&r).unwrap();
    }
    let mut f = std::fs::File::create(&crafted).unwrap();
    p.finish(&mut f).unwrap();
    drop(f);

    let Some(b) = Browser::start() else { return };
    b.open(&file_url(&page));
    b.wait_for(READY, LIMIT);
    assert!(b.js("return window.wellknownGraph.nodeCount()", json!([])).as_u64().unwrap() >= 3);
    for (kind, value, group) in &raw {
        let panel = click_node(&b, kind, value);
        assert!(panel.contains(value.as_str()), "{value} not shown: {panel}");
        assert!(panel.contains(group.as_str()), "{group} not shown as text: {panel}");
    }
    // The javascript: URL, if kept, is text: no link made of it.
    let links = b.js(
        "return Array.prototype.map.call(document.querySelectorAll('a'), function (a) { return a.getAttribute('href'); })",
        json!([]),
    );
    assert!(links.as_array().unwrap().iter().all(|h| h.as_str().is_some_and(|h| h.starts_with("http"))), "{links}");
    std::fs::write(shots().join("payload-scan.png"), b.screenshot()).unwrap();
    assert_eq!(pwned(&b), json!(["undefined", "wellknown graph"]));

    b.open(&file_url(&crafted));
    b.wait_for(READY, LIMIT);
    let panel = click_node(&b, "url", payload);
    assert!(panel.contains(payload), "{panel}");
    assert!(panel.contains("<img src=x onerror=window.__pwned=7>"), "{panel}");
    let search = b.js(
        "var s = document.getElementById('search'); s.value = 'script'; s.dispatchEvent(new Event('input')); \
         return document.getElementById('search-result').innerText",
        json!([]),
    );
    assert!(search.as_str().unwrap().contains(payload), "{search}");
    std::fs::write(shots().join("payload-records.png"), b.screenshot()).unwrap();
    assert_eq!(pwned(&b), json!(["undefined", "wellknown graph"]));
    assert_eq!(b.js("return document.querySelectorAll('img').length", json!([])), json!(0));
}
