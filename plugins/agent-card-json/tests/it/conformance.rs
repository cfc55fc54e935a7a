//! Runs every `agent-card.json` case of `tests/conformance/wellknown/` through
//! [`wellknown_agent_card_json::interpret`]: `valid`, error and warning code sets, and the
//! candidates (`urls`: kinds `url`, `endpoint`, `issuer`; `hosts`: kind `host` plus the hosts of
//! those URLs; `keys`, `contacts`, `apps`, `paths`: their kinds).

use std::collections::BTreeSet;

use url::Url;
use wellknown_conformance::{Case, Problems, cases, run_all, string_set};
use wellknown_core::{CandidateKind, Report};

fn lists(report: &Report) -> [(&'static str, BTreeSet<String>); 5] {
    let of = |kinds: &[CandidateKind]| -> BTreeSet<String> {
        report.candidates.iter().filter(|c| kinds.contains(&c.kind())).map(|c| c.value().to_string()).collect()
    };
    let urls = of(&[CandidateKind::Url, CandidateKind::Endpoint, CandidateKind::Issuer]);
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
    let report = wellknown_agent_card_json::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    for (list, got) in lists(&report) {
        problems.compare(&format!("candidates.{list}"), got, string_set(&case.expect()["candidates"][list]));
    }
    problems.finish(&case.name)
}

#[test]
fn every_agent_card_case_passes() {
    let selected = cases(|_, meta| meta["doc"] == "agent-card.json");
    run_all(&selected, 4, check);
}
