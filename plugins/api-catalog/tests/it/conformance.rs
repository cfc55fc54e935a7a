//! Runs every `api_catalog_*` conformance case in `tests/conformance/wellknown/` (real catalogs,
//! sources in `tests/fixtures/SOURCES.md`): `valid`, the error and warning code sets, and the URL
//! candidates (distinct values in reading order).

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_api_catalog::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_api_catalog_case_passes() {
    run_all(&cases_with_prefix("api_catalog_"), 4, check);
}
