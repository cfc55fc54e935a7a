//! End to end: the issue-17 web metadata probes (`host-meta`, `host-meta.json`, `nodeinfo` and
//! `nodeinfo-document`, `trust.txt`, `did.json`, `did-configuration.json`, `csaf`) on the shared
//! fixture host `registry.test`, which serves a real document for each suffix (sources in
//! `tests/fixtures/SOURCES.md`). Each relation is asserted with its evidence (document, probe,
//! locator); the NodeInfo document and the linked DID's document are follow-ups on other hosts; and
//! at `--depth 1` the in-scope origins the documents reveal are scanned while the others are
//! recorded out of scope.

use serde_json::Value;

use crate::common;

use common::{codes, document, of_type, scan};

const PROBES: [&str; 8] = [
    "host-meta",
    "host-meta.json",
    "nodeinfo",
    "nodeinfo-document",
    "trust.txt",
    "did.json",
    "did-configuration.json",
    "csaf",
];

fn scan_registry() -> Vec<Value> {
    let mut args: Vec<&str> = Vec::new();
    for p in PROBES {
        args.extend(["--probe", p]);
    }
    args.extend([
        "--depth",
        "1",
        "--scope",
        "registry.test",
        "--scope",
        "asonix.dog",
        "--scope",
        "did.fortytwo.io",
        "https://registry.test",
    ]);
    let (code, records, stderr) = scan(&args);
    assert_eq!(code, 0, "{stderr}");
    records
}

/// The sighting of the candidate (`kind`, `relation`, `value`): its `candidate` record, or the
/// `evidence` record of a later sighting when another document declared the value first.
fn candidate<'a>(records: &'a [Value], kind: &str, relation: &str, value: &str) -> &'a Value {
    records
        .iter()
        .find(|r| {
            (r["type"] == "candidate" || r["type"] == "evidence")
                && r["kind"] == kind
                && r["relation"] == relation
                && r["value"] == value
        })
        .unwrap_or_else(|| panic!("no {kind} {relation} {value}"))
}

/// (document URL, probe, locator) of a candidate's evidence.
fn evidence(c: &Value) -> (String, String, Value) {
    let e = &c["evidence"];
    (
        e["document_url"].as_str().unwrap_or_default().to_string(),
        e["probe"].as_str().unwrap_or_default().to_string(),
        e["locator"].clone(),
    )
}

fn inventory<'a>(records: &'a [Value], origin: &str) -> &'a Value {
    of_type(records, "inventory")
        .into_iter()
        .find(|i| i["value"] == origin)
        .unwrap_or_else(|| panic!("no inventory record for {origin}"))
}

