//! security.txt (RFC 9116) parser and probe.
//!
//! * [`parse`] / [`parse_with_key`]: pure interpretation of a body plus [`FetchMeta`] into a
//!   [`Report`] (diagnostics with line numbers, candidates, facts). Expiry is judged against
//!   `meta.fetched_at`.
//! * [`verify()`]: OpenPGP cleartext-signature verification of a [`SignedDocument`] with a public key
//!   (rPGP), returning a [`SignatureStatus`].
//! * [`SecurityTxtProbe`]: the registered probe (id `security.txt`): canonical location first, the
//!   legacy `/security.txt` only when that does not answer 200, and the signing-key follow-up.
//!
//! Behaviour, every diagnostic code and the candidates are documented in
//! `docs/plugins/security-txt.md`.
//!
//! [`FetchMeta`]: wellknown_core::FetchMeta
//! [`Report`]: wellknown_core::Report

mod cap;
pub mod codes;
pub mod parser;
pub mod probe;
pub mod signed;
pub mod values;
pub mod verify;

pub use cap::MAX_DIAGNOSTICS_PER_CODE;
pub use parser::{MAX_PARSE_BYTES, PROBE_ID, RECOMMENDED_MAX_BYTES, SIGNATURE_FAILED, parse, parse_with_key};
pub use probe::SecurityTxtProbe;
pub use signed::SignedDocument;
pub use verify::{SignatureStatus, verify};

inventory::submit! { wellknown_core::ProbeRegistration::new(&SecurityTxtProbe) }
