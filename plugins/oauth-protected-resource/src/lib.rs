//! `/.well-known/oauth-protected-resource` probe: OAuth 2.0 Protected Resource Metadata (RFC 9728).
//!
//! A protected resource (an API, an MCP server) publishes a JSON object naming its resource
//! identifier, the authorization servers whose tokens it accepts, its JWK Set and what it supports.
//! Clients (MCP clients among them) read it to find the authorization server. This probe checks it
//! against RFC 9728 and feeds back what it declares: the authorization servers as issuers (which the
//! engine hands to the RFC 8414 and OpenID Connect probes), the JWK Set as a `jwks` follow-up
//! (public keys as nodes, leaked private keys as `private_key_material`), and the pages and hosts.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`OauthProtectedResourceProbe`] is the registered probe (id `oauth-protected-resource`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/oauth-protected-resource.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{KIND, MAX_BODY_BYTES, MEMBERS, Member, PROTECTED_RESOURCE_JSON, expected_resource, interpret};
pub use probe::OauthProtectedResourceProbe;

/// The probe id.
pub const PROBE_ID: &str = "oauth-protected-resource";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "oauth-protected-resource";

inventory::submit! { wellknown_core::ProbeRegistration::new(&OauthProtectedResourceProbe) }
