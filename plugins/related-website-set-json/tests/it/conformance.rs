//! Runs every `rws_*` conformance case in `tests/conformance/wellknown/` (real documents, sources in
//! `tests/fixtures/SOURCES.md`): `valid`, the error and warning code sets, and the origins
//! (`origins`, a list of this plugin's cases: distinct values in document order).

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::CandidateKind;

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_related_website_set_json::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates_with(&report, case.expect(), &[("origins", CandidateKind::Origin)]);
    problems.compare("kind", report.kind.as_str(), case.expect()["kind"].as_str().unwrap_or_default());
    problems.finish(&case.name)
}

#[test]
fn every_rws_case_passes() {
    run_all(&cases_with_prefix("rws_"), 4, check);
}
