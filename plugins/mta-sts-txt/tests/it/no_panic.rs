//! `interpret` never panics, on arbitrary bytes or on lines built from the policy's vocabulary.

use proptest::prelude::*;
use wellknown_conformance::generate::fetch_meta;
use wellknown_conformance::invariants::check_interpret;

fn meta(https: bool, ct: Option<&str>, redirected: bool, truncated: bool) -> wellknown_core::FetchMeta {
    fetch_meta("/.well-known/mta-sts.txt", https, ct, redirected, truncated)
}

const NAMES: &[&str] = &["version", "mode", "max_age", "mx", "Mode", "x-ext", ""];
const VALUES: &[&str] = &[
    "STSv1",
    "enforce",
    "testing",
    "none",
    "604800",
    "31557601",
    "99999999999",
    "*.example.net",
    "mx.example.",
    "*.",
    "",
    "é",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..2048), https in any::<bool>(),
                                   truncated in any::<bool>(), ct in prop::option::of("text/plain|text/html|application/json")) {
        let r = check_interpret(&wellknown_mta_sts_txt::MtaStsTxtProbe, &body, &meta(https, ct.as_deref(), false, truncated)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.valid(), r.errors.is_empty());
    }

    #[test]
    fn vocabulary_lines_never_panic(lines in prop::collection::vec((prop::sample::select(NAMES), prop::sample::select(VALUES), any::<bool>()), 0..12)) {
        let body: String = lines.iter().map(|(n, v, crlf)| format!("{n}: {v}{}", if *crlf { "\r\n" } else { "\n" })).collect();
        let r = check_interpret(&wellknown_mta_sts_txt::MtaStsTxtProbe, body.as_bytes(), &meta(true, Some("text/plain"), false, false)).map_err(TestCaseError::fail)?;
        for c in &r.candidates {
            prop_assert!(!c.value().is_empty());
        }
    }
}
