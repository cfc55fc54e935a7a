//! Diagnostic codes of the `jwks.json` probe (`docs/plugins/jwks-json.md`): those of the shared JWK
//! Set reader (`wellknown_oauth_authorization_server::jwks`), which this probe runs unchanged.

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    "private_key_material",
    "missing_keys",
    "invalid_keys",
    "invalid_jwk",
    "unknown_kty",
    "invalid_x5c",
    "duplicate_member",
    "invalid_content_type",
    "invalid_charset",
    "bom",
    "not_utf8",
    "invalid_utf8",
    "html_document",
    "invalid_json",
    "not_json_object",
    "too_large",
];
