//! Runs every `aasa_*` conformance case in `tests/conformance/wellknown/` (copied from the
//! project's shared case set; see its README): compares `valid`, the error and warning code sets and
//! the candidates (distinct values per kind, in document order; excluded paths written
//! `NOT <pattern>`). The harness is `wellknown-conformance`.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::CandidateKind;

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_apple_app_site_association::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[CandidateKind::Origin]);
    problems.finish(&case.name)
}

#[test]
fn every_aasa_case_passes() {
    run_all(&cases_with_prefix("aasa_"), 8, check);
}

#[test]
fn components_case_keeps_query_and_exclusions() {
    let case = cases_with_prefix("aasa_components_format_valid").pop().expect("case");
    let report = wellknown_apple_app_site_association::interpret(&case.body, &case.fetch_meta());
    let order = report.candidates.iter().find(|c| c.value() == "/order/status").expect("path");
    assert_eq!(order.relation(), "applinks_path");
    assert_eq!(order.hint("query"), Some("id=*"));
    assert_eq!(
        order.locator(),
        Some(wellknown_core::Locator::JsonPointer("/applinks/details/0/components/4/~1".into()))
    );
    let help = report.candidates.iter().find(|c| c.value() == "/help/website/*").expect("excluded path");
    assert!(help.has_flag("excluded"));
    let clip = report.candidates.iter().find(|c| c.value() == "apple:ABCDE12345.com.example.app.Clip").expect("clip");
    assert_eq!(clip.relation(), "appclips");
    assert_eq!(report.facts.get("applinks_format"), Some(&serde_json::json!("components")));
}
