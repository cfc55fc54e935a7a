//! The registered probe: where assetlinks.json lives and how it must be fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The Digital Asset Links probe (id `assetlinks`, suffix `assetlinks.json`).
///
/// * Origin targets: `<origin>/.well-known/assetlinks.json`.
/// * URL targets (role `include`, from a statement list's `include`): the URL itself.
///
/// Redirects are followed (so the document's candidates are read) but diagnosed `redirected`:
/// verifiers accept only a direct 200 over https. Body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct AssetLinksProbe;

impl AssetLinksProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Digital Asset Links statement list: Android apps and web sites a site vouches for",
        spec: "Digital Asset Links",
        page: "assetlinks",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for AssetLinksProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            follow_redirects: true,
            max_redirects: 5,
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/json".to_string()),
            decode_content_encoding: true,
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
    use wellknown_core::Origin;
    use wellknown_core::Target;

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = AssetLinksProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/assetlinks.json").unwrap()]);
        let include = Url::parse("https://b.example/shared/links.json").unwrap();
        let t = Target::Url { url: include.clone(), role: "include".into(), declared_by: vec![] };
        assert_eq!(AssetLinksProbe.locations(&t), vec![include]);
        let p = wellknown_core::probe_by_id("assetlinks").expect("registered");
        assert_eq!(p.suffix(), Some("assetlinks.json"));
        assert_eq!(p.spec(), "Digital Asset Links");
        assert!(p.policy().follow_redirects);
    }
}
