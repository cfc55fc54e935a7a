//! Every security.txt conformance case in `tests/conformance/wellknown/sectxt_*` (copied from the
//! shared case set): `NAME.input` is the body, `NAME.meta.json` the fetch metadata and the expected
//! answer (valid, error and warning code sets, candidate urls / hosts / keys as sets, contacts in
//! order). The harness is `wellknown-conformance`.

use std::collections::BTreeSet;

use wellknown_conformance::{Case, Problems, cases_with_prefix, run_all, string_set, strings};
use wellknown_core::{CandidateKind, Report};
use wellknown_security_txt::parse_with_key;

fn set(r: &Report, kind: CandidateKind) -> BTreeSet<String> {
    r.values(kind).map(str::to_string).collect()
}

fn values(r: &Report, kind: CandidateKind) -> Vec<String> {
    r.values(kind).map(str::to_string).collect()
}

fn check(case: &Case) -> Result<(), String> {
    assert_eq!(case.doc(), "security.txt", "{}", case.name);
    let key = case.meta["pgp_public_key"].as_str().map(str::as_bytes);
    let r = parse_with_key(&case.body, &case.fetch_meta(), key);
    let (e, c) = (case.expect(), &case.expect()["candidates"]);
    let mut p = Problems::default();
    p.diagnostics(&r, e);
    p.compare("urls", set(&r, CandidateKind::Url), string_set(&c["urls"]));
    p.compare("hosts", set(&r, CandidateKind::Host), string_set(&c["hosts"]));
    p.compare("contacts", values(&r, CandidateKind::Contact), strings(&c["contacts"]));
    p.compare("apps", values(&r, CandidateKind::App), strings(&c["apps"]));
    if !c["keys"].is_null() {
        p.compare("keys", set(&r, CandidateKind::Key), string_set(&c["keys"]));
    }
    if key.is_some() && !r.has_code("data_after_signature") {
        p.compare("signature", r.facts.get("signature").and_then(|v| v.as_str()), Some("verified"));
    }
    if let Err(e) = p.finish(&case.name) {
        return Err(format!("{e}\n  report: {}", serde_json::to_string(&r).unwrap_or_default()));
    }
    Ok(())
}

#[test]
fn every_security_txt_case_passes() {
    run_all(&cases_with_prefix("sectxt_"), 21, check);
}

#[test]
fn signed_case_signature_is_verified_and_data_after_is_ignored() {
    for name in ["sectxt_signed_valid", "sectxt_signed_data_after_signature"] {
        let case = cases_with_prefix(name).pop().expect("case");
        assert!(case.meta["pgp_public_key"].is_string(), "{name} carries the signer's key");
        check(&case).expect(name);
    }
}
