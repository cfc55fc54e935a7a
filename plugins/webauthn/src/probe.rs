//! The registered probe: where `/.well-known/webauthn` lives and how it is fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The WebAuthn related origins probe (id and suffix `webauthn`).
///
/// * Origin targets: `<origin>/.well-known/webauthn`, one request.
/// * URL targets: the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded; clients follow them but require each hop to
/// be https, checked by [`crate::interpret`]); `Accept: application/json`; body cap
/// [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct WebauthnProbe;

impl WebauthnProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "WebAuthn related origins: other origins of the organisation allowed to use this RP ID's passkeys",
        spec: "WebAuthn Level 3 (related origin requests)",
        page: "webauthn",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for WebauthnProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/json".to_string()),
            ..FetchPolicy::default()
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::{Origin, Target};

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = WebauthnProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/webauthn").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("webauthn"));
    }
}
