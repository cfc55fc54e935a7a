//! The parser on real documents (conformance inputs): locators, hints, facts.

use wellknown_conformance::cases_with_prefix;
use wellknown_core::{CandidateKind, Locator, Report};

fn report(name: &str) -> Report {
    let case = cases_with_prefix(name).pop().expect("case");
    wellknown_host_meta::interpret(&case.body, &case.fetch_meta())
}

#[test]
fn lrdd_template_is_a_pattern_with_its_rel_and_type() {
    let r = report("hostmeta_joshtriplett_org");
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.kind, "xrd");
    let t = r.candidates.iter().find(|c| c.kind() == CandidateKind::Path).expect("template");
    assert_eq!(t.relation(), "link_template");
    assert_eq!(t.value(), "https://social.joshtriplett.org/.well-known/webfinger?resource={uri}");
    assert_eq!(t.hint("rel"), Some("lrdd"));
    assert_eq!(t.hint("type"), Some("application/xrd+xml"));
    assert_eq!(t.locator(), Some(Locator::Xml("/XRD/Link[1]".into())));
    let h = r.candidates.iter().find(|c| c.kind() == CandidateKind::Host).expect("host");
    assert_eq!((h.relation(), h.value()), ("link_host", "social.joshtriplett.org"));
    assert_eq!(r.facts["templates"], 1);
    assert_eq!(r.facts["hrefs"], 0);
}

#[test]
fn hrefs_are_urls_located_by_link_index() {
    let r = report("hostmeta_nasqueron_org");
    let urls: Vec<_> = r
        .candidates
        .iter()
        .filter(|c| c.kind() == CandidateKind::Url)
        .map(|c| (c.value().to_string(), c.hint("rel").unwrap_or_default().to_string(), c.locator()))
        .collect();
    assert_eq!(
        urls,
        [
            (
                "https://xmpp.nasqueron.org:7443/http-bind/".to_string(),
                "urn:xmpp:alt-connections:xbosh".to_string(),
                Some(Locator::Xml("/XRD/Link[1]".into()))
            ),
            (
                "wss://xmpp.nasqueron.org:7443/ws".to_string(),
                "urn:xmpp:alt-connections:websocket".to_string(),
                Some(Locator::Xml("/XRD/Link[2]".into()))
            ),
        ]
    );
    assert_eq!(r.facts["links"], 2);
}

#[test]
fn legacy_host_element_is_a_fact() {
    let r = report("hostmeta_mozilla_com_2011_legacy");
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.facts["legacy_host"], "mozilla.com");
}

#[test]
fn malformed_xml_keeps_earlier_links_and_locates_the_fault() {
    let r = report("hostmeta_malformed_after_link");
    let d = r.errors.iter().find(|d| d.code == "malformed_xml").expect("malformed_xml");
    assert!(d.message.contains("ends inside") || matches!(d.locator, Some(Locator::Byte(_))), "{d:?}");
    assert_eq!(r.facts["links"], 1, "the cut Link is not read");
}
