//! Runs every `matrix_server_*` and `matrix_client_*` conformance case in
//! `tests/conformance/wellknown/` (real documents, sources in `tests/fixtures/SOURCES.md`):
//! `valid`, the error and warning code sets, and the candidates (distinct values per kind in
//! document order; `origins` and `issuers` are lists of this plugin's cases).

use wellknown_conformance::{Case, Problems, cases_with_prefix, distinct_values, run_all, strings};
use wellknown_core::{CandidateKind, Report};

fn compare(report: &Report, case: &Case) -> Result<(), String> {
    let mut problems = Problems::default();
    problems.diagnostics(report, case.expect());
    problems.ordered_candidates(report, case.expect(), &[CandidateKind::Origin, CandidateKind::Issuer]);
    for (list, kind) in [("origins", CandidateKind::Origin), ("issuers", CandidateKind::Issuer)] {
        let want = strings(&case.expect()["candidates"][list]);
        problems.compare(&format!("candidates.{list}"), distinct_values(report, kind), want);
    }
    problems.finish(&case.name)
}

#[test]
fn every_matrix_server_case_passes() {
    run_all(&cases_with_prefix("matrix_server_"), 5, |case| {
        compare(&wellknown_matrix::interpret_server(&case.body, &case.fetch_meta()), case)
    });
}

#[test]
fn every_matrix_client_case_passes() {
    run_all(&cases_with_prefix("matrix_client_"), 4, |case| {
        compare(&wellknown_matrix::interpret_client(&case.body, &case.fetch_meta()), case)
    });
}
