//! Shared helpers for end-to-end tests: a fixture server on loopback and the real binary.

#![allow(dead_code)]

pub mod hostile;
pub mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;
use wellknown_tests::{FixtureServer, fixture_sites};

/// The fixture server for this test binary (one per process, HTTPS with its throwaway CA).
pub fn server() -> &'static FixtureServer {
    static S: OnceLock<FixtureServer> = OnceLock::new();
    S.get_or_init(|| FixtureServer::start(fixture_sites(), true).expect("fixture server"))
}

/// The CA file of [`server`].
pub fn ca_file() -> &'static PathBuf {
    static F: OnceLock<PathBuf> = OnceLock::new();
    F.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("wellknown-e2e-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("ca.pem");
        std::fs::write(&path, server().ca_pem.as_deref().expect("tls server")).expect("write ca");
        path
    })
}

/// `--connect-to` and `--ca-cert` arguments routing ports 80 and 443 of every host to the fixture server.
pub fn routing_args() -> Vec<String> {
    routing_args_for(server())
}

/// The temp file holding `s`'s throwaway CA, written once. Named after a digest of the CA itself,
/// not the server's port: a port freed by one test's server is reused by another's, whose CA
/// differs (a file named by port alone was once stale, and the scan failed with `tls`).
pub fn ca_file_for(s: &FixtureServer) -> std::path::PathBuf {
    use std::hash::{Hash, Hasher};
    let pem = s.ca_pem.as_deref().expect("tls server");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    pem.hash(&mut h);
    let ca = std::env::temp_dir().join(format!("wellknown-e2e-{}-ca-{:016x}.pem", std::process::id(), h.finish()));
    if !ca.exists() {
        std::fs::write(&ca, pem).expect("write ca");
    }
    ca
}

/// [`routing_args`] for another fixture server (one started by a test to have its own request log
/// or its own tree). Its CA is written to a temp file of its own ([`ca_file_for`]).
pub fn routing_args_for(s: &FixtureServer) -> Vec<String> {
    let https = s.https_addr.expect("https").port();
    let ca = ca_file_for(s);
    vec![
        "--allow-private".into(),
        "--connect-to".into(),
        format!(":443:127.0.0.1:{https}"),
        "--connect-to".into(),
        format!(":80:127.0.0.1:{}", s.http_addr.port()),
        "--ca-cert".into(),
        ca.display().to_string(),
        "--quiet".into(),
    ]
}

/// Runs the real `wellknown` binary with `args` (no stdin) in a fresh temporary working directory
/// (removed afterwards), so no `wellknown.toml` or store from the developer's checkout is picked up
/// and nothing is left behind.
pub fn wellknown(args: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("temp dir");
    wellknown_in(dir.path(), args)
}

/// The proxy environment variables, set empty (unset) for every run: a developer's proxy must not
/// route the loopback fixture scans.
pub const PROXY_VARIABLES: [&str; 8] =
    ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"];

/// Runs the real `wellknown` binary with `args` in `dir` (whose `wellknown.db` is the default
/// store, so successive calls share it).
pub fn wellknown_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(args)
        .current_dir(dir)
        .env_remove("WELLKNOWN_CONCURRENCY")
        .env_remove("WELLKNOWN_DB")
        .envs(PROXY_VARIABLES.map(|v| (v, "")))
        .stdin(Stdio::null())
        .output()
        .expect("run wellknown")
}

/// Runs `wellknown scan` against the fixture server with `args` appended to the routing arguments,
/// as the scanner behaved before verification and feedback existed: `--no-verify --depth 0` come
/// first, so a test that wants either passes `--verify` or `--depth N` (later flags win).
pub fn scan(args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut all: Vec<String> = vec!["scan".into()];
    all.extend(routing_args());
    all.extend(["--no-verify", "--depth", "0"].map(String::from));
    all.extend(args.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = wellknown(&refs);
    let records = jsonl(&out.stdout);
    (out.status.code().unwrap_or(-1), records, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Runs `wellknown scan` in `dir` (its store) against `server`, with every default of the product
/// (verification, depth 1, store) and `args` appended to the routing arguments.
pub fn scan_in(dir: &Path, server: &FixtureServer, args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut all: Vec<String> = vec!["scan".into()];
    all.extend(routing_args_for(server));
    all.extend(args.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = wellknown_in(dir, &refs);
    let records = jsonl(&out.stdout);
    (out.status.code().unwrap_or(-1), records, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A fixture server of its own (fresh request log) over `root`.
pub fn own_server(root: &Path) -> FixtureServer {
    FixtureServer::start(root, true).expect("fixture server")
}

/// Requests `server` answered for `host`: (method, path).
pub fn requests_to(server: &FixtureServer, host: &str) -> Vec<(String, String)> {
    server.requests().into_iter().filter(|r| r.host == host).map(|r| (r.method, r.path)).collect()
}

/// Parses JSON Lines.
pub fn jsonl(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// Records of one type.
pub fn of_type<'a>(records: &'a [Value], t: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["type"] == t).collect()
}

/// Values of candidate records of `kind` with `relation` (any relation when None).
pub fn candidates(records: &[Value], kind: &str, relation: Option<&str>) -> Vec<String> {
    let mut v: Vec<String> = records
        .iter()
        .filter(|r| r["type"] == "candidate" && r["kind"] == kind)
        .filter(|r| relation.is_none_or(|rel| r["relation"] == rel))
        .filter_map(|r| r["value"].as_str().map(str::to_string))
        .collect();
    v.sort();
    v
}

/// The document record fetched from `url` (final or requested).
pub fn document<'a>(records: &'a [Value], url: &str) -> Option<&'a Value> {
    records.iter().find(|r| r["type"] == "document" && (r["url"] == url || r["requested_url"] == url))
}

/// Diagnostic codes reported for the document whose final URL is `doc_url`, in record order.
pub fn codes(records: &[Value], doc_url: &str) -> Vec<String> {
    records
        .iter()
        .filter(|r| r["type"] == "diagnostic" && r["document"] == doc_url)
        .filter_map(|r| r["code"].as_str().map(str::to_string))
        .collect()
}

/// `wellknown graph --format jsonl` of the store `db` (`None`: the directory's `wellknown.db`),
/// without ids and times: nodes with their verdicts, relations with their state and sightings,
/// virtual-host attempts.
pub fn graph(dir: &Path, db: Option<&str>) -> std::collections::BTreeSet<String> {
    let mut args = vec!["graph", "--format", "jsonl"];
    if let Some(db) = db {
        args.extend(["--db", db]);
    }
    let out = wellknown_in(dir, &args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    jsonl(&out.stdout)
        .into_iter()
        .filter_map(|l| match l["type"].as_str() {
            Some("node") => Some(format!(
                "node {} {} in_scope={} verdict={}/{} doc={}/{}",
                l["kind"],
                l["value"],
                l["in_scope"],
                l["verification"]["status"],
                l["verification"]["http_status"],
                l["document"]["status"],
                l["document"]["failure"]
            )),
            Some("relation") => Some(format!(
                "relation {} -{}-> {} {} state={} confidence={} evidence={}",
                l["source"]["value"],
                l["relation"],
                l["target"]["kind"],
                l["target"]["value"],
                l["state"],
                l["confidence"],
                l["evidence"].as_array().map_or(0, Vec::len)
            )),
            Some("vhost") => Some(format!("vhost {} {} {}", l["host"], l["address"], l["answers"])),
            _ => None,
        })
        .collect()
}
