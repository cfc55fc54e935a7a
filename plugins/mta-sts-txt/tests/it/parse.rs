//! The parser on the real policies of `tests/conformance/wellknown/mta_sts_*` read as files (the
//! conformance module checks their expectations).

use url::Url;
use wellknown_conformance::cases_with_prefix;
use wellknown_core::{CandidateKind, Locator};

#[test]
fn crlf_policy_reads_every_field() {
    let case = cases_with_prefix("mta_sts_adisa_crlf").pop().expect("case");
    let r = wellknown_mta_sts_txt::interpret(&case.body, &case.fetch_meta());
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.facts["line_ends"], "crlf");
    assert_eq!(r.facts["max_age"], 1209600);
    assert_eq!(r.facts["policy_host"], "mta-sts.adisa.org.uk");
    let mx = r.candidates.iter().find(|c| c.relation() == wellknown_mta_sts_txt::MX_RELATION).expect("mx");
    assert_eq!((mx.value(), mx.locator()), ("mailserver.adisa.org.uk", Some(Locator::Line(4))));
    assert_eq!(r.values(CandidateKind::Host).collect::<Vec<_>>(), ["adisa.org.uk", "mailserver.adisa.org.uk"]);
}

#[test]
fn a_policy_served_elsewhere_has_no_policy_domain() {
    let url = Url::parse("https://www.example.com/.well-known/mta-sts.txt").unwrap();
    let meta = wellknown_core::FetchMeta::synthetic(url, Some("text/plain"), wellknown_core::Timestamp::UNIX_EPOCH);
    let r = wellknown_mta_sts_txt::interpret(b"version: STSv1\nmode: none\nmax_age: 86400\n", &meta);
    assert!(r.facts.get("policy_domain").is_none());
    assert_eq!(r.candidates.len(), 0);
}
