//! `/.well-known/did-configuration.json` probe: DIF Well Known DID Configuration 1.0.
//!
//! A web origin proves it is linked to DIDs by serving Domain Linkage Credentials (JWTs or JSON-LD
//! verifiable credentials) in `linked_dids`, each naming the DID and the origin. Wallets and
//! verifiers check both ends: the credential's origin must be the serving origin, and the DID's
//! document must list the origin as a `LinkedDomains` service. Signatures are recorded as unverified
//! (see the `parse` module and `docs/plugins/did-configuration-json.md`).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`DidConfigurationJsonProbe`] is the registered probe (id `did-configuration.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/did-configuration-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{CONTEXT_V1, FOLLOW_UP_ROLE, MAX_BODY_BYTES, interpret};
pub use probe::DidConfigurationJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "did-configuration.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "did-configuration.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&DidConfigurationJsonProbe) }
