//! End to end: verification of candidate URLs, `--obey-robots`, feedback into the frontier
//! (`--depth`) and virtual-host attempts, through the real binary and the fixture server, each test
//! in its own temporary directory (own store) with its own fixture server (own request log).

use crate::common;

use std::collections::HashMap;

use common::{of_type, own_server, requests_to, scan_in};
use serde_json::Value;
use wellknown_tests::fixture_sites;

/// value -> (status, http_status, target, source) of the verification records.
fn verdicts(records: &[Value]) -> HashMap<String, (String, Value, Value, String)> {
    of_type(records, "verification")
        .into_iter()
        .map(|v| {
            (
                v["value"].as_str().unwrap_or_default().to_string(),
                (
                    v["status"].as_str().unwrap_or_default().to_string(),
                    v["http_status"].clone(),
                    v["target"].clone(),
                    v["source"].as_str().unwrap_or_default().to_string(),
                ),
            )
        })
        .collect()
}

fn verdict(v: &HashMap<String, (String, Value, Value, String)>, url: &str) -> (String, Value) {
    let (s, h, _, _) = v.get(url).unwrap_or_else(|| panic!("no verification of {url}: {v:#?}"));
    (s.clone(), h.clone())
}

#[test]
fn robots_paths_and_sitemaps_are_verified_and_out_of_scope_is_never_requested() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) = scan_in(dir.path(), &server, &["--rate", "0", "--depth", "0", "https://verify.test"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = verdicts(&records);
    // robots.txt paths: HEAD requests.
    assert_eq!(verdict(&v, "https://verify.test/alive/"), ("alive".into(), 200.into()));
    assert_eq!(verdict(&v, "https://verify.test/gone/"), ("gone".into(), 410.into()));
    assert_eq!(verdict(&v, "https://verify.test/private/"), ("auth_required".into(), 401.into()));
    assert_eq!(verdict(&v, "https://verify.test/admin/"), ("auth_required".into(), 403.into()));
    let old = &v["https://verify.test/old/"];
    assert_eq!((old.0.as_str(), &old.2), ("redirect", &Value::from("https://verify.test/alive/")));
    // Sitemaps declared by robots.txt were fetched as documents: those fetches are the verdicts.
    assert_eq!(verdict(&v, "https://verify.test/sitemap-alive.xml"), ("alive".into(), 200.into()));
    assert_eq!(verdict(&v, "https://verify.test/sitemap-gone.xml"), ("gone".into(), 404.into()));
    assert_eq!(verdict(&v, "https://verify.test/sitemap-auth.xml"), ("auth_required".into(), 401.into()));
    assert_eq!(v["https://verify.test/sitemap-alive.xml"].3, "document");
    // The out-of-scope sitemap is recorded (no verdict: it is not verified) and never requested.
    assert!(!v.contains_key("https://elsewhere.test/sitemap.xml"));
    let cand = records.iter().find(|r| r["type"] == "candidate" && r["value"] == "https://elsewhere.test/sitemap.xml");
    assert_eq!(cand.map(|c| c["in_scope"].clone()), Some(Value::Bool(false)));
    assert!(requests_to(&server, "elsewhere.test").is_empty(), "{:?}", server.requests());
    // HEAD for the paths, no second fetch of a sitemap already read.
    let seen = requests_to(&server, "verify.test");
    assert!(seen.contains(&("HEAD".into(), "/alive/".into())), "{seen:?}");
    assert!(seen.contains(&("HEAD".into(), "/private/".into())), "{seen:?}");
    assert_eq!(seen.iter().filter(|(_, p)| p == "/sitemap-alive.xml").count(), 1, "{seen:?}");
    let summary = records.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        summary["verifications"], 8,
        "5 paths, 3 sitemaps in scope (the sitemap's own URL is a path already verified)"
    );
    // The store has the same verdicts.
    let out = common::wellknown_in(dir.path(), &["candidates", "--status", "auth_required"]);
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(
        lines,
        ["https://verify.test/sitemap-auth.xml", "https://verify.test/admin/", "https://verify.test/private/"],
        "sorted by kind, then value"
    );
    let out = common::wellknown_in(dir.path(), &["candidates", "--kind", "sitemap", "--in-scope", "--status", "gone"]);
    assert_eq!(std::str::from_utf8(&out.stdout).unwrap(), "https://verify.test/sitemap-gone.xml\n");
    let out = common::wellknown_in(dir.path(), &["candidates", "--status", "out_of_scope"]);
    assert_eq!(std::str::from_utf8(&out.stdout).unwrap(), "https://elsewhere.test/sitemap.xml\n");
}

