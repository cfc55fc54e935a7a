//! End to end: the issue-17 probes for mail, chat, passkeys, site sets and API catalogs
//! (`mta-sts.txt`, `matrix-server`, `matrix-client`, `webauthn`, `related-website-set.json`,
//! `api-catalog`) on the fixture host `registry.test`, which publishes a real document for each
//! (`tests/fixtures/SOURCES.md`): every relation is in the output with its evidence (document and
//! locator), the MTA-STS policy is fetched from its policy host, and the origins and issuer those
//! documents reveal inside the scope are scanned at depth 1, the others recorded, never requested.

use crate::common;

use std::path::Path;

use common::{document, own_server, requests_to, scan_in};
use serde_json::{Value, json};

const PROBES: [&str; 7] = [
    "mta-sts.txt",
    "matrix-server",
    "matrix-client",
    "webauthn",
    "related-website-set.json",
    "api-catalog",
    "openid-configuration",
];

/// A fixture tree of `registry.test` and its policy host `mta-sts.registry.test` (copied from
/// `tests/fixtures/sites`), and two empty hosts the documents name, so that the server's certificate
/// covers them and their depth-1 units get answers (404).
fn tree(root: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            let target = to.join(e.file_name());
            if e.path().is_dir() {
                copy(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    for host in ["registry.test", "mta-sts.registry.test"] {
        copy(&wellknown_tests::fixture_sites().join(host), &root.join(host));
    }
    for host in ["gnuradio.ems.host", "chat.gnuradio.org"] {
        std::fs::create_dir_all(root.join(host)).unwrap();
    }
}

/// The candidate or later `evidence` record of (kind, relation, value) whose evidence names
/// `document_url`.
fn sighting<'a>(records: &'a [Value], kind: &str, relation: &str, value: &str, document_url: &str) -> &'a Value {
    records
        .iter()
        .find(|r| {
            (r["type"] == "candidate" || r["type"] == "evidence")
                && r["kind"] == kind
                && r["relation"] == relation
                && r["value"] == value
                && r["evidence"]["document_url"] == document_url
        })
        .unwrap_or_else(|| panic!("no {kind} {relation} {value} from {document_url}"))
}

fn inventory<'a>(records: &'a [Value], value: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == "inventory" && r["value"] == value)
        .unwrap_or_else(|| panic!("no inventory record for {value}"))
}

fn unit<'a>(records: &'a [Value], label: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == "origin" && r["origin"] == label)
        .unwrap_or_else(|| panic!("no origin record for {label}"))
}

