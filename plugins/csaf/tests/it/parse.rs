//! The parser on the fixture `tests/data/csaf.txt` and on edge cases.

use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Locator, Report, Timestamp};

fn parse(body: &[u8]) -> Report {
    let url = Url::parse("https://www.example.com/.well-known/csaf").unwrap();
    wellknown_csaf::interpret(body, &FetchMeta::synthetic(url, Some("text/plain"), Timestamp::UNIX_EPOCH))
}

#[test]
fn fixture() {
    let body = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/csaf.txt")).unwrap();
    let r = parse(&body);
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.kind, "csaf");
    assert_eq!(
        r.values(CandidateKind::Url).collect::<Vec<_>>(),
        ["https://www.example.com/first", "https://www.example.com/second"]
    );
    let first = r.candidates.first().expect("a candidate");
    assert_eq!(first.locator(), Some(Locator::Line(2)));
    assert_eq!(first.relation(), wellknown_csaf::RELATION);
    let warnings: Vec<(&str, Option<&Locator>)> =
        r.warnings.iter().map(|d| (d.code.as_str(), d.locator.as_ref())).collect();
    assert_eq!(warnings, [("unrecognised_line", Some(&Locator::Line(4)))]);
    assert_eq!(r.facts["entries"], 3);
}

#[test]
fn empty_and_invalid_utf8() {
    let r = parse(b"# only a comment\n");
    assert_eq!(r.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["empty_document"]);
    let r = parse(b"https://www.example.com/a\n\xff");
    assert_eq!(r.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["invalid_utf8"]);
    assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://www.example.com/a"]);
}
