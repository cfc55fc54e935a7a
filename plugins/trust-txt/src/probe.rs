//! The registered probe: where `/.well-known/trust.txt` lives and how it is fetched.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `trust.txt` probe (suffix `trust.txt`).
///
/// * Origin targets: `<origin>/.well-known/trust.txt`, then the root `/trust.txt` the reference
///   document also allows (tried only when the first does not answer 2xx; `legacy_location`).
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct TrustTxtProbe;

impl TrustTxtProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "JournalList trust.txt: associations, members, controlled sites, social accounts, vendors and customers an organisation declares",
        spec: "JournalList trust.txt reference document",
        page: "trust-txt",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for TrustTxtProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy { max_body_bytes: MAX_BODY_BYTES, accept: Some("text/plain".to_string()), ..FetchPolicy::default() }
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => {
                let mut v: Vec<Url> = wellknown_core::wellknown::url(origin, SUFFIX).into_iter().collect();
                v.push(origin.url_for_path("/trust.txt"));
                v
            }
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
        let urls = TrustTxtProbe.locations(&Target::origin(origin));
        assert_eq!(
            urls,
            vec![
                Url::parse("https://a.example:8443/.well-known/trust.txt").unwrap(),
                Url::parse("https://a.example:8443/trust.txt").unwrap()
            ]
        );
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("trust.txt"));
    }
}
