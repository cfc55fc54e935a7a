//! End to end: one scan of `registry.test`, the fixture host that publishes a real document for every
//! suffix issue 17 added (`tests/fixtures/SOURCES.md`), with every linked probe (the defaults): each
//! of those documents is fetched by its own probe, answers 200, is interpreted (`valid` is a
//! verdict), and declares at least one relation whose evidence names it. The relations one by one,
//! their locators and the depth-1 units they reveal are checked per plugin group in
//! `e2e_identity_registry.rs`, `e2e_net_registry.rs` and `e2e_web_metadata.rs`.

use crate::common;

use common::{document, scan_in, server};
use serde_json::Value;

/// (probe id, URL of its document) for every issue-17 suffix `registry.test` publishes.
const DOCUMENTS: [(&str, &str); 17] = [
    ("oauth-protected-resource", "https://registry.test/.well-known/oauth-protected-resource"),
    ("jwks.json", "https://registry.test/.well-known/jwks.json"),
    ("uma2-configuration", "https://registry.test/.well-known/uma2-configuration"),
    ("openid-federation", "https://registry.test/.well-known/openid-federation"),
    ("agent-card.json", "https://registry.test/.well-known/agent-card.json"),
    ("mta-sts.txt", "https://mta-sts.registry.test/.well-known/mta-sts.txt"),
    ("matrix-server", "https://registry.test/.well-known/matrix/server"),
    ("matrix-client", "https://registry.test/.well-known/matrix/client"),
    ("webauthn", "https://registry.test/.well-known/webauthn"),
    ("related-website-set.json", "https://registry.test/.well-known/related-website-set.json"),
    ("api-catalog", "https://registry.test/.well-known/api-catalog"),
    ("host-meta", "https://registry.test/.well-known/host-meta"),
    ("host-meta.json", "https://registry.test/.well-known/host-meta.json"),
    ("nodeinfo", "https://registry.test/.well-known/nodeinfo"),
    ("trust.txt", "https://registry.test/.well-known/trust.txt"),
    ("did.json", "https://registry.test/.well-known/did.json"),
    ("csaf", "https://registry.test/.well-known/csaf/provider-metadata.json"),
];

/// Candidate and evidence records whose evidence names `document_url`.
fn relations<'a>(records: &'a [Value], document_url: &str) -> Vec<&'a Value> {
    records
        .iter()
        .filter(|r| {
            (r["type"] == "candidate" || r["type"] == "evidence") && r["evidence"]["document_url"] == document_url
        })
        .collect()
}

#[test]
fn every_issue_17_document_of_registry_test_is_read_by_its_probe_and_declares_relations() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--no-store", "--no-verify", "--rate", "0", "--depth", "0", "https://registry.test"];
    let (code, records, stderr) = scan_in(dir.path(), server(), &args);
    assert_eq!(code, 0, "{stderr}");
    for (probe, url) in DOCUMENTS {
        let doc = document(&records, url).unwrap_or_else(|| panic!("no document record for {url}"));
        assert_eq!((doc["probe"].as_str(), doc["status"].as_u64()), (Some(probe), Some(200)), "{doc}");
        assert!(doc["valid"].is_boolean(), "interpreted by {probe}: {doc}");
        assert!(!relations(&records, url).is_empty(), "{probe} declared no relation from {url}");
    }
    // did-configuration.json: the document is read; its linked DIDs name did.fortytwo.io (another
    // host, outside the default scope `*.registry.test`), so its relations are recorded as such.
    let config = "https://registry.test/.well-known/did-configuration.json";
    let doc = document(&records, config).expect("did-configuration.json");
    assert_eq!((doc["probe"].as_str(), doc["status"].as_u64()), (Some("did-configuration.json"), Some(200)), "{doc}");
    assert!(doc["valid"].is_boolean(), "{doc}");
}
