//! The registered probes: where `/.well-known/host-meta` and `/.well-known/host-meta.json` live and
//! how they are fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{JSON_PROBE_ID, JSON_SUFFIX, MAX_BODY_BYTES, MAX_JSON_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `host-meta` probe (suffix `host-meta`).
///
/// * Origin targets: `<origin>/.well-known/host-meta`.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct HostMetaProbe;

impl HostMetaProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Host metadata (XRD): links about the host, such as WebFinger lrdd templates and XMPP endpoints",
        spec: "RFC 6415",
        page: "host-meta",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for HostMetaProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/xrd+xml".to_string()),
            ..FetchPolicy::default()
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }
}

/// The `host-meta.json` probe (suffix `host-meta.json`).
///
/// * Origin targets: `<origin>/.well-known/host-meta.json`.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); body cap [`MAX_JSON_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct HostMetaJsonProbe;

impl HostMetaJsonProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: JSON_PROBE_ID,
        suffix: Some(JSON_SUFFIX),
        summary: "Host metadata (JRD): links about the host, such as WebFinger lrdd templates and XMPP endpoints",
        spec: "RFC 6415",
        page: "host-meta-json",
        codes: crate::codes::JRD_ALL,
    };
}

impl WellKnownProbe for HostMetaJsonProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_JSON_BODY_BYTES,
            accept: Some("application/json".to_string()),
            ..FetchPolicy::default()
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret_json(body, meta)
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
        let urls = HostMetaProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/host-meta").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("host-meta"));
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = HostMetaJsonProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/host-meta.json").unwrap()]);
        let p = wellknown_core::probe_by_id(JSON_PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("host-meta.json"));
    }
}
