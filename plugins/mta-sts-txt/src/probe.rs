//! The registered probe: where the policy lives (the Policy Host) and how it is fetched.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The MTA-STS policy probe (id and suffix `mta-sts.txt`, RFC 8461).
///
/// * Origin targets: [`crate::policy_url`], `https://mta-sts.<host>/.well-known/mta-sts.txt` (the
///   origin's host itself when it is a Policy Host), one request; nothing for an IP-literal origin.
///   The URL is on another host than the origin: the engine's scope check decides, like for every
///   request, and an out-of-scope policy host is recorded (a `document` with failure `out_of_scope`),
///   not requested.
/// * URL targets: the URL itself.
///
/// Redirects are not followed (RFC 8461 section 3.3: senders MUST NOT follow them; a 3xx is
/// diagnosed `redirected`); `Accept: text/plain`; body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct MtaStsTxtProbe;

impl MtaStsTxtProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "MTA-STS policy on the mta-sts.<domain> policy host: the MX hosts allowed to receive the domain's mail over TLS",
        spec: "RFC 8461",
        page: "mta-sts-txt",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for MtaStsTxtProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            follow_redirects: false,
            max_redirects: 0,
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("text/plain".to_string()),
            decode_content_encoding: true,
        }
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => crate::policy_url(origin).into_iter().collect(),
            Target::Url { url, .. } => vec![url.clone()],
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }

    fn interpret_unavailable(&self, meta: &FetchMeta) -> Option<Report> {
        crate::interpret_unavailable(meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Origin;

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = MtaStsTxtProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://mta-sts.a.example/.well-known/mta-sts.txt").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("mta-sts.txt"));
        assert!(!p.policy().follow_redirects);
    }
}
