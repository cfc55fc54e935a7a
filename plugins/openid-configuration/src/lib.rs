//! OpenID Connect Discovery 1.0 probe (`openid-configuration`).
//!
//! Reading is shared with the other metadata probes through `wellknown-oauth-metadata` (URL
//! constructions, member types, issuer checks, candidates, follow-ups to the `jwks` probe). This
//! crate adds:
//!
//! * [`interpret`] / [`parse`]: the OpenID-specific rules on top of the shared reader (pure);
//! * [`OpenIdConfigurationProbe`]: the registered probe, which falls back to the RFC 8414 inserted
//!   form;
//! * [`codes`]: every code the probe emits.
//!
//! Behaviour, every diagnostic code and the candidates: `docs/plugins/openid-configuration.md`.

pub mod codes;
pub mod parse;
mod probe;

pub use parse::interpret;
pub use probe::{OpenIdConfigurationProbe, RFC8414_STYLE_ROLE};

/// The probe id and report kind.
pub const PROBE_ID: &str = "openid-configuration";

/// The RFC 8615 well-known suffix (OpenID Connect Discovery 1.0 section 4).
pub const SUFFIX: &str = wellknown_oauth_metadata::OIDC_SUFFIX;

inventory::submit! { wellknown_core::ProbeRegistration::new(&OpenIdConfigurationProbe) }
