//! Every case of `tests/conformance/sitemap/` (copied from the shared conformance suite): kind, locs,
//! extension URLs and out-of-location URLs must match exactly.

use std::collections::BTreeSet;
use std::path::PathBuf;

use base64::Engine;
use serde_json::Value;
use url::Url;
use wellknown_core::{FetchMeta, Report, Timestamp};
use wellknown_sitemap::{Limits, parse_sitemap};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/sitemap")
}

fn strings(v: &Value, key: &str) -> BTreeSet<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

fn values(r: &Report, pred: impl Fn(&wellknown_core::CandidateRef<'_>) -> bool) -> BTreeSet<String> {
    r.candidates.iter().filter(|c| pred(c)).map(|c| c.value().to_string()).collect()
}

fn run_case(name: &str) -> Result<(), String> {
    let d = dir();
    let expect: Value = serde_json::from_str(
        &std::fs::read_to_string(d.join(format!("{name}.expect.json"))).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let plain = d.join(format!("{name}.input"));
    let body = if plain.exists() {
        std::fs::read(plain).map_err(|e| e.to_string())?
    } else {
        let b64 = std::fs::read_to_string(d.join(format!("{name}.input.b64"))).map_err(|e| e.to_string())?;
        let clean: String = b64.split_whitespace().collect();
        base64::engine::general_purpose::STANDARD.decode(clean).map_err(|e| e.to_string())?
    };
    let served = Url::parse(expect["served_at"].as_str().ok_or("served_at")?).map_err(|e| e.to_string())?;
    let meta = FetchMeta::synthetic(served, None, Timestamp::UNIX_EPOCH);
    let r = parse_sitemap(&body, &meta, &Limits::default());

    let mut problems = Vec::new();
    let kind = expect["kind"].as_str().unwrap_or_default();
    if r.kind != kind {
        problems.push(format!("kind: got {}, want {kind}", r.kind));
    }
    let primary =
        |c: &wellknown_core::CandidateRef<'_>| c.relation() == "sitemap_loc" || c.relation() == "sitemap_child";
    let locs = values(&r, primary);
    if locs != strings(&expect, "locs") {
        problems.push(format!("locs: got {locs:?}, want {:?}", strings(&expect, "locs")));
    }
    let ext = values(&r, |c| !primary(c));
    if ext != strings(&expect, "extension_urls") {
        problems.push(format!("extension_urls: got {ext:?}, want {:?}", strings(&expect, "extension_urls")));
    }
    let ool = values(&r, |c| c.has_flag("out_of_location"));
    if ool != strings(&expect, "out_of_location") {
        problems.push(format!("out_of_location: got {ool:?}, want {:?}", strings(&expect, "out_of_location")));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let diags: Vec<String> =
            r.errors.iter().chain(&r.warnings).map(|d| format!("{}: {}", d.code, d.message)).collect();
        Err(format!("{name}:\n  {}\n  diagnostics: {diags:#?}", problems.join("\n  ")))
    }
}

#[test]
fn every_conformance_case_passes() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("conformance dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".expect.json").map(String::from))
        .collect();
    names.sort();
    assert!(names.len() >= 33, "cases found: {}", names.len());
    let failures: Vec<String> = names.iter().filter_map(|n| run_case(n).err()).collect();
    assert!(failures.is_empty(), "{} of {} cases fail:\n{}", failures.len(), names.len(), failures.join("\n"));
}
