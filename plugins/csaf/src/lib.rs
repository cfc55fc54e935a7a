//! `/.well-known/csaf` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://docs.oasis-open.org/csaf/csaf/v2.0/os/csaf-v2.0-os.html).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`CsafProbe`] is the registered probe (id `csaf`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/csaf.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::CsafProbe;

/// The probe id.
pub const PROBE_ID: &str = "csaf";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "csaf";

inventory::submit! { wellknown_core::ProbeRegistration::new(&CsafProbe) }
