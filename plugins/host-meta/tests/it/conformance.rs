//! Runs every `hostmeta_*` conformance case of `tests/conformance/wellknown/` (real documents and the
//! edge cases RFC 6415 names; `tests/conformance/PROJECT_CASES.md`).

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_host_meta::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_host_meta_case_passes() {
    run_all(&cases_with_prefix("hostmeta_"), 9, check);
}