#[test]
fn registry_test_relations_and_their_follow_on_units() {
    let root = tempfile::tempdir().unwrap();
    tree(root.path());
    let server = own_server(root.path());
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["--no-store", "--no-verify", "--rate", "0", "--depth", "1"];
    // The default scope would be *.registry.test; two hosts the documents name are added so that
    // their units are scanned at depth 1.
    args.extend(["--scope", "*.registry.test", "--scope", "gnuradio.ems.host", "--scope", "chat.gnuradio.org"]);
    for p in PROBES {
        args.extend(["--probe", p]);
    }
    args.push("https://registry.test");
    let (code, records, stderr) = scan_in(dir.path(), &server, &args);
    assert_eq!(code, 0, "{stderr}");

    let wk = |path: &str| format!("https://registry.test/.well-known/{path}");
    // MTA-STS: the policy lives on the policy host, not on the origin scanned.
    let policy = "https://mta-sts.registry.test/.well-known/mta-sts.txt";
    let doc = document(&records, policy).expect("the policy document");
    assert_eq!(
        (doc["probe"].as_str(), doc["status"].as_u64(), doc["valid"].as_bool()),
        (Some("mta-sts.txt"), Some(200), Some(true))
    );
    assert_eq!(doc["facts"]["policy_domain"], "registry.test");
    assert!(document(&records, &wk("mta-sts.txt")).is_none(), "the origin's own path is not the policy's location");
    assert_eq!(
        requests_to(&server, "mta-sts.registry.test"),
        [("GET".to_string(), "/.well-known/mta-sts.txt".to_string())]
    );
    let mx = sighting(&records, "host", "mta_sts_mx", "aspmx.l.google.com", policy);
    assert_eq!(mx["evidence"]["locator"], json!({"line": 4}));
    assert_eq!(mx["in_scope"], false);
    assert_eq!(inventory(&records, "https://aspmx.l.google.com")["action"], "out_of_scope");

    // Matrix: the delegated server (host and origin) and the client's base URLs and issuer.
    let server_doc = wk("matrix/server");
    let delegated = sighting(&records, "host", "matrix_server", "gnuradio.ems.host", &server_doc);
    assert_eq!(delegated["evidence"]["locator"], json!({"json_pointer": "/m.server"}));
    sighting(&records, "origin", "matrix_server", "https://gnuradio.ems.host", &server_doc);
    let client_doc = wk("matrix/client");
    let hs = sighting(&records, "origin", "matrix_homeserver", "https://gnuradio.ems.host", &client_doc);
    assert_eq!(hs["evidence"]["locator"], json!({"json_pointer": "/m.homeserver/base_url"}));
    let is = sighting(&records, "origin", "matrix_identity_server", "https://vector.im", &client_doc);
    assert_eq!(is["in_scope"], false);
    let issuer = sighting(&records, "issuer", "matrix_oidc_issuer", "https://chat.gnuradio.org/account/", &client_doc);
    assert_eq!(issuer["evidence"]["locator"], json!({"json_pointer": "/org.matrix.msc2965.authentication/issuer"}));

    // WebAuthn: origins of the same organisation, with their registrable-domain label.
    let webauthn = sighting(&records, "origin", "webauthn_related_origin", "https://nostrbook.net", &wk("webauthn"));
    assert_eq!(webauthn["evidence"]["locator"], json!({"json_pointer": "/origins/4"}));
    assert_eq!(webauthn["hints"]["label"], "nostrbook");

    // Related Website Set: the primary and an associated site (served here, not by the primary).
    let rws = wk("related-website-set.json");
    sighting(&records, "origin", "rws_primary", "https://poalim.xyz", &rws);
    let member = sighting(&records, "origin", "rws_associated_site", "https://poalim.site", &rws);
    assert_eq!(member["evidence"]["locator"], json!({"json_pointer": "/associatedSites/0"}));
    assert!(common::codes(&records, &rws).contains(&"not_served_by_primary".to_string()));

    // API catalog: the item and the documentation.
    let catalog = wk("api-catalog");
    let item = sighting(&records, "url", "api_catalog_item", "https://bitcoin.design/search-data.json", &catalog);
    assert_eq!(item["evidence"]["locator"], json!({"json_pointer": "/linkset/0/item/0/href"}));
    sighting(&records, "url", "api_catalog_service_doc", "https://bitcoin.design/guide/", &catalog);

    // Depth 1: the in-scope origin and issuer the documents reveal are scanned; the MTA-STS probe
    // there asks for mta-sts.gnuradio.ems.host, which the scope leaves out: recorded, not requested.
    let ems = inventory(&records, "https://gnuradio.ems.host");
    assert_eq!(
        (ems["action"].as_str(), ems["depth"].as_u64(), ems["unit"].as_str()),
        (Some("queued"), Some(1), Some("origin"))
    );
    assert_eq!(ems["revealed_by"], "https://registry.test");
    assert_eq!(unit(&records, "https://gnuradio.ems.host")["depth"], 1);
    let matrix_there =
        document(&records, "https://gnuradio.ems.host/.well-known/matrix/server").expect("scanned at depth 1");
    assert_eq!(matrix_there["status"], 404, "{matrix_there}");
    let outside = document(&records, "https://mta-sts.gnuradio.ems.host/.well-known/mta-sts.txt").expect("recorded");
    assert_eq!(outside["failure"]["class"], "out_of_scope");
    assert!(requests_to(&server, "mta-sts.gnuradio.ems.host").is_empty());
    let tenant = inventory(&records, "https://chat.gnuradio.org/account/");
    assert_eq!((tenant["unit"].as_str(), tenant["action"].as_str()), (Some("issuer"), Some("queued")));
    assert_eq!(unit(&records, "https://chat.gnuradio.org/account/")["unit"], "issuer");
    let metadata = records
        .iter()
        .find(|r| {
            r["type"] == "document"
                && r["probe"] == "openid-configuration"
                && r["requested_url"].as_str().is_some_and(|u| u.starts_with("https://chat.gnuradio.org/account"))
        })
        .expect("the issuer unit's metadata request");
    assert_eq!(metadata["status"], 404);
    // Out of scope: recorded, never requested.
    assert_eq!(inventory(&records, "https://poalim.xyz")["action"], "out_of_scope");
    assert!(document(&records, "https://poalim.xyz/.well-known/related-website-set.json").is_none());
    assert!(requests_to(&server, "poalim.xyz").is_empty() && requests_to(&server, "vector.im").is_empty());
}
