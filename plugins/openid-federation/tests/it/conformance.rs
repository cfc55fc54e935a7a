//! Runs every `openid-federation` case of `tests/conformance/wellknown/` through
//! [`wellknown_openid_federation::interpret`]: `valid`, error and warning code sets, and the
//! candidates (`urls`: kinds `url`, `endpoint`, `issuer`, `origin`; `hosts`: kind `host` plus the
//! hosts of those URLs; `keys`: kind `key`). The fetch time is the case's `now`: every real
//! Entity Configuration here has expired by then. Also checks each case's `signature` fact.

use wellknown_conformance::{Case, Problems, cases, run_all};
use wellknown_core::CandidateKind;

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_openid_federation::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.url_and_host_sets(&report, case.expect(), &[CandidateKind::Origin]);
    problems.compare("signature", report.facts.get("signature").cloned(), case.meta.get("signature").cloned());
    problems.finish(&case.name)
}

#[test]
fn every_federation_case_passes() {
    let selected = cases(|_, meta| meta["doc"] == "openid-federation");
    run_all(&selected, 3, check);
}
