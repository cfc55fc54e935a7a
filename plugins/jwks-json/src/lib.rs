//! `/.well-known/jwks.json` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names TODO: the specification).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`JwksJsonProbe`] is the registered probe (id `jwks.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/jwks-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::JwksJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "jwks.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "jwks.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&JwksJsonProbe) }
