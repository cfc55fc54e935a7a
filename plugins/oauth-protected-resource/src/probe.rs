//! The registered probe: where `/.well-known/oauth-protected-resource` lives and how it is fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `oauth-protected-resource` probe (RFC 9728).
///
/// * Origin targets: `<origin>/.well-known/oauth-protected-resource`, the metadata of the resource
///   identifier `<origin>` (RFC 9728 section 3.1); one request per origin.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); `Accept: application/json`; body cap
/// [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct OauthProtectedResourceProbe;

impl OauthProtectedResourceProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "OAuth 2.0 protected resource metadata: resource identifier, authorization servers, JWK Set, scopes",
        spec: "RFC 9728",
        page: "oauth-protected-resource",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for OauthProtectedResourceProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/json".into()),
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
        let urls = OauthProtectedResourceProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/oauth-protected-resource").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("oauth-protected-resource"));
    }
}
