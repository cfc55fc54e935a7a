//! Runs every `matrix_server_*` and `matrix_client_*` conformance case in
//! `tests/conformance/wellknown/` (real documents, sources in `tests/fixtures/SOURCES.md`):
//! `valid`, the error and warning code sets, and the candidates (distinct values per kind in
//! document order; `origins` and `issuers` are lists of this plugin's cases).

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{CandidateKind, Report};

fn compare(report: &Report, case: &Case) -> Result<(), String> {
    let mut problems = Problems::default();
    problems.diagnostics(report, case.expect());
    let lists = [("origins", CandidateKind::Origin), ("issuers", CandidateKind::Issuer)];
    problems.ordered_candidates_with(report, case.expect(), &lists);
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
