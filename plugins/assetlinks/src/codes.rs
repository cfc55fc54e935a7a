//! Diagnostic codes of the assetlinks probe (design.md, "assetlinks"; `docs/plugins/assetlinks.md`).
//!
//! Shared codes (`invalid_content_type`, `invalid_charset`, `bom`, `invalid_json`, `too_large`,
//! `redirected`, `insecure_transport`, `not_json_array`, `not_json_object`) come from
//! [`wellknown_core::diag::codes`]. All codes here are errors.

/// The statement list is an empty array ("Empty statement list encountered", comptest2002).
pub const NO_STATEMENTS: &str = "no_statements";
/// A statement has no `relation` array, or an empty one (comptest2012, comptest2106).
pub const MISSING_RELATION: &str = "missing_relation";
/// `relation` is not an array of `kind/detail` strings with kind `[a-z0-9_]+` and detail
/// `[a-z0-9_.]+` (details.md "Relation"; comptest2107-2124).
pub const INVALID_RELATION: &str = "invalid_relation";
/// A statement has no `target` object (comptest2011, comptest2013).
pub const MISSING_TARGET: &str = "missing_target";
/// The target's `namespace` is missing or neither `android_app` nor `web` (comptest2014).
pub const UNKNOWN_NAMESPACE: &str = "unknown_namespace";
/// An `android_app` target has no `package_name` (comptest2303).
pub const MISSING_PACKAGE_NAME: &str = "missing_package_name";
/// `package_name` is not a Java/Android package name (comptest2307, comptest2308).
pub const INVALID_PACKAGE_NAME: &str = "invalid_package_name";
/// `sha256_cert_fingerprints` is missing, not a non-empty array, or holds a value that is not 32
/// colon-separated upper-case hex bytes (comptest2304-2306, comptest2309-2314).
pub const INVALID_FINGERPRINT: &str = "invalid_fingerprint";
/// A `web` target's `site` is missing or not `http[s]://host[:port]` without path, query, fragment,
/// userinfo or default port (comptest2206-2216; the WebAsset reference).
pub const INVALID_WEB_SITE: &str = "invalid_web_site";
/// An `include` statement also carries `relation` or `target` (comptest2004; other, non-standard
/// members are allowed for extensibility, comptest2005).
pub const INCLUDE_WITH_OTHER_FIELDS: &str = "include_with_other_fields";
/// An `include` of a secure (https) statement list points to an http URL, which verifiers refuse
/// ("Insecure URL in fetch stack of secure asset", comptest5006).
pub const INSECURE_INCLUDE: &str = "insecure_include";
/// An `include` value that is not a string holding an absolute http(s) URL.
pub const INVALID_INCLUDE: &str = "invalid_include";

/// Every code this probe can emit, shared ones included, for documentation tests.
pub const ALL: &[&str] = &[
    NO_STATEMENTS,
    MISSING_RELATION,
    INVALID_RELATION,
    MISSING_TARGET,
    UNKNOWN_NAMESPACE,
    MISSING_PACKAGE_NAME,
    INVALID_PACKAGE_NAME,
    INVALID_FINGERPRINT,
    INVALID_WEB_SITE,
    INCLUDE_WITH_OTHER_FIELDS,
    INSECURE_INCLUDE,
    INVALID_INCLUDE,
    "invalid_content_type",
    "invalid_charset",
    "invalid_utf8",
    "not_utf8",
    "duplicate_member",
    "bom",
    "invalid_json",
    "too_large",
    "redirected",
    "insecure_transport",
    "not_json_array",
    "not_json_object",
];
