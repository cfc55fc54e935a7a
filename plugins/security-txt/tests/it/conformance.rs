//! Every security.txt conformance case in `tests/conformance/wellknown/sectxt_*` (copied from the
//! shared case set): `NAME.input` is the body, `NAME.meta.json` the fetch metadata and the expected
//! answer (valid, error and warning code sets, candidate urls / hosts / keys as sets, contacts in
//! order).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use wellknown_core::{CandidateKind, FetchMeta, RedirectHop, Report, Timestamp};
use wellknown_security_txt::parse_with_key;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

fn set(v: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    v.into_iter().collect()
}

fn values(r: &Report, kind: CandidateKind) -> Vec<String> {
    r.values(kind).map(str::to_string).collect()
}

fn run_case(name: &str) -> Result<(), String> {
    let dir = cases_dir();
    let body = std::fs::read(dir.join(format!("{name}.input"))).map_err(|e| e.to_string())?;
    let meta_text = std::fs::read_to_string(dir.join(format!("{name}.meta.json"))).map_err(|e| e.to_string())?;
    let m: Value = serde_json::from_str(&meta_text).map_err(|e| e.to_string())?;
    assert_eq!(m["doc"], "security.txt", "{name}");
    let url = url::Url::parse(m["url"].as_str().unwrap_or_default()).map_err(|e| e.to_string())?;
    let now: Timestamp = m["now"].as_str().unwrap_or_default().parse().map_err(|e: jiff::Error| e.to_string())?;
    let mut meta = FetchMeta::synthetic(url, m["content_type"].as_str(), now);
    let chain: Vec<url::Url> = strings(&m["redirect_chain"]).iter().filter_map(|u| url::Url::parse(u).ok()).collect();
    if let Some(first) = chain.first() {
        meta.requested_url = first.clone();
        meta.redirect_chain = chain.into_iter().map(|url| RedirectHop { url, status: 301 }).collect();
    }
    let key = m["pgp_public_key"].as_str().map(str::as_bytes);
    let r = parse_with_key(&body, &meta, key);

    let e = &m["expect"];
    let mut problems = Vec::new();
    let mut check = |what: &str, got: String, want: String| {
        if got != want {
            problems.push(format!("{what}: got {got}, want {want}"));
        }
    };
    check("valid", r.valid().to_string(), e["valid"].to_string());
    let errors = set(r.errors.iter().map(|d| d.code.clone()));
    let warnings = set(r.warnings.iter().map(|d| d.code.clone()));
    check("errors", format!("{errors:?}"), format!("{:?}", set(strings(&e["errors"]))));
    check("warnings", format!("{warnings:?}"), format!("{:?}", set(strings(&e["warnings"]))));
    let c = &e["candidates"];
    check("urls", format!("{:?}", set(values(&r, CandidateKind::Url))), format!("{:?}", set(strings(&c["urls"]))));
    check("hosts", format!("{:?}", set(values(&r, CandidateKind::Host))), format!("{:?}", set(strings(&c["hosts"]))));
    check("contacts", format!("{:?}", values(&r, CandidateKind::Contact)), format!("{:?}", strings(&c["contacts"])));
    check("apps", format!("{:?}", values(&r, CandidateKind::App)), format!("{:?}", strings(&c["apps"])));
    if !c["keys"].is_null() {
        check("keys", format!("{:?}", set(values(&r, CandidateKind::Key))), format!("{:?}", set(strings(&c["keys"]))));
    }
    if m["pgp_public_key"].is_string() && !r.has_code("data_after_signature") {
        check("signature", format!("{:?}", r.facts.get("signature")), "Some(String(\"verified\"))".into());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}:\n  {}\n  report: {}",
            problems.join("\n  "),
            serde_json::to_string(&r).unwrap_or_default()
        ))
    }
}

#[test]
fn every_security_txt_case_passes() {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("conformance dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".meta.json").map(str::to_string))
        .filter(|n| n.starts_with("sectxt_"))
        .collect();
    names.sort();
    assert!(names.len() >= 19, "expected at least the 19 sectxt cases, found {}", names.len());
    let failures: Vec<String> = names.iter().filter_map(|n| run_case(n).err()).collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), names.len(), failures.join("\n"));
}

#[test]
fn signed_case_signature_is_verified_and_data_after_is_ignored() {
    run_case("sectxt_signed_valid").expect("signed_valid");
    run_case("sectxt_signed_data_after_signature").expect("data_after_signature");
}
