//! The registered probe: where `/.well-known/csaf` lives and how it is fetched.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `csaf` probe (suffix `csaf`).
///
/// * Origin targets: `<origin>/.well-known/csaf/provider-metadata.json` (section 7.1.7).
/// * URL targets (follow-ups handed to this probe, such as a security.txt `CSAF:` URL): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct CsafProbe;

impl CsafProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "CSAF provider metadata: advisory distributions, ROLIE feeds and OpenPGP keys of a CSAF publisher",
        spec: "OASIS CSAF 2.0, section 7.1.7",
        page: "csaf",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for CsafProbe {
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

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => {
                vec![origin.url_for_path(crate::DOCUMENT_PATH)]
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
        let urls = CsafProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/csaf/provider-metadata.json").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("csaf"));
    }
}
