//! Runs every `openid-configuration` and `oauth-authorization-server` case of
//! `tests/conformance/wellknown/` (copied from the shared conformance cases) through the pure
//! interpreters and compares `valid`, the error and warning code sets and the candidates.
//!
//! Candidate mapping (the cases' README defines `urls`, `hosts`, `contacts`, `apps`, `keys`, `paths`):
//! * `urls`: the values of candidates of kind `url`, `endpoint`, `issuer` and `sitemap` (every
//!   absolute URL the document declares; the issuer as declared, byte for byte);
//! * `hosts`: candidates of kind `host` together with the hosts of those URLs (the hosts the document
//!   reveals, for the host inventory);
//! * `contacts`, `apps`, `keys`, `paths`: candidates of kind `contact`, `app`, `key`, `path`.
//!
//! Every list is compared as a set of distinct values; an optional list (`keys`, `paths`) that a case
//! omits must be empty.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, RedirectHop, Report, Timestamp};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown")
}

fn interpret(doc: &str, body: &[u8], meta: &FetchMeta) -> Option<Report> {
    match doc {
        "openid-configuration" => Some(wellknown_openid_configuration::interpret(body, meta)),
        "oauth-authorization-server" => Some(wellknown_oauth_authorization_server::rfc8414::interpret(body, meta)),
        _ => None,
    }
}

/// Builds the fetch metadata a case describes: `url` is the final URL, `redirect_chain` the URLs
/// requested before it (the first one is the URL requested).
fn fetch_meta(case: &Value) -> FetchMeta {
    let url = Url::parse(case["url"].as_str().expect("url")).expect("case url");
    let now: Timestamp = case["now"].as_str().expect("now").parse().expect("now is RFC 3339");
    let mut meta = FetchMeta::synthetic(url, case["content_type"].as_str(), now);
    if let Some(chain) = case["redirect_chain"].as_array() {
        meta.redirect_chain = chain
            .iter()
            .map(|u| RedirectHop { url: Url::parse(u.as_str().expect("hop")).expect("hop url"), status: 301 })
            .collect();
        if let Some(first) = meta.redirect_chain.first() {
            meta.requested_url = first.url.clone();
        }
    }
    meta
}

fn set(v: &Value) -> BTreeSet<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// The case-format candidate lists of a report (see the module docs for the mapping).
pub fn candidate_lists(report: &Report) -> [(&'static str, BTreeSet<String>); 6] {
    let of = |kinds: &[CandidateKind]| -> BTreeSet<String> {
        report.candidates.iter().filter(|c| kinds.contains(&c.kind)).map(|c| c.value.clone()).collect()
    };
    let urls = of(&[CandidateKind::Url, CandidateKind::Endpoint, CandidateKind::Issuer, CandidateKind::Sitemap]);
    let mut hosts = of(&[CandidateKind::Host]);
    for u in &urls {
        if let Some(h) = Url::parse(u).ok().as_ref().and_then(wellknown_oauth_authorization_server::metadata::host_name)
        {
            hosts.insert(h);
        }
    }
    [
        ("urls", urls),
        ("hosts", hosts),
        ("contacts", of(&[CandidateKind::Contact])),
        ("apps", of(&[CandidateKind::App])),
        ("keys", of(&[CandidateKind::Key])),
        ("paths", of(&[CandidateKind::Path])),
    ]
}

fn check(name: &str, case: &Value, body: &[u8]) -> Result<(), String> {
    let meta = fetch_meta(case);
    let doc = case["doc"].as_str().unwrap_or_default();
    let report = interpret(doc, body, &meta).ok_or_else(|| format!("no interpreter for {doc}"))?;
    let expect = &case["expect"];
    let mut problems = Vec::new();
    if expect["valid"].as_bool() != Some(report.valid()) {
        problems.push(format!("valid: expected {}, got {}", expect["valid"], report.valid()));
    }
    let errors: BTreeSet<String> = report.errors.iter().map(|d| d.code.clone()).collect();
    let warnings: BTreeSet<String> = report.warnings.iter().map(|d| d.code.clone()).collect();
    if errors != set(&expect["errors"]) {
        problems.push(format!("errors: expected {:?}, got {:?}", set(&expect["errors"]), errors));
    }
    if warnings != set(&expect["warnings"]) {
        problems.push(format!("warnings: expected {:?}, got {:?}", set(&expect["warnings"]), warnings));
    }
    for (list, got) in candidate_lists(&report) {
        let want = set(&expect["candidates"][list]);
        if want != got {
            problems.push(format!("candidates.{list}: expected {want:?}, got {got:?}"));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("{name}:\n  {}", problems.join("\n  "))) }
}

#[test]
fn every_metadata_case_passes() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("tests/conformance/wellknown exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".meta.json"))
        .collect();
    names.sort();
    let mut ran = 0;
    let mut failures = Vec::new();
    for meta_path in names {
        let case: Value = serde_json::from_slice(&std::fs::read(&meta_path).expect("read meta")).expect("meta json");
        let doc = case["doc"].as_str().unwrap_or_default();
        if !matches!(doc, "openid-configuration" | "oauth-authorization-server") {
            continue;
        }
        let name = meta_path.file_name().unwrap().to_string_lossy().trim_end_matches(".meta.json").to_string();
        let body = std::fs::read(meta_path.with_file_name(format!("{name}.input"))).expect("read input");
        ran += 1;
        if let Err(e) = check(&name, &case, &body) {
            failures.push(e);
        }
    }
    assert_eq!(ran, 12, "expected the 11 oidc_* and 1 oauth_* cases");
    assert!(failures.is_empty(), "{} of {ran} cases failed:\n{}", failures.len(), failures.join("\n"));
}