#[test]
fn every_suffix_on_registry_test_gives_its_relations_with_evidence() {
    let records = scan_registry();
    let wk = |s: &str| format!("https://registry.test/.well-known/{s}");

    let t = candidate(
        &records,
        "path",
        "link_template",
        "https://social.joshtriplett.org/.well-known/webfinger?resource={uri}",
    );
    assert_eq!(evidence(t), (wk("host-meta"), "host-meta".into(), serde_json::json!({"xml": "/XRD/Link[1]"})));
    assert_eq!(t["hints"]["rel"], "lrdd");
    let h = candidate(&records, "host", "link_host", "social.joshtriplett.org");
    assert_eq!(evidence(h).0, wk("host-meta"));

    let bosh = candidate(&records, "url", "link", "https://xmpp.kosmos.org:5443/bosh");
    assert_eq!(
        evidence(bosh),
        (wk("host-meta.json"), "host-meta.json".into(), serde_json::json!({"json_pointer": "/links/0"}))
    );

    let ni = candidate(&records, "url", "nodeinfo", "https://asonix.dog/nodeinfo/2.0");
    assert_eq!(evidence(ni), (wk("nodeinfo"), "nodeinfo".into(), serde_json::json!({"json_pointer": "/links/0"})));
    assert_eq!(ni["hints"]["schema"], "2.0");

    let belongto = candidate(&records, "origin", "belongto", "https://www.microsoft.com");
    assert_eq!(evidence(belongto), (wk("trust.txt"), "trust.txt".into(), serde_json::json!({"line": 4})));
    let social = candidate(&records, "url", "social", "https://infosec.exchange/@chpaquin");
    assert_eq!(evidence(social).2, serde_json::json!({"line": 9}));

    // The DID documents are the did.fortytwo.io ones, served here at the wrong origin.
    assert!(codes(&records, &wk("did.json")).contains(&"id_mismatch".to_string()));
    let hub = candidate(
        &records,
        "url",
        "service_endpoint",
        "https://hub.did.msidentity.com/v1.0/ebad9241-2387-4155-8952-c8d8718bf80c",
    );
    assert_eq!(evidence(hub).1, "did.json");
    assert!(codes(&records, &wk("did-configuration.json")).contains(&"origin_mismatch".to_string()));
    let linked = candidate(&records, "origin", "linked_did", "https://did.fortytwo.io");
    assert_eq!(
        evidence(linked),
        (
            wk("did-configuration.json"),
            "did-configuration.json".into(),
            serde_json::json!({"json_pointer": "/linked_dids/0"})
        )
    );
    assert_eq!(linked["hints"]["signature"], "unverified");

    let feed = candidate(&records, "url", "distribution_directory", "https://clouditor.io/.well-known/csaf/white/");
    assert_eq!(
        evidence(feed),
        (
            wk("csaf/provider-metadata.json"),
            "csaf".into(),
            serde_json::json!({"json_pointer": "/distributions/0/directory_url"})
        )
    );
    assert!(codes(&records, &wk("csaf/provider-metadata.json")).contains(&"canonical_url_mismatch".to_string()));
}

#[test]
fn follow_ups_read_the_nodeinfo_document_and_the_linked_did_document() {
    let records = scan_registry();
    let doc = document(&records, "https://asonix.dog/nodeinfo/2.0").expect("NodeInfo document");
    assert_eq!(
        (doc["probe"].as_str(), doc["role"].as_str(), doc["status"].as_u64()),
        (Some("nodeinfo-document"), Some("nodeinfo"), Some(200))
    );
    assert_eq!(doc["facts"]["software_name"], "mastodon");
    assert_eq!(doc["facts"]["software_version"], "3.1.3-asonix-changes");
    assert_eq!(doc["facts"]["protocols"], serde_json::json!(["activitypub"]));

    let did = document(&records, "https://did.fortytwo.io/.well-known/did.json").expect("linked DID document");
    assert_eq!(did["probe"], "did.json");
    assert_eq!(did["status"], 200);
    assert_eq!(did["facts"]["did_matches_origin"], true);
    assert!(codes(&records, "https://did.fortytwo.io/.well-known/did.json").is_empty());
}

#[test]
fn revealed_origins_in_scope_are_scanned_at_depth_1_and_the_others_recorded() {
    let records = scan_registry();
    for origin in ["https://asonix.dog", "https://did.fortytwo.io"] {
        let i = inventory(&records, origin);
        assert_eq!((i["action"].as_str(), i["depth"].as_u64()), (Some("queued"), Some(1)), "{origin}: {i}");
        assert_eq!(i["revealed_by"], "https://registry.test");
        let unit = of_type(&records, "origin").into_iter().find(|o| o["origin"] == origin);
        assert_eq!(unit.map(|o| o["depth"].clone()), Some(1.into()), "{origin} was scanned as a unit");
    }
    // The revealed unit ran the probes: asonix.dog's own discovery document was asked for.
    assert!(document(&records, "https://asonix.dog/.well-known/nodeinfo").is_some());
    for origin in ["https://social.joshtriplett.org", "https://www.microsoft.com", "https://clouditor.io"] {
        assert_eq!(inventory(&records, origin)["action"], "out_of_scope", "{origin}");
    }
}
