//! `/.well-known/trust.txt` probe: JournalList trust.txt.
//!
//! News publishers, associations and other organisations publish a plain-text file of
//! `variable=value` records declaring their relationships: the associations they belong to
//! (`belongto`), their members (`member`), the sites they control or are controlled by (`control`,
//! `controlledby`), their social accounts (`social`), vendors and customers, a contact, a disclosure
//! page, and whether their content may train AI models (`datatrainingallowed`). Readers (search
//! engines, platforms, researchers) cross-check both ends of a relationship. Specification: the
//! JournalList "Reference Document for trust.txt" (version of 2024-07-11).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`TrustTxtProbe`] is the registered probe (id `trust.txt`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/trust-txt.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, ORGANISATION_VARIABLES, interpret};
pub use probe::TrustTxtProbe;

/// The probe id.
pub const PROBE_ID: &str = "trust.txt";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "trust.txt";

inventory::submit! { wellknown_core::ProbeRegistration::new(&TrustTxtProbe) }
