//! Runs every `aasa_*` conformance case in `tests/conformance/wellknown/` (copied from the
//! project's shared case set; see its README): compares `valid`, the error and warning code sets and
//! the candidates (distinct values per kind, in document order).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, RedirectHop, Report, Timestamp};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown")
}

/// `(name, body, meta.json)` of every case whose name starts with `prefix`.
fn cases(prefix: &str) -> Vec<(String, Vec<u8>, Value)> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(cases_dir()).expect("tests/conformance/wellknown exists");
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".meta.json").map(str::to_string))
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    for name in names {
        let meta: Value =
            serde_json::from_slice(&std::fs::read(cases_dir().join(format!("{name}.meta.json"))).expect("meta"))
                .expect("meta.json is JSON");
        let body = std::fs::read(cases_dir().join(format!("{name}.input"))).expect("input");
        out.push((name, body, meta));
    }
    out
}

/// The fetch metadata a case describes.
fn fetch_meta(case: &Value, body_len: usize) -> FetchMeta {
    let url = Url::parse(case["url"].as_str().expect("url")).expect("valid url");
    let now: Timestamp = case["now"].as_str().expect("now").parse().expect("RFC 3339 now");
    let mut meta = FetchMeta::synthetic(url, case["content_type"].as_str(), now);
    if let Some(chain) = case["redirect_chain"].as_array() {
        meta.redirect_chain = chain
            .iter()
            .map(|u| RedirectHop { url: Url::parse(u.as_str().expect("string")).expect("url"), status: 301 })
            .collect();
        if let Some(first) = meta.redirect_chain.first() {
            meta.requested_url = first.url.clone();
        }
    }
    meta.size = body_len as u64;
    meta
}

/// Distinct candidate values of `kind` in document order; excluded paths are written `NOT <pattern>`.
fn values(report: &Report, kind: CandidateKind) -> Vec<String> {
    let mut seen = BTreeSet::new();
    report
        .candidates
        .iter()
        .filter(|c| c.kind == kind)
        .map(|c| if c.has_flag("excluded") { format!("NOT {}", c.value) } else { c.value.clone() })
        .filter(|v| seen.insert(v.clone()))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

fn check(name: &str, body: &[u8], case: &Value) -> Result<(), String> {
    let meta = fetch_meta(case, body.len());
    let report = wellknown_apple_app_site_association::interpret(body, &meta);
    let expect = &case["expect"];
    let codes = |ds: &[wellknown_core::Diagnostic]| ds.iter().map(|d| d.code.clone()).collect::<BTreeSet<_>>();
    let mut problems = Vec::new();
    if Some(report.valid()) != expect["valid"].as_bool() {
        problems.push(format!("valid: got {}, want {}", report.valid(), expect["valid"]));
    }
    let want_errors: BTreeSet<String> = strings(&expect["errors"]).into_iter().collect();
    if codes(&report.errors) != want_errors {
        problems.push(format!("errors: got {:?}, want {want_errors:?}", report.errors));
    }
    let want_warnings: BTreeSet<String> = strings(&expect["warnings"]).into_iter().collect();
    if codes(&report.warnings) != want_warnings {
        problems.push(format!("warnings: got {:?}, want {want_warnings:?}", report.warnings));
    }
    let kinds = [
        ("urls", CandidateKind::Url),
        ("hosts", CandidateKind::Host),
        ("apps", CandidateKind::App),
        ("contacts", CandidateKind::Contact),
        ("keys", CandidateKind::Key),
        ("paths", CandidateKind::Path),
    ];
    for (key, kind) in kinds {
        let want = strings(&expect["candidates"][key]);
        let got = values(&report, kind);
        if got != want {
            problems.push(format!("candidates.{key}: got {got:?}, want {want:?}"));
        }
    }
    let compared: Vec<CandidateKind> = kinds.iter().map(|(_, k)| *k).chain([CandidateKind::Origin]).collect();
    if let Some(c) = report.candidates.iter().find(|c| !compared.contains(&c.kind)) {
        problems.push(format!("unexpected candidate kind {c:?}"));
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("{name}:\n  {}", problems.join("\n  "))) }
}

#[test]
fn every_aasa_case_passes() {
    let all = cases("aasa_");
    assert_eq!(all.len(), 8, "expected the 8 AASA cases");
    let failures: Vec<String> = all.iter().filter_map(|(n, b, c)| check(n, b, c).err()).collect();
    assert!(
        failures.is_empty(),
        "{}",
        failures.join(
            "
"
        )
    );
}

#[test]
fn components_case_keeps_query_and_exclusions() {
    let (_, body, case) = cases("aasa_components_format_valid").pop().expect("case");
    let report = wellknown_apple_app_site_association::interpret(&body, &fetch_meta(&case, body.len()));
    let order = report.candidates.iter().find(|c| c.value == "/order/status").expect("path");
    assert_eq!(order.relation, "applinks_path");
    assert_eq!(order.hints.get("query").map(String::as_str), Some("id=*"));
    assert_eq!(order.locator, Some(wellknown_core::Locator::JsonPointer("/applinks/details/0/components/4/~1".into())));
    let help = report.candidates.iter().find(|c| c.value == "/help/website/*").expect("excluded path");
    assert!(help.has_flag("excluded"));
    let clip = report.candidates.iter().find(|c| c.value == "apple:ABCDE12345.com.example.app.Clip").expect("clip");
    assert_eq!(clip.relation, "appclips");
    assert_eq!(report.facts.get("applinks_format"), Some(&serde_json::json!("components")));
}
