//! The registered probe: where the association file lives and how it must be fetched.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

use crate::{FETCH_CAP_BYTES, LEGACY_PATH, PROBE_ID, SUFFIX};

/// The apple-app-site-association probe (id `apple-app-site-association`).
///
/// Locations for an origin, in order (the default `run` stops at the first 2xx):
/// `<origin>/.well-known/apple-app-site-association`, then the legacy
/// `<origin>/apple-app-site-association` (diagnosed `legacy_location`). A URL target is read as is.
///
/// Redirects are followed so the content is still read, but diagnosed `redirected` (Apple refuses
/// them). The fetch cap ([`FETCH_CAP_BYTES`]) is above Apple's 128 KB limit so an oversized file is
/// read whole and diagnosed `too_large`.
#[derive(Debug, Clone, Copy, Default)]
pub struct AppleAppSiteAssociationProbe;

impl AppleAppSiteAssociationProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Apple associated domains: apps and universal-link paths a site vouches for",
        spec: "Apple associated domains",
        page: "apple-app-site-association",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for AppleAppSiteAssociationProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            follow_redirects: true,
            max_redirects: 5,
            max_body_bytes: FETCH_CAP_BYTES,
            accept: Some("application/json".to_string()),
            decode_content_encoding: true,
        }
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => wellknown_core::wellknown::url(origin, SUFFIX)
                .into_iter()
                .chain(std::iter::once(origin.url_for_path(LEGACY_PATH)))
                .collect(),
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
    fn well_known_then_legacy() {
        let origin = Origin::parse_target("https://a.example").unwrap();
        let urls: Vec<String> =
            AppleAppSiteAssociationProbe.locations(&Target::origin(origin)).iter().map(Url::to_string).collect();
        assert_eq!(
            urls,
            [
                "https://a.example/.well-known/apple-app-site-association",
                "https://a.example/apple-app-site-association"
            ]
        );
        let p = wellknown_core::probe_by_id("apple-app-site-association").expect("registered");
        assert_eq!(p.spec(), "Apple associated domains");
        assert_eq!(p.suffix(), Some("apple-app-site-association"));
        assert!(p.policy().max_body_bytes > crate::MAX_DOCUMENT_BYTES as u64);
    }
}
