//! OpenID Connect Discovery 1.0 probe (`openid-configuration`).
//!
//! Reading is shared with RFC 8414 through `wellknown-oauth-authorization-server` (RFC 8414 is the
//! base metadata; OIDC Discovery adds to it): URL constructions in its `location` module, member
//! types, issuer checks, candidates and follow-ups in its `metadata` module, and the `jwks` follow-up
//! probe. This crate adds the OpenID-specific rules ([`discovery::interpret`]) and the probe
//! ([`OpenIdConfigurationProbe`]) that falls back to the RFC 8414 inserted form.
//!
//! Behaviour, every diagnostic code and the candidates: `docs/plugins/openid-configuration.md`.

pub mod discovery;
pub mod probe;

pub use discovery::interpret;
pub use probe::OpenIdConfigurationProbe;
