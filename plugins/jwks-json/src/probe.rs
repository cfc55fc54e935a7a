//! The registered probe: `/.well-known/jwks.json` on every origin.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `jwks.json` probe.
///
/// * Origin targets: `<origin>/.well-known/jwks.json` (one request per origin).
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); `Accept: application/jwk-set+json,
/// application/json`; body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct JwksJsonProbe;

impl JwksJsonProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "JWK Set at /.well-known/jwks.json: public keys by RFC 7638 thumbprint, leaked private keys",
        spec: "RFC 7517",
        page: "jwks-json",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for JwksJsonProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/jwk-set+json, application/json".into()),
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
        let urls = JwksJsonProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/jwks.json").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("jwks.json"));
        assert!(p.runs_on_origin());
    }
}
