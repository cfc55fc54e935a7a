//! CSAF provider metadata probe: `/.well-known/csaf/provider-metadata.json` (OASIS CSAF 2.0
//! section 7.1.7).
//!
//! A vendor or coordinator that publishes security advisories in the Common Security Advisory
//! Framework describes its publication at `/.well-known/csaf/provider-metadata.json`: its role
//! (publisher, provider, trusted provider), the publisher, where the advisories are (directory
//! distributions and ROLIE feeds per TLP label), and the OpenPGP keys that sign them. CSAF
//! aggregators and asset-management tools read it; a security.txt `CSAF:` field points at it
//! (section 7.1.8), and the security.txt probe hands those URLs to this probe as follow-ups (role
//! `csaf`). The IANA registry suffix is `csaf`; the document is the registry entry's one file.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`CsafProbe`] is the registered probe (id `csaf`, suffix `csaf`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/csaf.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, ROLES, interpret};

/// The document's path under the well-known prefix.
pub const DOCUMENT_PATH: &str = "/.well-known/csaf/provider-metadata.json";
pub use probe::CsafProbe;

/// The probe id.
pub const PROBE_ID: &str = "csaf";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "csaf";

inventory::submit! { wellknown_core::ProbeRegistration::new(&CsafProbe) }
