//! `/.well-known/openid-federation` probe: OpenID Federation 1.0 Entity Configurations.
//!
//! Every entity of an OpenID Federation (trust anchors, intermediates, OpenID Providers, Relying
//! Parties, wallet providers) publishes a signed JWT about itself at its Entity Identifier with
//! `/.well-known/openid-federation` appended (section 9): its federation keys, its superiors
//! (`authority_hints`) and its metadata per entity type. Federation participants read it to build
//! trust chains. This probe checks the JWT (type, signature against the statement's own `jwks`,
//! `iat`/`exp` against the fetch time, `iss` = `sub` = the Entity Identifier) and feeds back the
//! superiors as origins, the providers as issuers, the metadata endpoints, and the keys.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`jws`]: compact JWS splitting and signature checks with `ring`.
//! * [`OpenidFederationProbe`] is the registered probe (id `openid-federation`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/openid-federation.md`.

pub mod codes;
pub mod jws;
mod parse;
mod probe;

pub use parse::{IAT_SKEW_SECONDS, KIND, MAX_BODY_BYTES, MEDIA_TYPE, interpret};
pub use probe::OpenidFederationProbe;

/// The probe id.
pub const PROBE_ID: &str = "openid-federation";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "openid-federation";

inventory::submit! { wellknown_core::ProbeRegistration::new(&OpenidFederationProbe) }
