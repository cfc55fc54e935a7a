//! `/.well-known/jwks.json` probe: the JWK Set (RFC 7517 section 5) that many origins publish at a
//! well-known path nobody registered (Auth0 tenants, SMART Health Cards issuers, OWASP, CDS Hooks).
//!
//! It runs on every origin and reads the document with the same JWK Set reader as the `jwks`
//! follow-up probe (`wellknown_oauth_metadata::jwks::interpret`): each key becomes a `key`
//! candidate named by its RFC 7638 thumbprint, and a key that carries private members is
//! `private_key_material`, a real finding.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`JwksJsonProbe`] is the registered probe (id `jwks.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/jwks-json.md`.

pub mod codes;
mod probe;

pub use probe::JwksJsonProbe;
use wellknown_core::{FetchMeta, Report};

/// The probe id.
pub const PROBE_ID: &str = "jwks.json";

/// The well-known suffix (not in the IANA registry: widely published all the same).
pub const SUFFIX: &str = "jwks.json";

/// Fetch cap: the JWK Set reader's (1 MiB); larger bodies are `too_large`.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// Interprets a `/.well-known/jwks.json` body fetched as `meta`: the shared JWK Set reader's report
/// (kind `jwks`, `invalid` when not a JSON object), under this probe's id. Pure, never panics.
///
/// Candidates: `key` `jwks_key`, value `urn:ietf:params:oauth:jwk-thumbprint:sha-256:<b64url>`
/// (RFC 9278), hints `kty`, `kid`, `use`, `alg`, `x5c_sha256`, `x5c_subject`, flag
/// `private_key_material`; locator `/keys/<i>`. Fact `key_count`.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = wellknown_oauth_metadata::jwks::interpret(body, meta);
    report.probe = PROBE_ID.to_string();
    report
}

inventory::submit! { wellknown_core::ProbeRegistration::new(&JwksJsonProbe) }
