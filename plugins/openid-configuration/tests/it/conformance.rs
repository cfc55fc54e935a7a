//! Runs every `openid-configuration` case of `tests/conformance/wellknown/` (copied from the shared
//! conformance cases) through the pure interpreter and compares `valid`, the error and warning code sets and the candidates.
//!
//! Candidate mapping (the cases' README defines `urls`, `hosts`, `contacts`, `apps`, `keys`, `paths`):
//! * `urls`: the values of candidates of kind `url`, `endpoint`, `issuer` and `sitemap` (every
//!   absolute URL the document declares; the issuer as declared, byte for byte);
//! * `hosts`: candidates of kind `host` together with the hosts of those URLs (the hosts the document
//!   reveals, for the host inventory);
//! * `contacts`, `apps`, `keys`, `paths`: candidates of kind `contact`, `app`, `key`, `path`.
//!
//! Every list is compared as a set of distinct values; an optional list (`keys`, `paths`) that a case
//! omits must be empty.

use std::collections::BTreeSet;

use url::Url;
use wellknown_conformance::{Case, Problems, cases, run_all, string_set};
use wellknown_core::{CandidateKind, FetchMeta, Report};

fn interpret(doc: &str, body: &[u8], meta: &FetchMeta) -> Option<Report> {
    (doc == wellknown_openid_configuration::PROBE_ID).then(|| wellknown_openid_configuration::interpret(body, meta))
}

/// The case-format candidate lists of a report (see the module docs for the mapping).
pub fn candidate_lists(report: &Report) -> [(&'static str, BTreeSet<String>); 6] {
    let of = |kinds: &[CandidateKind]| -> BTreeSet<String> {
        report.candidates.iter().filter(|c| kinds.contains(&c.kind())).map(|c| c.value().to_string()).collect()
    };
    let urls = of(&[CandidateKind::Url, CandidateKind::Endpoint, CandidateKind::Issuer, CandidateKind::Sitemap]);
    let mut hosts = of(&[CandidateKind::Host]);
    for u in &urls {
        if let Some(h) = Url::parse(u).ok().as_ref().and_then(wellknown_oauth_metadata::metadata::host_name) {
            hosts.insert(h);
        }
    }
    [
        ("urls", urls),
        ("hosts", hosts),
        ("contacts", of(&[CandidateKind::Contact])),
        ("apps", of(&[CandidateKind::App])),
        ("keys", of(&[CandidateKind::Key])),
        ("paths", of(&[CandidateKind::Path])),
    ]
}

fn check(case: &Case) -> Result<(), String> {
    let doc = case.doc();
    let report = interpret(doc, &case.body, &case.fetch_meta()).ok_or_else(|| format!("no interpreter for {doc}"))?;
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    for (list, got) in candidate_lists(&report) {
        problems.compare(&format!("candidates.{list}"), got, string_set(&case.expect()["candidates"][list]));
    }
    problems.finish(&case.name)
}

#[test]
fn every_metadata_case_passes() {
    let selected = cases(|_, meta| meta["doc"].as_str() == Some("openid-configuration"));
    // The 11 oidc_* cases.
    run_all(&selected, 11, check);
}
