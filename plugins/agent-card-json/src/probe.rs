//! The registered probe: where `/.well-known/agent-card.json` lives and how it is fetched.

use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, WellKnownProbe};

use crate::{MAX_BODY_BYTES, PROBE_ID, SUFFIX};

/// The `agent-card.json` probe (suffix `agent-card.json`).
///
/// * Origin targets: `<origin>/.well-known/agent-card.json`.
/// * URL targets (follow-ups handed to this probe): the URL itself.
///
/// Redirects are followed (up to 5, every hop recorded); `Accept: application/json`; body cap
/// [`MAX_BODY_BYTES`].
#[derive(Debug, Clone, Copy, Default)]
pub struct AgentCardJsonProbe;

impl AgentCardJsonProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "A2A Agent Card: an AI agent's interfaces, skills and security schemes (OAuth/OpenID issuers)",
        spec: "A2A protocol specification (AgentCard)",
        page: "agent-card-json",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for AgentCardJsonProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("application/json".into()),
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
        let urls = AgentCardJsonProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/agent-card.json").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("agent-card.json"));
    }
}
