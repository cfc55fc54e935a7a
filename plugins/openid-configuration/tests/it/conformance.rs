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

use wellknown_conformance::{Case, Problems, cases, run_all};
use wellknown_core::{FetchMeta, Report};

fn interpret(doc: &str, body: &[u8], meta: &FetchMeta) -> Option<Report> {
    (doc == wellknown_openid_configuration::PROBE_ID).then(|| wellknown_openid_configuration::interpret(body, meta))
}

fn check(case: &Case) -> Result<(), String> {
    let doc = case.doc();
    let report = interpret(doc, &case.body, &case.fetch_meta()).ok_or_else(|| format!("no interpreter for {doc}"))?;
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.url_and_host_sets(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

#[test]
fn every_metadata_case_passes() {
    let selected = cases(|_, meta| meta["doc"].as_str() == Some("openid-configuration"));
    // The 11 oidc_* cases.
    run_all(&selected, 11, check);
}
