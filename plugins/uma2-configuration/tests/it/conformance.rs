//! Runs every `uma2-configuration` case of `tests/conformance/wellknown/` through
//! [`wellknown_uma2_configuration::interpret`]: `valid`, error and warning code sets, and the
//! candidates (`urls`: kinds `url`, `endpoint`, `issuer`; `hosts`: kind `host` plus the hosts of
//! those URLs; `keys`, `contacts`, `apps`, `paths`: their kinds).

use wellknown_conformance::{Case, Problems, cases, run_all};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_uma2_configuration::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.url_and_host_sets(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_uma2_case_passes() {
    let selected = cases(|_, meta| meta["doc"] == "uma2-configuration");
    run_all(&selected, 2, check);
}
