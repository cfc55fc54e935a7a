//! `/.well-known/did-configuration.json` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://identity.foundation/.well-known/resources/did-configuration).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`DidConfigurationJsonProbe`] is the registered probe (id `did-configuration.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/did-configuration-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::DidConfigurationJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "did-configuration.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "did-configuration.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&DidConfigurationJsonProbe) }
