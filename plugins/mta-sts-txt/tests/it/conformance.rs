//! Runs every `mta_sts_*` conformance case in `tests/conformance/wellknown/` (real policies, sources
//! in `tests/fixtures/SOURCES.md`): `valid`, the error and warning code sets, and the host
//! candidates (distinct values in document order, the Policy Domain first).

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_mta_sts_txt::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_mta_sts_case_passes() {
    run_all(&cases_with_prefix("mta_sts_"), 5, check);
}
