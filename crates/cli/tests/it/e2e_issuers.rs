//! End to end: `--issuer` units. Issuers naming the same metadata URLs are fetched once, an issuer
//! unit whose metadata another unit fetched is reachable, credentials are dropped.

use crate::common;

use std::path::Path;

use common::{own_server, requests_to, scan_in};
use serde_json::Value;

/// idp-mm.test: its root metadata declares the issuer `https://idp-mm.test/tenantB`
/// (`issuer_mismatch`, followed), whose own metadata is consistent.
fn idp_tree(root: &Path) {
    let site = root.join("idp-mm.test");
    std::fs::create_dir_all(site.join(".well-known")).unwrap();
    std::fs::create_dir_all(site.join("tenantB/.well-known")).unwrap();
    let doc = |issuer: &str| {
        format!(
            r#"{{"issuer":"{issuer}","authorization_endpoint":"{issuer}/authorize","token_endpoint":"{issuer}/token","jwks_uri":"{issuer}/jwks","response_types_supported":["code"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}}"#
        )
    };
    std::fs::write(site.join(".well-known/openid-configuration"), doc("https://idp-mm.test/tenantB")).unwrap();
    std::fs::write(site.join("tenantB/.well-known/openid-configuration"), doc("https://idp-mm.test/tenantB")).unwrap();
}

/// The `origin` record of the unit `label`.
fn unit<'a>(records: &'a [Value], label: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == "origin" && r["origin"] == label)
        .unwrap_or_else(|| panic!("no origin record for {label}"))
}

fn gets(server: &wellknown_tests::FixtureServer, path: &str) -> usize {
    requests_to(server, "idp-mm.test").iter().filter(|(m, p)| m == "GET" && p == path).count()
}

#[test]
fn issuers_naming_the_same_metadata_are_fetched_once_and_reachable() {
    let root = tempfile::tempdir().unwrap();
    idp_tree(root.path());
    let server = own_server(root.path());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) = scan_in(
        dir.path(),
        &server,
        &[
            "--no-store",
            "--no-verify",
            "--rate",
            "0",
            "--probe",
            "openid-configuration",
            "--issuer",
            "https://idp-mm.test/",
            "--issuer",
            "https://idp-mm.test/tenantB/",
            "https://idp-mm.test",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    // The origin, its root issuer `https://idp-mm.test/`, the declared `…/tenantB` and the given
    // `…/tenantB/` name two documents: each requested once.
    assert_eq!(gets(&server, "/.well-known/openid-configuration"), 1);
    assert_eq!(gets(&server, "/tenantB/.well-known/openid-configuration"), 1);
    let mismatches = records.iter().filter(|r| r["type"] == "diagnostic" && r["code"] == "issuer_mismatch").count();
    assert_eq!(mismatches, 1, "diagnosed once");
    let origin = unit(&records, "https://idp-mm.test");
    assert_eq!((origin["reachable"].as_bool(), origin["documents"].as_u64()), (Some(true), Some(2)));
    assert!(origin.get("documents_elsewhere").is_none(), "absent when 0: {origin}");
    // The issuer units: their documents were the origin unit's, which answered 200.
    for label in ["https://idp-mm.test/", "https://idp-mm.test/tenantB", "https://idp-mm.test/tenantB/"] {
        let u = unit(&records, label);
        assert_eq!(u["unit"], "issuer");
        assert_eq!(u["reachable"], true, "{u}");
        assert_eq!(u["documents"], 0, "{u}");
        assert_eq!(u["documents_elsewhere"], 1, "{u}");
        assert!(u.get("failures").is_none(), "{u}");
    }
}

#[test]
fn credentials_in_an_issuer_are_dropped_from_records_store_and_plan() {
    let root = tempfile::tempdir().unwrap();
    idp_tree(root.path());
    let server = own_server(root.path());
    let dir = tempfile::tempdir().unwrap();
    let (code, records, stderr) = scan_in(
        dir.path(),
        &server,
        &[
            "--no-verify",
            "--rate",
            "0",
            "--probe",
            "openid-configuration",
            "--issuer",
            "https://joe:hunter2@idp-mm.test/tenantB",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "warning: --issuer https://idp-mm.test/tenantB: the user name and password given in it are dropped"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
    let u = unit(&records, "https://idp-mm.test/tenantB");
    assert_eq!((u["unit"].as_str(), u["reachable"].as_bool()), (Some("issuer"), Some(true)));
    for r in &records {
        assert!(!r.to_string().contains("hunter2") && !r.to_string().contains("joe@"), "{r}");
    }
    // The request carried none either (the fixture server saw the path), and the store (units,
    // plan) holds none: no file of the store contains the password.
    assert_eq!(gets(&server, "/tenantB/.well-known/openid-configuration"), 1);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(!bytes.windows(7).any(|w| w == b"hunter2"), "password in the store");
    }
    assert!(dir.path().join("wellknown.db").is_file());
}

#[test]
fn an_issuer_with_a_query_fragment_or_a_metadata_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (issuer, says) in [
        ("https://idp-mm.test/t1?x=1", "no query or fragment component (RFC 8414 section 2)"),
        ("https://idp-mm.test/t1#f", "no query or fragment component"),
        (
            "https://idp-mm.test/t1/.well-known/openid-configuration",
            "metadata URL of the issuer \"https://idp-mm.test/t1\", not an issuer identifier: give --issuer \
             https://idp-mm.test/t1",
        ),
        ("https://idp-mm.test/.well-known/oauth-authorization-server/t1", "give --issuer https://idp-mm.test/t1"),
    ] {
        let out = common::wellknown_in(dir.path(), &["scan", "--no-store", "--issuer", issuer]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{issuer}: {stderr}");
        assert!(stderr.contains(&format!("--issuer {issuer:?}: ")) && stderr.contains(says), "{issuer}: {stderr}");
        assert!(out.stdout.is_empty(), "nothing scanned");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no store created");
}
