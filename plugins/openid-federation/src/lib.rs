//! `/.well-known/openid-federation` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://openid.net/specs/openid-federation-1_0.html#name-well-known-uri-registry).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`OpenidFederationProbe`] is the registered probe (id `openid-federation`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/openid-federation.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::OpenidFederationProbe;

/// The probe id.
pub const PROBE_ID: &str = "openid-federation";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "openid-federation";

inventory::submit! { wellknown_core::ProbeRegistration::new(&OpenidFederationProbe) }
