//! The registered probe: where `/.well-known/related-website-set.json` lives and how it is fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The Related Website Set probe (id and suffix `related-website-set.json`).
///
/// * Origin targets: `<origin>/.well-known/related-website-set.json`.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); `Accept: application/json`; body cap
/// [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RelatedWebsiteSetJsonProbe;

impl RelatedWebsiteSetJsonProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Related Website Set (Chrome): the primary, associated, service and ccTLD sites of one organisation",
        spec: "Related Website Sets (Chrome, GoogleChrome/related-website-sets Well-Known-Specification.md)",
        page: "related-website-set-json",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for RelatedWebsiteSetJsonProbe {
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
        let urls = RelatedWebsiteSetJsonProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/related-website-set.json").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("related-website-set.json"));
    }
}
