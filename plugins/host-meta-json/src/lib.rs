//! `/.well-known/host-meta.json` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names RFC6415).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`HostMetaJsonProbe`] is the registered probe (id `host-meta.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/host-meta-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::HostMetaJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "host-meta.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "host-meta.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&HostMetaJsonProbe) }
