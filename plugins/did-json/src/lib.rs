//! `/.well-known/did.json` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://w3c-ccg.github.io/did-method-web).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`DidJsonProbe`] is the registered probe (id `did.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/did-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::DidJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "did.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "did.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&DidJsonProbe) }
