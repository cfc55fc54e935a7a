//! OAuth 2.0 Authorization Server Metadata (RFC 8414) probe, and the JWK Set (RFC 7517) follow-up
//! probe its documents (and OpenID configurations) lead to.
//!
//! Reading is shared with the other metadata probes through `wellknown-oauth-metadata` (URL
//! constructions, member types, issuer checks, candidates, follow-ups, JWK Sets). This crate adds:
//!
//! * [`interpret`] / [`parse`]: the RFC 8414 rules on top of the shared reader (pure);
//! * [`OAuthAuthorizationServerProbe`] (`oauth-authorization-server`) and [`JwksProbe`] (`jwks`,
//!   follow-up only), registered with `inventory`;
//! * [`codes`]: every code each probe emits.
//!
//! Behaviour, every diagnostic code and the candidates: `docs/plugins/oauth-authorization-server.md`.

pub mod codes;
pub mod parse;
mod probe;

pub use parse::interpret;
pub use probe::{JWKS, JwksProbe, OAUTH_AUTHORIZATION_SERVER, OAuthAuthorizationServerProbe};

/// The probe id and report kind of the RFC 8414 probe.
pub const PROBE_ID: &str = "oauth-authorization-server";

/// The RFC 8615 well-known suffix (RFC 8414 section 3).
pub const SUFFIX: &str = wellknown_oauth_metadata::RFC8414_SUFFIX;

inventory::submit! { wellknown_core::ProbeRegistration::new(&OAUTH_AUTHORIZATION_SERVER) }
inventory::submit! { wellknown_core::ProbeRegistration::new(&JWKS) }
