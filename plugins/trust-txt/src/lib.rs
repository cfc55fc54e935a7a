//! `/.well-known/trust.txt` probe.
//!
//! TODO: say what the document is, who publishes it, who reads it, and its specification (the IANA
//! registry names https://journallist.net/reference-document-for-trust-txt-specifications).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`TrustTxtProbe`] is the registered probe (id `trust.txt`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/trust-txt.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, RELATION, interpret};
pub use probe::TrustTxtProbe;

/// The probe id.
pub const PROBE_ID: &str = "trust.txt";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "trust.txt";

inventory::submit! { wellknown_core::ProbeRegistration::new(&TrustTxtProbe) }
