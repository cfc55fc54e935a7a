//! Diagnostic codes of the `oauth-authorization-server` and `jwks` probes
//! (`docs/plugins/oauth-authorization-server.md`).
//!
//! Both read through `wellknown-oauth-metadata`, whose codes they emit
//! ([`wellknown_oauth_metadata::codes`]); RFC 8414's own checks only add `missing_<member>` codes for
//! its REQUIRED members (`missing_response_types_supported`, `missing_authorization_endpoint`,
//! `missing_token_endpoint`), covered by the pattern [`wellknown_oauth_metadata::codes::MISSING_MEMBER`].

use wellknown_oauth_metadata::codes as shared;

/// Every code the `oauth-authorization-server` probe can emit: the JSON skeleton's and the shared
/// metadata reader's.
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
    shared::MISSING_MEMBER,
    shared::INVALID_MEMBER,
];

/// Every code the `jwks` probe can emit ([`wellknown_oauth_metadata::codes::JWKS`]).
pub const JWKS: &[&str] = shared::JWKS;
