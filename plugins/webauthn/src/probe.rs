//! The registered probe: where `/.well-known/webauthn` lives and how it is fetched.

use url::Url;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

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

impl WellKnownProbe for WebauthnProbe {
    fn id(&self) -> &'static str {
        PROBE_ID
    }

    fn suffix(&self) -> Option<&'static str> {
        Some(SUFFIX)
    }

    fn summary(&self) -> &'static str {
        "WebAuthn related origins: other origins of the organisation allowed to use this RP ID's passkeys"
    }

    fn spec(&self) -> &'static str {
        "WebAuthn Level 3 (related origin requests)"
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/json".to_string()),
            ..FetchPolicy::default()
        }
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => wellknown_core::wellknown::url(origin, SUFFIX).into_iter().collect(),
            Target::Url { url, .. } => vec![url.clone()],
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Origin;

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = WebauthnProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/webauthn").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("webauthn"));
    }
}
