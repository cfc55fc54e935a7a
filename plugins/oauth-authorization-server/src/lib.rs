//! OAuth 2.0 Authorization Server Metadata (RFC 8414) probe, the JWK Set (RFC 7517) follow-up probe,
//! and what the OpenID Connect Discovery probe (`wellknown-openid-configuration`) shares with them.
//!
//! * [`location`]: the appended (OIDC) and inserted (RFC 8414) URL constructions and their inverse.
//! * [`members`]: the metadata members both specifications define, with their JSON types.
//! * [`metadata`]: [`metadata::read_metadata`], the shared pure reader (issuer, types, endpoints,
//!   candidates, follow-ups) and the diagnostic codes.
//! * [`rfc8414`]: the RFC 8414 interpretation ([`rfc8414::interpret`]).
//! * [`jwks`]: JWK Set interpretation, RFC 7638 thumbprints, private-key findings.
//! * [`probe`]: [`OAuthAuthorizationServerProbe`] (`oauth-authorization-server`) and [`JwksProbe`]
//!   (`jwks`, follow-up only), registered with `inventory`.
//!
//! Behaviour, every diagnostic code and the candidates: `docs/plugins/oauth-authorization-server.md`.

pub mod jwks;
pub mod location;
pub mod members;
pub mod metadata;
pub mod probe;
pub mod rfc8414;
pub mod x5c;

pub use location::{Construction, expected_issuer_from, oidc_discovery_url, rfc8414_metadata_url};
pub use probe::{JwksProbe, OAuthAuthorizationServerProbe};
