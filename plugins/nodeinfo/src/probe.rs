//! The registered probes: where the NodeInfo documents live and how they are fetched.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

use crate::{DOCUMENT_PROBE_ID, MAX_BODY_BYTES, PROBE_ID, SUFFIX};

fn policy() -> FetchPolicy {
    FetchPolicy {
        max_body_bytes: MAX_BODY_BYTES,
        accept: Some("application/json".to_string()),
        ..FetchPolicy::default()
    }
}

/// The NodeInfo discovery probe (id and suffix `nodeinfo`).
///
/// * Origin targets: `<origin>/.well-known/nodeinfo`.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); body cap [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct NodeinfoProbe;

impl NodeinfoProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "NodeInfo discovery: links to the server's NodeInfo documents by schema version",
        spec: "NodeInfo protocol (nodeinfo.diaspora.software)",
        page: "nodeinfo",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for NodeinfoProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        policy()
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }
}

/// The NodeInfo document probe (id `nodeinfo-document`): runs only on the follow-up the discovery
/// document asks for (role `nodeinfo`), never on an origin by itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct NodeinfoDocumentProbe;

impl NodeinfoDocumentProbe {
    /// What the probe is (no suffix: it reads follow-ups only).
    pub const INFO: ProbeInfo = ProbeInfo {
        id: DOCUMENT_PROBE_ID,
        suffix: None,
        summary: "NodeInfo document: the server's software name and version, protocols, services and usage",
        spec: "NodeInfo schema 1.0-2.2 (nodeinfo.diaspora.software)",
        page: "nodeinfo",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for NodeinfoDocumentProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn runs_on_origin(&self) -> bool {
        false
    }

    fn policy(&self) -> FetchPolicy {
        policy()
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { .. } => Vec::new(),
            Target::Url { url, .. } => vec![url.clone()],
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret_document(body, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Origin;

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = NodeinfoProbe.locations(&Target::origin(origin.clone()));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/nodeinfo").unwrap()]);
        assert!(NodeinfoDocumentProbe.locations(&Target::origin(origin)).is_empty());
        assert!(!NodeinfoDocumentProbe.runs_on_origin());
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("nodeinfo"));
        assert!(wellknown_core::probe_by_id(DOCUMENT_PROBE_ID).is_some());
    }
}