#[test]
fn no_verify_sends_no_verification_request() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) =
        scan_in(dir.path(), &server, &["--rate", "0", "--depth", "0", "--no-verify", "https://verify.test"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert!(of_type(&records, "verification").is_empty());
    assert!(!server.requests().iter().any(|r| r.method == "HEAD"), "{:?}", server.requests());
}

#[test]
fn obey_robots_does_not_request_disallowed_paths() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) =
        scan_in(dir.path(), &server, &["--rate", "0", "--depth", "0", "--obey-robots", "https://verify.test"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let v = verdicts(&records);
    assert_eq!(verdict(&v, "https://verify.test/private/").0, "disallowed_by_robots");
    assert_eq!(verdict(&v, "https://verify.test/alive/").0, "disallowed_by_robots");
    let seen = requests_to(&server, "verify.test");
    assert!(!seen.iter().any(|(_, p)| p == "/private/" || p == "/alive/"), "{seen:?}");
    // Sitemaps are not disallowed: still fetched and verified.
    assert_eq!(verdict(&v, "https://verify.test/sitemap-alive.xml").0, "alive");
}

#[test]
fn an_endpoint_on_another_in_scope_host_is_scanned_at_depth_1_not_at_depth_0() {
    let at_one = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) = scan_in(dir.path(), &at_one, &["--rate", "0", "https://feedback.test"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let api = requests_to(&at_one, "api.feedback.test");
    assert!(api.contains(&("GET".into(), "/robots.txt".into())), "depth 1 scans api.feedback.test: {api:?}");
    let inventory = of_type(&records, "inventory");
    let queued = inventory.iter().find(|i| i["value"] == "https://api.feedback.test").expect("inventory record");
    assert_eq!(queued["action"], "queued");
    assert_eq!(queued["depth"], 1);
    assert_eq!(queued["revealed_by"], "https://feedback.test");
    assert_eq!(queued["candidate_value"], "https://api.feedback.test/token");
    let origin = of_type(&records, "origin").into_iter().find(|o| o["origin"] == "https://api.feedback.test");
    assert_eq!(origin.map(|o| o["depth"].clone()), Some(1.into()));
    assert!(
        records.iter().any(|r| r["type"] == "candidate" && r["value"] == "https://api.feedback.test/internal/"),
        "api.feedback.test's robots.txt was read"
    );

    let at_zero = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) =
        scan_in(dir.path(), &at_zero, &["--rate", "0", "--depth", "0", "https://feedback.test"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let api = requests_to(&at_zero, "api.feedback.test");
    assert_eq!(api, [("HEAD".to_string(), "/token".to_string())], "depth 0: only the endpoint's verification");
    let beyond = of_type(&records, "inventory").into_iter().find(|i| i["value"] == "https://api.feedback.test");
    assert_eq!(beyond.map(|i| i["action"].clone()), Some("beyond_depth".into()));
    assert_eq!(verdicts(&records)["https://api.feedback.test/token"].0, "auth_required");
}

#[test]
fn a_revealed_name_that_does_not_resolve_is_tried_as_a_virtual_host() {
    // corp.invalid resolves (--resolve) to the fixture server; intranet.corp.invalid does not
    // resolve (.invalid, RFC 6761) but answers there as a virtual host, over TLS with its own name.
    let server = own_server(&fixture_sites());
    let https = server.https_addr.unwrap().port();
    let ca = common::ca_file_for(&server);
    let dir = tempfile::tempdir().unwrap();
    let out = common::wellknown_in(
        dir.path(),
        &[
            "scan",
            "--quiet",
            "--allow-private",
            "--rate",
            "0",
            "--connect-to",
            &format!(":443::{https}"),
            "--resolve",
            &format!("corp.invalid:{https}:127.0.0.1"),
            "--ca-cert",
            &ca.display().to_string(),
            "https://corp.invalid",
        ],
    );
    let records = common::jsonl(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let sitemap = common::document(&records, "https://intranet.corp.invalid/sitemap.xml").expect("sitemap document");
    assert_eq!(sitemap["failure"]["class"], "dns_nxdomain", "the name does not resolve");
    let vhost = of_type(&records, "vhost");
    assert_eq!(vhost.len(), 1, "{vhost:?}");
    assert_eq!(vhost[0]["host"], "intranet.corp.invalid");
    assert_eq!(vhost[0]["revealed_by"], "https://corp.invalid");
    assert_eq!(vhost[0]["address"], "127.0.0.1");
    assert_eq!(vhost[0]["answers"], true);
    // Its documents were then read through that address, with its name as Host and SNI.
    let robots = records
        .iter()
        .find(|r| {
            r["type"] == "document" && r["url"] == "https://intranet.corp.invalid/robots.txt" && r["via"] == "127.0.0.1"
        })
        .expect("robots.txt read as a virtual host");
    assert_eq!(robots["status"], 200);
    assert!(records.iter().any(|r| r["type"] == "candidate" && r["value"] == "https://intranet.corp.invalid/hr/"));
    let log = requests_to(&server, "intranet.corp.invalid");
    assert!(log.contains(&("GET".into(), "/robots.txt".into())), "{log:?}");
    // The graph keeps the attempt.
    let out = common::wellknown_in(dir.path(), &["graph", "--format", "jsonl"]);
    let graph = common::jsonl(&out.stdout);
    let stored = graph.iter().find(|l| l["type"] == "vhost").expect("vhost in the graph");
    assert_eq!(stored["answers"], true);
}
