//! Runs every `oauth-protected-resource` case of `tests/conformance/wellknown/` through
//! [`wellknown_oauth_protected_resource::interpret`]: `valid`, error and warning code sets, and the
//! candidates (`urls`: kinds `url`, `endpoint`, `issuer`; `hosts`: kind `host` plus the hosts of
//! those URLs; `keys`, `contacts`, `apps`, `paths`: their kinds).

use wellknown_conformance::{Case, Problems, cases, run_all};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_oauth_protected_resource::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.url_and_host_sets(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_protected_resource_case_passes() {
    let selected = cases(|_, meta| meta["doc"] == "oauth-protected-resource");
    run_all(&selected, 3, check);
}
