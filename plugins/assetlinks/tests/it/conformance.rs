//! Runs every `assetlinks_*` conformance case in `tests/conformance/wellknown/` (copied from the
//! project's shared case set; see its README): compares `valid`, the error and warning code sets and
//! the candidates (distinct values per kind, in document order). The harness is
//! `wellknown-conformance`.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::CandidateKind;

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_assetlinks::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[CandidateKind::Origin]);
    problems.finish(&case.name)
}

#[test]
fn every_assetlinks_case_passes() {
    run_all(&cases_with_prefix("assetlinks_"), 12, check);
}

#[test]
fn include_case_asks_for_a_follow_up() {
    let case = cases_with_prefix("assetlinks_include_valid").pop().expect("case");
    let report = wellknown_assetlinks::interpret(&case.body, &case.fetch_meta());
    assert_eq!(report.follow_ups.len(), 1);
    assert_eq!(report.follow_ups[0].probe, "assetlinks");
    assert_eq!(report.follow_ups[0].role, "include");
    assert_eq!(report.follow_ups[0].url.as_str(), "https://static.example.net/assetlinks/shared.json");
}
