//! Diagnostic codes of the `openid-configuration` probe (`docs/plugins/openid-configuration.md`).
//!
//! The probe reads through `wellknown-oauth-metadata` and emits its codes
//! ([`wellknown_oauth_metadata::codes`]); OpenID Connect Discovery 1.0 section 3 adds these.

use wellknown_oauth_metadata::codes as shared;

/// RS256 absent from `id_token_signing_alg_values_supported` (error; FAPI servers omit it).
pub const RS256_NOT_SUPPORTED: &str = "rs256_not_supported";
/// `scopes_supported` present without `openid` (error).
pub const SCOPES_MISSING_OPENID: &str = "scopes_missing_openid";
/// RECOMMENDED `userinfo_endpoint` absent (warning).
pub const MISSING_USERINFO_ENDPOINT: &str = "missing_userinfo_endpoint";
/// RECOMMENDED `scopes_supported` absent (warning).
pub const MISSING_SCOPES_SUPPORTED: &str = "missing_scopes_supported";
/// RECOMMENDED `claims_supported` absent (warning).
pub const MISSING_CLAIMS_SUPPORTED: &str = "missing_claims_supported";

/// Every code the probe can emit: the JSON skeleton's, the shared metadata reader's and its own.
pub const ALL: &[&str] = &[
    "invalid_content_type",
    "invalid_charset",
    "too_large",
    "bom",
    "not_utf8",
    "invalid_utf8",
    "html_document",
    "invalid_json",
    "duplicate_member",
    "not_json_object",
    shared::ISSUER_MISMATCH,
    shared::ISSUER_NOT_HTTPS,
    shared::ISSUER_HAS_QUERY_OR_FRAGMENT,
    shared::ISSUER_TRAILING_SLASH,
    shared::INSECURE_ENDPOINT,
    shared::NONE_ALG_NOT_ALLOWED,
    shared::WRONG_WELL_KNOWN_LOCATION,
    shared::RFC8414_STYLE_LOCATION,
    shared::MISSING_MEMBER,
    shared::INVALID_MEMBER,
    RS256_NOT_SUPPORTED,
    SCOPES_MISSING_OPENID,
    MISSING_USERINFO_ENDPOINT,
    MISSING_SCOPES_SUPPORTED,
    MISSING_CLAIMS_SUPPORTED,
];
