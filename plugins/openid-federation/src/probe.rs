//! The registered probe: where `/.well-known/openid-federation` lives and how it is fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `openid-federation` probe (suffix `openid-federation`).
///
/// * Origin targets: `<origin>/.well-known/openid-federation`.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); `Accept: application/entity-statement+jwt`;
/// body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenidFederationProbe;

impl OpenidFederationProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "OpenID Federation entity configuration: signed JWT with keys, superiors (authority_hints) and metadata",
        spec: "OpenID Federation 1.0",
        page: "openid-federation",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for OpenidFederationProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy { max_body_bytes: MAX_BODY_BYTES, accept: Some(crate::MEDIA_TYPE.into()), ..FetchPolicy::default() }
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
        let urls = OpenidFederationProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/openid-federation").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("openid-federation"));
    }
}
