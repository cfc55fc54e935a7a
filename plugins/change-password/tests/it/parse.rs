//! `interpret` on the fixture files of `tests/fixtures/sites` (as `wellknown parse` would read them).

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Locator, Report, Timestamp};

fn parse(host: &str, path: &str) -> Report {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/sites/{host}{path}"));
    let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let url = Url::parse(&format!("https://{host}{path}")).unwrap();
    wellknown_change_password::interpret(&body, &FetchMeta::synthetic(url, Some("text/html"), Timestamp::UNIX_EPOCH))
}

#[test]
fn meta_refresh_fixture() {
    let r = parse("change-password-refresh.test", "/.well-known/change-password");
    assert!(r.valid() && r.warnings.is_empty(), "{:?} {:?}", r.errors, r.warnings);
    assert_eq!(r.kind, "meta_refresh");
    assert_eq!(
        r.values(CandidateKind::Url).collect::<Vec<_>>(),
        ["https://change-password-refresh.test/settings/security?tab=password&from=well-known"]
    );
    assert_eq!(r.candidates.get(0).unwrap().locator(), Some(Locator::Line(5)));
    assert_eq!(r.candidates.get(0).unwrap().relation(), wellknown_change_password::RELATION);
    assert_eq!(r.facts["redirected"], true);
}

#[test]
fn page_served_directly_fixture() {
    let r = parse("change-password-soft200.test", "/.well-known/change-password");
    assert_eq!(r.kind, "page");
    assert_eq!(r.warnings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["served_at_well_known"]);
    assert_eq!(
        r.candidates.get(0).unwrap().value(),
        "https://change-password-soft200.test/.well-known/change-password"
    );
    assert_eq!(r.candidates.get(0).unwrap().hint("via").unwrap(), "served_directly");
}

#[test]
fn a_page_requested_elsewhere_declares_nothing() {
    let url = url::Url::parse("https://a.example/account/password").unwrap();
    let meta = wellknown_core::FetchMeta::synthetic(url, Some("text/html"), wellknown_core::Timestamp::UNIX_EPOCH);
    let r = wellknown_change_password::interpret(b"<html><body>form</body></html>", &meta);
    assert_eq!(r.kind, "invalid");
    assert!(r.candidates.is_empty(), "{:?}", r.candidates);
    assert_eq!(r.warnings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["wrong_location"]);
}
