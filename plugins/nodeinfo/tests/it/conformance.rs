//! Runs the `nodeinfo_*` (discovery) and `nodeinfodoc_*` (NodeInfo document) conformance cases of
//! `tests/conformance/wellknown/` (real documents and the cases the protocol names), and checks the
//! follow-up, hints and facts on real ones.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{CandidateKind, Locator, Report};

fn report(case: &Case) -> Report {
    match case.doc() {
        "nodeinfo-document" => wellknown_nodeinfo::interpret_document(&case.body, &case.fetch_meta()),
        _ => wellknown_nodeinfo::interpret(&case.body, &case.fetch_meta()),
    }
}

fn check(case: &Case) -> Result<(), String> {
    let report = report(case);
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

fn named(name: &str) -> Report {
    report(&cases_with_prefix(name).pop().expect("case"))
}

#[test]
fn every_nodeinfo_case_passes() {
    run_all(&cases_with_prefix("nodeinfo_"), 6, check);
    run_all(&cases_with_prefix("nodeinfodoc_"), 5, check);
}

#[test]
fn highest_schema_is_followed() {
    let r = named("nodeinfo_banana_dog_two_versions");
    assert_eq!(r.follow_ups.len(), 1);
    assert_eq!(r.follow_ups[0].probe, "nodeinfo-document");
    assert_eq!(r.follow_ups[0].role, "nodeinfo");
    assert_eq!(r.follow_ups[0].url.as_str(), "https://banana.dog/nodeinfo/2.1");
    let second = r.candidates.get(1).expect("second link");
    assert_eq!(second.hint("schema"), Some("2.1"));
    assert_eq!(second.locator(), Some(Locator::JsonPointer("/links/1".into())));
    assert_eq!(r.facts["schemas"], serde_json::json!(["2.0", "2.1"]));
}

#[test]
fn a_single_link_object_is_still_followed() {
    let r = named("nodeinfo_lemmy_ml_links_object");
    assert_eq!(r.follow_ups[0].url.as_str(), "https://lemmy.ml/nodeinfo/2.0.json");
    assert_eq!(r.candidates.first().and_then(|c| c.locator()), Some(Locator::JsonPointer("/links".into())));
}

#[test]
fn document_facts_say_the_software_and_protocols() {
    let r = named("nodeinfodoc_relay_asonix_dog");
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.facts["software_name"], "aoderelay");
    assert_eq!(r.facts["software_version"], "v0.1.0-master");
    assert_eq!(r.facts["schema_version"], "2.0");
    assert_eq!(r.facts["protocols"], serde_json::json!(["activitypub"]));
    assert_eq!(r.facts["open_registrations"], false);
    assert_eq!(r.facts["users_total"], 1);
    let missing: Vec<_> = named("nodeinfodoc_asonix_dog").errors.iter().map(|d| d.message.clone()).collect();
    assert_eq!(missing.len(), 2, "services and metadata: {missing:?}");
    let r = named("nodeinfodoc_schema_1_0_and_bad_name");
    assert_eq!(r.facts["protocols"], serde_json::json!(["diaspora", "gnusocial"]));
    let repo = r.candidates.iter().find(|c| c.kind() == CandidateKind::Url).expect("repository");
    assert_eq!(repo.relation(), "software_repository");
    assert_eq!(repo.locator(), Some(Locator::JsonPointer("/software/repository".into())));
}
