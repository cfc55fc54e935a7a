//! `/.well-known/agent-card.json` probe: the A2A (Agent2Agent) protocol's Agent Card.
//!
//! An AI agent that speaks A2A publishes a JSON Agent Card describing itself: its name, skills, the
//! URLs and protocol bindings it is reached at, its provider, and the security schemes a client must
//! satisfy (OAuth 2.0 flows, OpenID Connect discovery URLs). Other agents and agent registries fetch it
//! to discover and call the agent. This probe checks the card against the A2A specification (0.3 and
//! 1.0 shapes) and feeds back the agent's endpoints and the OAuth/OpenID issuers it trusts (issuers go
//! to the identity probes).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`AgentCardJsonProbe`] is the registered probe (id `agent-card.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/agent-card-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{AGENT_CARD_JSON, KIND, KNOWN, MAX_BODY_BYTES, MAX_HARVEST_DEPTH, interpret};
pub use probe::AgentCardJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "agent-card.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "agent-card.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&AgentCardJsonProbe) }
