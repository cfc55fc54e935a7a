//! Diagnostic codes of the `oauth-protected-resource` probe (`docs/plugins/oauth-protected-resource.md`).
//!
//! Shared codes (`invalid_content_type`, `invalid_charset`, `invalid_json`, `bom`, `not_utf8`,
//! `invalid_utf8`, `html_document`, `duplicate_member`, `not_json_object`, `too_large`) come from
//! [`wellknown_core::diag::codes`]; `issuer_not_https`, `issuer_has_query_or_fragment`,
//! `insecure_endpoint`, `none_alg_not_allowed` and `wrong_well_known_location` are the issuer-metadata
//! codes of `wellknown-oauth-metadata`, with the same meaning here.

/// `resource` differs from the resource identifier the metadata URL was built from (error; RFC 9728
/// section 3.3: "MUST be identical", the metadata "MUST NOT be used").
pub const RESOURCE_MISMATCH: &str = "resource_mismatch";
/// `resource` does not use the https scheme (error; RFC 9728 section 1.2, "Resource Identifier").
pub const RESOURCE_NOT_HTTPS: &str = "resource_not_https";
/// `resource` has a fragment component (error; RFC 9728 section 1.2).
pub const RESOURCE_HAS_FRAGMENT: &str = "resource_has_fragment";
/// `resource` has a query component (warning; RFC 9728 section 1.2 and RFC 8707 section 2: SHOULD NOT).
pub const RESOURCE_HAS_QUERY: &str = "resource_has_query";
/// A `bearer_methods_supported` value other than `header`, `body`, `query` (warning; RFC 9728 section 2).
pub const UNKNOWN_BEARER_METHOD: &str = "unknown_bearer_method";

/// Every code this probe can emit, shared ones included, for the documentation test. Codes built from
/// member names are listed as they occur: `missing_resource`, `missing_scopes_supported`,
/// `missing_resource_name` and `invalid_<member>` for each member of [`crate::parse::MEMBERS`].
pub const ALL: &[&str] = &[
    RESOURCE_MISMATCH,
    RESOURCE_NOT_HTTPS,
    RESOURCE_HAS_FRAGMENT,
    RESOURCE_HAS_QUERY,
    UNKNOWN_BEARER_METHOD,
    "missing_resource",
    "missing_scopes_supported",
    "missing_resource_name",
    "invalid_<member>",
    "issuer_not_https",
    "issuer_has_query_or_fragment",
    "insecure_endpoint",
    "none_alg_not_allowed",
    "wrong_well_known_location",
    "invalid_content_type",
    "invalid_charset",
    "invalid_json",
    "bom",
    "not_utf8",
    "invalid_utf8",
    "html_document",
    "duplicate_member",
    "not_json_object",
    "too_large",
];
