//! Runs every `didjson_*` conformance case of `tests/conformance/wellknown/` (real DID documents and
//! the cases the did:web method names), with the `origins` list these cases add; then pointers, hints
//! and facts on real documents.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{CandidateKind, Locator, Report};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_did_json::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates_with(&report, case.expect(), &[("origins", CandidateKind::Origin)]);
    problems.finish(&case.name)
}

fn named(name: &str) -> Report {
    let case = cases_with_prefix(name).pop().expect("case");
    wellknown_did_json::interpret(&case.body, &case.fetch_meta())
}

#[test]
fn every_did_json_case_passes() {
    run_all(&cases_with_prefix("didjson_"), 5, check);
}

#[test]
fn services_carry_type_and_absolute_id() {
    let r = named("didjson_did_fortytwo_io");
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.facts["did"], "did:web:did.fortytwo.io");
    assert_eq!(r.facts["did_matches_origin"], true);
    let linked = r.candidates.iter().find(|c| c.relation() == "linked_domain").expect("linked domain");
    assert_eq!(linked.locator(), Some(Locator::JsonPointer("/service/0/serviceEndpoint/origins/0".into())));
    assert_eq!(linked.hint("service"), Some("did:web:did.fortytwo.io#linkeddomains"));
    let hub = r.candidates.iter().find(|c| c.relation() == "service_endpoint").expect("hub");
    assert_eq!(hub.hint("type"), Some("IdentityHub"));
    let key = r.candidates.iter().find(|c| c.kind() == CandidateKind::Key).expect("key");
    assert_eq!(key.hint("id"), Some("did:web:did.fortytwo.io#67767675c2fd4b63910a4e80e4d11cd7vcSigningKey-72f7c"));
}

#[test]
fn id_of_another_host_is_named_in_the_error() {
    let r = named("didjson_noosphere_tech_id_mismatch");
    let d = r.errors.iter().find(|d| d.code == "id_mismatch").expect("id_mismatch");
    assert_eq!(d.locator, Some(Locator::JsonPointer("/id".into())));
    assert!(d.message.contains("did:web:www.noosphere.tech"), "{}", d.message);
    assert_eq!(r.facts["did_matches_origin"], false);
    assert_eq!(r.facts["services"], 10);
}
