//! Runs every `trusttxt_*` conformance case of `tests/conformance/wellknown/` (real files and the
//! cases the reference document names): diagnostics, candidates, and the `origins` list the cases of
//! this probe add; then locators, relations and facts on the real files.

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all};
use wellknown_core::{CandidateKind, Locator, Report};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_trust_txt::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.diagnostics(&report, case.expect());
    problems.ordered_candidates_with(&report, case.expect(), &[("origins", CandidateKind::Origin)]);
    problems.finish(&case.name)
}

fn named(name: &str) -> Report {
    let case = cases_with_prefix(name).pop().expect("case");
    wellknown_trust_txt::interpret(&case.body, &case.fetch_meta())
}

#[test]
fn every_trust_txt_case_passes() {
    run_all(&cases_with_prefix("trusttxt_"), 5, check);
}

#[test]
fn relations_are_the_variables_located_by_line() {
    let r = named("trusttxt_christianpaquin_github_io");
    assert!(r.valid(), "{:?}", r.errors);
    let first = r.candidates.first().expect("belongto");
    assert_eq!(
        (first.kind(), first.relation(), first.value()),
        (CandidateKind::Origin, "belongto", "https://www.microsoft.com")
    );
    assert_eq!(first.locator(), Some(Locator::Line(4)));
    let social: Vec<_> = r.candidates.iter().filter(|c| c.relation() == "social").map(|c| c.locator()).collect();
    assert_eq!(social.first(), Some(&Some(Locator::Line(5))));
    assert_eq!(social.len(), 6);
    assert_eq!(r.facts["records"], 7);
    assert_eq!(r.facts["comments"], 2);
    assert_eq!(r.facts["variables"]["social"], 6);
}

#[test]
fn values_without_scheme_keep_their_host_flagged() {
    let r = named("trusttxt_noosphere_tech");
    let c2pa = r.candidates.iter().find(|c| c.value() == "c2pa.org").expect("c2pa.org");
    assert_eq!((c2pa.kind(), c2pa.relation()), (CandidateKind::Host, "belongto"));
    assert!(c2pa.has_flag("invalid"));
    assert_eq!(r.warnings.iter().filter(|d| d.code == "missing_scheme").count(), 5);
    assert_eq!(r.facts["comments"], 13);
}

#[test]
fn datatraining_fact_is_the_first_declaration() {
    let r = named("trusttxt_variables_and_datatraining");
    assert_eq!(r.facts["datatrainingallowed"], "no");
    let conflict = r.warnings.iter().find(|d| d.code == "conflicting_datatraining").expect("conflict");
    assert_eq!(conflict.locator, Some(Locator::Line(13)));
}
