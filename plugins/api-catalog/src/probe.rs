//! The registered probe: where `/.well-known/api-catalog` lives and how it is fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The API catalog probe (id and suffix `api-catalog`).
///
/// * Origin targets: `<origin>/.well-known/api-catalog`.
/// * URL targets (an `api-catalog` link of another catalog, role `api_catalog`): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded; RFC 9727 lets a publisher redirect the
/// well-known URI to the catalog); `Accept: application/linkset+json`; body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiCatalogProbe;

impl ApiCatalogProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "API catalog (Linkset): the APIs a publisher lists, with their descriptions, documentation and status",
        spec: "RFC 9727 (Linkset, RFC 9264)",
        page: "api-catalog",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for ApiCatalogProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/linkset+json, application/json;q=0.5".to_string()),
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
        let urls = ApiCatalogProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/api-catalog").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("api-catalog"));
    }
}
