//! End to end: a redirect out of scope is a relation the origin declares. The target becomes a `url`
//! candidate (`redirect_location`) with evidence naming the document that redirected, its host goes
//! to the inventory as out of scope, nothing there is requested, and the summary counts it apart from
//! fetch failures. A verification redirected out of scope keeps the redirect's status. The
//! private-address refusal says how the address was reached (`--connect-to`).

use crate::common;

use common::{document, of_type, own_server, requests_to, routing_args, scan_in, server, wellknown, wellknown_in};
use serde_json::{Value, json};
use wellknown_tests::fixture_sites;

fn candidate<'a>(records: &'a [Value], value: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == "candidate" && r["value"] == value)
        .unwrap_or_else(|| panic!("no candidate {value}"))
}

#[test]
fn a_redirect_out_of_scope_is_recorded_as_a_candidate_and_never_followed() {
    let server = own_server(&fixture_sites());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) = scan_in(dir.path(), &server, &["--rate", "0", "https://redirect-out.test"]);
    assert_eq!(code, 0, "robots.txt was read: {stderr}");

    // /.well-known/security.txt 302 -> https://third-party.test/security.txt
    let sec = candidate(&records, "https://third-party.test/security.txt");
    assert_eq!(
        (&sec["kind"], &sec["relation"], &sec["in_scope"]),
        (&json!("url"), &json!("redirect_location"), &json!(false))
    );
    assert_eq!(
        sec["evidence"],
        json!({
            "document_url": "https://redirect-out.test/.well-known/security.txt",
            "probe": "security.txt",
            "fetched_at": sec["evidence"]["fetched_at"],
            "status": 302,
            "locator": {"redirect": 0}
        })
    );
    // /sitemap.xml 301 -> /sitemaps/main.xml (in scope, followed) 302 -> https://cdn.third-party.test/sitemap.xml
    let map = candidate(&records, "https://cdn.third-party.test/sitemap.xml");
    assert_eq!(map["relation"], "redirect_location");
    assert_eq!(map["evidence"]["document_url"], "https://redirect-out.test/sitemap.xml");
    assert_eq!((&map["evidence"]["status"], &map["evidence"]["locator"]), (&json!(302), &json!({"redirect": 1})));

    // The documents still say where they stopped and why.
    let doc = document(&records, "https://redirect-out.test/.well-known/security.txt").unwrap();
    assert_eq!(doc["url"], "https://third-party.test/security.txt");
    assert_eq!(doc["failure"]["class"], "out_of_scope");
    assert_eq!(
        doc["redirect_chain"],
        json!([{"url": "https://redirect-out.test/.well-known/security.txt", "status": 302}])
    );

    // The hosts are in the inventory, out of scope; nothing was requested from them.
    let inventory: Vec<(&str, &str)> = of_type(&records, "inventory")
        .iter()
        .filter_map(|i| Some((i["value"].as_str()?, i["action"].as_str()?)))
        .collect();
    assert!(inventory.contains(&("https://third-party.test", "out_of_scope")), "{inventory:?}");
    assert!(inventory.contains(&("https://cdn.third-party.test", "out_of_scope")), "{inventory:?}");
    assert!(requests_to(&server, "third-party.test").is_empty());
    assert!(requests_to(&server, "cdn.third-party.test").is_empty());

    // /page1 (a robots.txt path) 301 -> https://third-party.test/landing: the verdict keeps the 301.
    let v = of_type(&records, "verification")
        .into_iter()
        .find(|v| v["value"] == "https://redirect-out.test/page1")
        .expect("verification of /page1");
    assert_eq!((&v["status"], &v["http_status"]), (&json!("redirect"), &json!(301)), "{v}");
    assert_eq!(v["target"], "https://third-party.test/landing");
    assert_eq!(v["failure"]["class"], "out_of_scope");

    // The origin answered: reachable, and not a fetch failure.
    let s = records.last().unwrap();
    assert_eq!(s["type"], "summary");
    assert_eq!(
        (&s["redirected_out_of_scope"], &s["fetch_failures"], &s["reachable"]),
        (&json!(2), &json!(0), &json!(1)),
        "{s}"
    );
    let origin = of_type(&records, "origin")[0];
    assert_eq!((&origin["reachable"], origin.get("failures")), (&json!(true), None), "{origin}");

    // The store holds the relation, from the document that redirected.
    let out = wellknown_in(dir.path(), &["graph", "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let graph = common::jsonl(&out.stdout);
    let rel = graph
        .iter()
        .find(|l| l["type"] == "relation" && l["target"]["value"] == "https://third-party.test/security.txt")
        .expect("relation in the store");
    assert_eq!(
        rel["source"],
        json!({"kind": "document", "value": "https://redirect-out.test/.well-known/security.txt"})
    );
    assert_eq!(rel["relation"], "redirect_location");
    assert_eq!((&rel["evidence"][0]["status"], &rel["evidence"][0]["locator"]), (&json!(302), &json!({"redirect": 0})));
    let out = wellknown_in(dir.path(), &["candidates", "--kind", "url", "--format", "jsonl"]);
    let listed = common::jsonl(&out.stdout);
    let c = listed.iter().find(|c| c["value"] == "https://third-party.test/security.txt").expect("listed");
    assert_eq!((&c["in_scope"], &c["status"]), (&json!(false), &json!("out_of_scope")), "{c}");
}

#[test]
fn the_private_address_refusal_names_the_connect_to_route() {
    let https = server().https_addr.unwrap().port();
    // The routing arguments without --allow-private.
    let mut args: Vec<String> = vec!["scan".into(), "--no-store".into(), "--probe".into(), "security.txt".into()];
    args.extend(routing_args().into_iter().filter(|a| a != "--allow-private"));
    args.push("https://plainsec.test".into());
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = wellknown(&refs);
    let records = common::jsonl(&out.stdout);
    let doc = document(&records, "https://plainsec.test/.well-known/security.txt").expect("document record");
    assert_eq!(doc["failure"]["class"], "private_address");
    assert_eq!(
        doc["failure"]["message"],
        "plainsec.test is routed to 127.0.0.1 (loopback address) by --connect-to; refused without --allow-private",
        "port {https}"
    );
    assert_eq!(out.status.code(), Some(2));
}
