//! Runs every `jwks.json` case of `tests/conformance/wellknown/` through [`wellknown_jwks_json::interpret`]:
//! `valid`, error and warning code sets, the `keys` (candidates of kind `key`) and empty other lists;
//! and checks the flag and locator of the leaked key.

use std::collections::BTreeSet;

use wellknown_conformance::{Case, Problems, cases, run_all, string_set};
use wellknown_core::{CandidateKind, Locator, Report};

fn check(case: &Case) -> Result<(), String> {
    let report = wellknown_jwks_json::interpret(&case.body, &case.fetch_meta());
    let mut problems = Problems::default();
    problems.compare("probe", report.probe.as_str(), "jwks.json");
    problems.diagnostics(&report, case.expect());
    let keys: BTreeSet<String> = report.values(CandidateKind::Key).map(str::to_string).collect();
    problems.compare("candidates.keys", keys, string_set(&case.expect()["candidates"]["keys"]));
    let others = report.candidates.iter().filter(|c| c.kind() != CandidateKind::Key).count();
    problems.compare("other candidates", others, 0);
    problems.finish(&case.name)
}

#[test]
fn every_jwks_json_case_passes() {
    let selected = cases(|_, meta| meta["doc"] == "jwks.json");
    run_all(&selected, 5, check);
}

fn case(name: &str) -> Report {
    let c = cases(|n, _| n == name).pop().expect("case");
    wellknown_jwks_json::interpret(&c.body, &c.fetch_meta())
}

#[test]
fn the_leaked_key_is_located_and_flagged() {
    let r = case("jwksjson_rfc7517_a2_private_ec");
    assert_eq!(r.errors[0].locator, Some(Locator::JsonPointer("/keys/0/d".into())));
    let key = r.candidates.get(0).expect("key");
    assert!(key.has_flag("private_key_material"));
    assert_eq!((key.hint("kid"), key.hint("use"), key.hint("kty")), (Some("1"), Some("enc"), Some("EC")));
    let r = case("jwksjson_shc_kid_is_thumbprint");
    let key = r.candidates.get(0).expect("key");
    assert!(key.value().ends_with(key.hint("kid").expect("kid")));
    assert_eq!(key.locator(), Some(Locator::JsonPointer("/keys/0".into())));
    assert_eq!(r.facts["key_count"], 1);
}
