//! Runs every `didconfig_*` conformance case of `tests/conformance/wellknown/` (real configurations and
//! the cases the specification names), with the `origins` list these cases add; then hints, flags and
//! follow-ups on real ones.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{CandidateKind, Locator, Report};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_did_configuration_json::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates_with(&report, case.expect(), &[("origins", CandidateKind::Origin)]);
    problems.finish(&case.name)
}

fn named(name: &str) -> Report {
    let case = cases_with_prefix(name).pop().expect("case");
    wellknown_did_configuration_json::interpret(&case.body, &case.fetch_meta())
}

#[test]
fn every_did_configuration_case_passes() {
    run_all(&cases_with_prefix("didconfig_"), 5, check);
}

#[test]
fn jwt_linkage_is_read_unverified_and_follows_the_did_document() {
    let r = named("didconfig_did_fortytwo_io_jwt");
    assert!(r.valid(), "{:?}", r.errors);
    let c = r.candidates.iter().find(|c| c.relation() == "linked_origin").expect("linked origin");
    assert_eq!(c.value(), "https://did.fortytwo.io");
    assert_eq!(c.hint("did"), Some("did:web:did.fortytwo.io"));
    assert_eq!(c.hint("format"), Some("jwt"));
    assert_eq!(c.hint("signature"), Some("unverified"));
    assert_eq!(c.locator(), Some(Locator::JsonPointer("/linked_dids/0".into())));
    assert_eq!(r.follow_ups.len(), 1);
    assert_eq!(r.follow_ups[0].probe, "did.json");
    assert_eq!(r.follow_ups[0].role, "linked_did");
    assert_eq!(r.follow_ups[0].url.as_str(), "https://did.fortytwo.io/.well-known/did.json");
    assert_eq!(r.facts["signatures"], "unverified");
    assert_eq!(r.facts["linked_dids"], serde_json::json!(["did:web:did.fortytwo.io"]));
}

#[test]
fn mismatched_origin_is_kept_flagged() {
    let r = named("didconfig_identinet_origin_mismatch");
    let c = r.candidates.iter().find(|c| c.relation() == "linked_origin").expect("linked origin");
    assert!(c.has_flag("invalid"));
    assert_eq!(c.hint("format"), Some("json-ld"));
    let did = r.candidates.iter().find(|c| c.relation() == "linked_did").expect("linked did");
    assert!(!did.has_flag("invalid"));
}
