//! Shared helpers for end-to-end tests: a fixture server on loopback and the real binary.

#![allow(dead_code)]

use std::path::PathBuf;
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
    let s = server();
    let https = s.https_addr.expect("https").port();
    vec![
        "--allow-private".into(),
        "--connect-to".into(),
        format!(":443:127.0.0.1:{https}"),
        "--connect-to".into(),
        format!(":80:127.0.0.1:{}", s.http_addr.port()),
        "--ca-cert".into(),
        ca_file().display().to_string(),
        "--quiet".into(),
    ]
}

/// Runs the real `wellknown` binary with `args` (no stdin), in a temp working directory so no
/// `wellknown.toml` or database from the developer's checkout is picked up.
pub fn wellknown(args: &[&str]) -> Output {
    let dir = std::env::temp_dir();
    Command::new(env!("CARGO_BIN_EXE_wellknown"))
        .args(args)
        .current_dir(dir)
        .env_remove("WELLKNOWN_CONCURRENCY")
        .stdin(Stdio::null())
        .output()
        .expect("run wellknown")
}

/// Runs `wellknown scan` against the fixture server with `args` appended to the routing arguments.
pub fn scan(args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut all: Vec<String> = vec!["scan".into()];
    all.extend(routing_args());
    all.extend(args.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = wellknown(&refs);
    let records = jsonl(&out.stdout);
    (out.status.code().unwrap_or(-1), records, String::from_utf8_lossy(&out.stderr).into_owned())
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
