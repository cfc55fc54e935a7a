//! Diagnostic codes of the `jwks.json` probe (`docs/plugins/jwks-json.md`): those of the shared JWK
//! Set reader ([`wellknown_oauth_metadata::jwks`]), which this probe runs unchanged.

/// Every code this probe can emit ([`wellknown_oauth_metadata::codes::JWKS`]).
pub const ALL: &[&str] = wellknown_oauth_metadata::codes::JWKS;
