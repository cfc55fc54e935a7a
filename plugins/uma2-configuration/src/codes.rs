//! Diagnostic codes of the `uma2-configuration` probe (`docs/plugins/uma2-configuration.md`).
//!
//! UMA 2.0 metadata is RFC 8414 metadata (UMA 2.0 Grant section 2: "MUST conform to that defined in
//! \[OAuthMeta\]"), read by the shared issuer-metadata reader of `wellknown-oauth-metadata`:
//! its codes apply unchanged. `missing_<member>` and `invalid_<member>` are built from member names.

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    "missing_issuer",
    "missing_response_types_supported",
    "missing_authorization_endpoint",
    "missing_token_endpoint",
    "invalid_<member>",
    "issuer_mismatch",
    "issuer_not_https",
    "issuer_has_query_or_fragment",
    "issuer_trailing_slash",
    "insecure_endpoint",
    "none_alg_not_allowed",
    "wrong_well_known_location",
    "rfc8414_style_location",
    "invalid_content_type",
    "invalid_charset",
    "bom",
    "not_utf8",
    "invalid_utf8",
    "html_document",
    "invalid_json",
    "not_json_object",
    "duplicate_member",
    "too_large",
];
