//! The registered probe: where `/.well-known/related-website-set.json` lives and how it is fetched.

use url::Url;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

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

impl WellKnownProbe for RelatedWebsiteSetJsonProbe {
    fn id(&self) -> &'static str {
        PROBE_ID
    }

    fn suffix(&self) -> Option<&'static str> {
        Some(SUFFIX)
    }

    fn summary(&self) -> &'static str {
        "Related Website Set (Chrome): the primary, associated, service and ccTLD sites of one organisation"
    }

    fn spec(&self) -> &'static str {
        "Related Website Sets (Chrome, GoogleChrome/related-website-sets Well-Known-Specification.md)"
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
        let urls = RelatedWebsiteSetJsonProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/related-website-set.json").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("related-website-set.json"));
    }
}
