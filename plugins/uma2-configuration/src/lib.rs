//! `/.well-known/uma2-configuration` probe: UMA 2.0 authorization server metadata.
//!
//! An authorization server that supports User-Managed Access 2.0 (Keycloak realms, ForgeRock/Ping AM,
//! Gluu) publishes RFC 8414 metadata at its issuer with `/.well-known/uma2-configuration` appended,
//! adding the UMA endpoints (permission, resource registration, claims interaction) and
//! `uma_profiles_supported` (UMA 2.0 Grant section 2; Federated Authorization for UMA 2.0 section 2).
//! Resource servers and clients read it to find those endpoints. The document is read by the shared
//! RFC 8414 reader of `wellknown-oauth-metadata`, so the issuer, endpoints, hosts and the
//! `jwks_uri` follow-up are treated exactly as for `oauth-authorization-server`.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`Uma2ConfigurationProbe`] is the registered probe (id `uma2-configuration`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/uma2-configuration.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{PROFILE, UMA_ENDPOINTS, UMA_TICKET_GRANT, interpret};
pub use probe::{Uma2ConfigurationProbe, appended_url};

/// The probe id.
pub const PROBE_ID: &str = "uma2-configuration";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "uma2-configuration";

inventory::submit! { wellknown_core::ProbeRegistration::new(&Uma2ConfigurationProbe) }
