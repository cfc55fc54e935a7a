//! `interpret` never panics, whatever the bytes.

use proptest::prelude::*;
use url::Url;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::{FetchMeta, Timestamp};

proptest! {
    #[test]
    fn interpret_never_panics(body in proptest::collection::vec(any::<u8>(), 0..2048), truncated in any::<bool>()) {
        let url = Url::parse("https://www.example.com/.well-known/change-password").unwrap();
        let mut meta = FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH);
        meta.truncated = truncated;
        let r = check_interpret(&wellknown_change_password::ChangePasswordProbe, &body, &meta).map_err(TestCaseError::fail)?;
        prop_assert_eq!(r.probe.as_str(), wellknown_change_password::PROBE_ID);
    }
}

proptest! {
    /// HTML-ish bodies built from meta-refresh fragments, to reach the attribute and content parsers.
    #[test]
    fn refresh_scanner_never_panics(parts in proptest::collection::vec(prop_oneof![
        Just("<meta".to_string()), Just(" http-equiv=refresh".to_string()), Just(" HTTP-EQUIV='Refresh'".to_string()),
        Just(" content=\"".to_string()), Just("0; url=".to_string()), Just("'".to_string()), Just("\"".to_string()),
        Just(">".to_string()), Just("\n".to_string()), Just("&amp;".to_string()), "[ -~é]{0,6}",
    ], 0..40)) {
        let body = parts.concat();
        let url = Url::parse("https://www.example.com/.well-known/change-password").unwrap();
        let r = check_interpret(&wellknown_change_password::ChangePasswordProbe, body.as_bytes(), &FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH)).map_err(TestCaseError::fail)?;
        prop_assert!(!r.candidates.is_empty(), "a 2xx answer always yields the change password URL candidate");
        let _ = wellknown_change_password::refresh::find(body.as_bytes());
    }
}
