//! Runs every `change-password` case of `tests/conformance/wellknown/` (see `PROJECT_CASES.md`)
//! through the pure interpreter and compares `valid`, the error and warning code sets and the
//! candidates (`urls`: the change password page; `hosts`: its host when it is another one).

use wellknown_conformance::{Case, Problems, cases, run_all};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_change_password::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_change_password_case_passes() {
    let selected = cases(|_, meta| meta["doc"].as_str() == Some(wellknown_change_password::PROBE_ID));
    run_all(&selected, 3, check);
}
