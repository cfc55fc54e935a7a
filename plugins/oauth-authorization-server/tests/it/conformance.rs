//! Runs every `oauth-authorization-server` and `jwks` case of `tests/conformance/wellknown/` through
//! the pure interpreters and compares `valid`, the error and warning code sets and the candidates.
//!
//! Candidate mapping (the cases' README defines `urls`, `hosts`, `contacts`, `apps`, `keys`, `paths`):
//! `urls` are the values of candidates of kind `url`, `endpoint` and `issuer`; `hosts` the `host`
//! candidates with the hosts of those URLs; `keys` the JWK thumbprint URNs. Every list is compared as
//! a set of distinct values; an optional list (`keys`, `paths`) that a case omits must be empty.

use wellknown_conformance::{Case, Problems, cases, run_all};
use wellknown_core::{FetchMeta, Report};
use wellknown_oauth_metadata::jwks;

fn interpret(doc: &str, body: &[u8], meta: &FetchMeta) -> Option<Report> {
    match doc {
        wellknown_oauth_authorization_server::PROBE_ID => {
            Some(wellknown_oauth_authorization_server::interpret(body, meta))
        }
        jwks::PROBE_ID => Some(jwks::interpret(body, meta)),
        _ => None,
    }
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
fn every_metadata_and_jwks_case_passes() {
    let selected = cases(|_, meta| matches!(meta["doc"].as_str(), Some("oauth-authorization-server" | "jwks")));
    // oauth_as_missing_response_types and the three jwks_* cases.
    run_all(&selected, 4, check);
}
