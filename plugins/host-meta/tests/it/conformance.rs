//! Runs every `hostmeta_*` (XRD) and `hostmetajson_*` (JRD) conformance case of
//! `tests/conformance/wellknown/` (real documents and the edge cases RFC 6415 names;
//! `tests/conformance/PROJECT_CASES.md`), and checks JRD locators and hints on a real one.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{CandidateKind, Locator, Report};

fn check_with(case: &Case, interpret: fn(&[u8], &wellknown_core::FetchMeta) -> Report) -> Result<(), String> {
    let report = interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_host_meta_case_passes() {
    run_all(&cases_with_prefix("hostmeta_"), 9, |case| check_with(case, wellknown_host_meta::interpret));
}

#[test]
fn every_host_meta_json_case_passes() {
    run_all(&cases_with_prefix("hostmetajson_"), 8, |case| check_with(case, wellknown_host_meta::interpret_json));
}

#[test]
fn templates_and_hrefs_carry_pointer_rel_and_type() {
    let case = cases_with_prefix("hostmetajson_weboftrust_templates").pop().expect("case");
    let r = wellknown_host_meta::interpret_json(&case.body, &case.fetch_meta());
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.kind, "jrd");
    let href = r.candidates.iter().find(|c| c.kind() == CandidateKind::Url).expect("href");
    assert_eq!(href.relation(), "link");
    assert_eq!(href.locator(), Some(Locator::JsonPointer("/links/4".into())));
    assert_eq!(href.hint("rel"), Some("https://weboftrust.github.io/rels/discovery-catalog"));
    assert_eq!(href.hint("type"), Some("application/json"));
    let t = r.candidates.iter().find(|c| c.kind() == CandidateKind::Path).expect("template");
    assert_eq!((t.relation(), t.locator()), ("link_template", Some(Locator::JsonPointer("/links/0".into()))));
    assert_eq!(r.facts["subject"], "https://weboftrust.github.io");
    assert_eq!((r.facts["links"].as_u64(), r.facts["templates"].as_u64()), (Some(5), Some(4)));
    let w: Vec<_> = r.warnings.iter().map(|d| d.locator.clone()).collect();
    assert_eq!(w.len(), 4, "one template_variable per {{said}} template: {w:?}");
}
