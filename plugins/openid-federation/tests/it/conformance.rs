//! Runs every `openid-federation` case of `tests/conformance/wellknown/` through
//! [`wellknown_openid_federation::interpret`]: `valid`, error and warning code sets, and the
//! candidates (`urls`: kinds `url`, `endpoint`, `issuer`, `origin`; `hosts`: kind `host` plus the
//! hosts of those URLs; `keys`: kind `key`). The fetch time is the case's `now`: every real
//! Entity Configuration here has expired by then. Also checks each case's `signature` fact.

use std::collections::BTreeSet;

use url::Url;
use wellknown_conformance::{Case, Problems, cases, run_all, string_set};
use wellknown_core::{CandidateKind, Report};

fn lists(report: &Report) -> [(&'static str, BTreeSet<String>); 5] {
    let of = |kinds: &[CandidateKind]| -> BTreeSet<String> {
        report.candidates.iter().filter(|c| kinds.contains(&c.kind())).map(|c| c.value().to_string()).collect()
    };
    let urls = of(&[CandidateKind::Url, CandidateKind::Endpoint, CandidateKind::Issuer, CandidateKind::Origin]);
    let mut hosts = of(&[CandidateKind::Host]);
    hosts.extend(urls.iter().filter_map(|u| Url::parse(u).ok()?.host_str().map(str::to_string)));
    [
        ("urls", urls),
        ("hosts", hosts),
        ("contacts", of(&[CandidateKind::Contact])),
        ("apps", of(&[CandidateKind::App])),
        ("keys", of(&[CandidateKind::Key])),
    ]
}

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_openid_federation::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    for (list, got) in lists(&report) {
        problems.compare(&format!("candidates.{list}"), got, string_set(&case.expect()["candidates"][list]));
    }
    problems.compare("signature", report.facts.get("signature").cloned(), case.meta.get("signature").cloned());
    problems.finish(&case.name)
}

#[test]
fn every_federation_case_passes() {
    let selected = cases(|_, meta| meta["doc"] == "openid-federation");
    run_all(&selected, 3, check);
}
