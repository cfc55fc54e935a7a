//! `/.well-known/agent-card.json` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://a2a-protocol.org/latest/specification/).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`AgentCardJsonProbe`] is the registered probe (id `agent-card.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/agent-card-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::AgentCardJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "agent-card.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "agent-card.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&AgentCardJsonProbe) }
