//! `/.well-known/uma2-configuration` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://docs.kantarainitiative.org/uma/wg/rec-oauth-uma-grant-2.0.html#as-config).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`Uma2ConfigurationProbe`] is the registered probe (id `uma2-configuration`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/uma2-configuration.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::Uma2ConfigurationProbe;

/// The probe id.
pub const PROBE_ID: &str = "uma2-configuration";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "uma2-configuration";

inventory::submit! { wellknown_core::ProbeRegistration::new(&Uma2ConfigurationProbe) }
