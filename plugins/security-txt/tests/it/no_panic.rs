//! No-panic properties: the parser over arbitrary bytes and over line soup built from security.txt
//! pieces, and signature verification over arbitrary key bytes.

use proptest::prelude::*;
use wellknown_conformance::invariants::{check_interpret, check_report};
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_security_txt::{SecurityTxtProbe, parse, parse_with_key};

fn meta(ct: Option<&str>) -> FetchMeta {
    let now: Timestamp = "2026-12-01T00:00:00Z".parse().expect("now");
    FetchMeta::synthetic(url::Url::parse("https://example.com/.well-known/security.txt").expect("url"), ct, now)
}

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("Contact: mailto:a@example.com".to_string()),
        Just("Expires: 2027-01-01T00:00:00Z".to_string()),
        Just("Canonical: https://example.com/.well-known/security.txt".to_string()),
        Just("-----BEGIN PGP SIGNED MESSAGE-----".to_string()),
        Just("Hash: SHA256".to_string()),
        Just("-----BEGIN PGP SIGNATURE-----".to_string()),
        Just("-----END PGP SIGNATURE-----".to_string()),
        Just("iHUEARYIAB0WIQT+l9/CBWJRsQYWZkXkxtRLG7LcHQUC".to_string()),
        Just("- - dashed".to_string()),
        Just(String::new()),
        "[A-Za-z-]{1,12}: ?[ -~]{0,40}",
        "[ -~\t]{0,60}",
        "\\PC{0,30}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_bytes(body in proptest::collection::vec(any::<u8>(), 0..2048), html in any::<bool>()) {
        let ct = if html { Some("text/html") } else { Some("text/plain; charset=utf-8") };
        let r = check_interpret(&SecurityTxtProbe, &body, &meta(ct)).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r, parse(&body, &meta(ct)));
    }

    #[test]
    fn never_panics_on_line_soup(lines in proptest::collection::vec(piece(), 0..40), crlf in any::<bool>(), key in proptest::collection::vec(any::<u8>(), 0..256)) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let body = lines.join(eol);
        let r = parse_with_key(body.as_bytes(), &meta(Some("text/plain")), Some(&key));
        let problems = check_report(&SecurityTxtProbe, &r, body.len(), &meta(Some("text/plain")));
        prop_assert!(problems.is_empty(), "{:?}", problems);
        // Every diagnostic and candidate points at a line of the body.
        let n = u32::try_from(body.split('\n').count()).unwrap_or(u32::MAX);
        for c in &r.candidates {
            if let Some(wellknown_core::Locator::Line(l)) = c.locator() {
                prop_assert!(l >= 1 && l <= n);
            }
        }
    }
}
