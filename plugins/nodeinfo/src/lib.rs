//! `/.well-known/nodeinfo` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://nodeinfo.diaspora.software/).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`NodeinfoProbe`] is the registered probe (id `nodeinfo`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/nodeinfo.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::NodeinfoProbe;

/// The probe id.
pub const PROBE_ID: &str = "nodeinfo";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "nodeinfo";

inventory::submit! { wellknown_core::ProbeRegistration::new(&NodeinfoProbe) }
