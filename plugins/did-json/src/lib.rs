//! `/.well-known/did.json` probe: did:web DID documents (W3C CCG did:web Method Specification, DID
//! Core 1.0).
//!
//! An organisation that identifies itself with `did:web:<host>` serves the DID document at
//! `https://<host>/.well-known/did.json`: its verification keys, its services (endpoints of
//! credential issuers, hubs, messaging, and `LinkedDomains`, the origins it claims) and the other
//! identifiers it is also known as. Wallets and verifiers of verifiable credentials resolve it.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`DidJsonProbe`] is the registered probe (id `did.json`).
//! * did:web DIDs and the URL each resolves to are read by the `wellknown-did-web` library crate
//!   (`crates/did-web`), which `did-configuration.json` shares.
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/did-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, interpret};
pub use probe::DidJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "did.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "did.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&DidJsonProbe) }
