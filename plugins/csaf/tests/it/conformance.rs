//! Runs every `csaf_*` conformance case of `tests/conformance/wellknown/` (real provider metadata and
//! the schema's rules); then relations, hints and facts on real documents.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{Locator, Report};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_csaf::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates(&report, case.expect(), &[]);
    problems.finish(&case.name)
}

fn named(name: &str) -> Report {
    let case = cases_with_prefix(name).pop().expect("case");
    wellknown_csaf::interpret(&case.body, &case.fetch_meta())
}

#[test]
fn every_csaf_case_passes() {
    run_all(&cases_with_prefix("csaf_"), 5, check);
}

#[test]
fn rolie_feeds_keys_and_facts() {
    let r = named("csaf_isduba_github_io");
    assert!(r.valid(), "{:?}", r.errors);
    let red = r.candidates.iter().find(|c| c.value().ends_with("tlp-red.json")).expect("red feed");
    assert_eq!(red.relation(), "rolie_feed");
    assert_eq!(red.hint("tlp_label"), Some("RED"));
    assert_eq!(red.locator(), Some(Locator::JsonPointer("/distributions/0/rolie/feeds/3/url".into())));
    let key = r.candidates.iter().find(|c| c.relation() == "public_openpgp_key").expect("key");
    assert_eq!(key.hint("fingerprint"), Some("A25FE0F175896BFA636F1A051DE645B1926835DD"));
    assert_eq!(r.facts["role"], "csaf_trusted_provider");
    assert_eq!(r.facts["publisher"]["name"], "Isduba Development Community");
    assert_eq!(r.facts["distributions"], 5);
    let dirs = r.candidates.iter().filter(|c| c.relation() == "distribution_directory").count();
    assert_eq!(dirs, 4);
}
