//! Diagnostic codes of the `change-password` probe (`docs/plugins/change-password.md`).
//!
//! The shared code `insecure_transport` comes from [`wellknown_core::diag::codes`].

/// 2xx at the change password URL itself, with neither an HTTP redirect nor a meta refresh: clients
/// must accept it, but "servers must not locate the actual change password page at the change
/// password url" (spec section 2; RFC 8615 section 1) (warning).
pub const SERVED_AT_WELL_KNOWN: &str = "served_at_well_known";
/// The document was requested elsewhere than `/.well-known/change-password` of its origin (a
/// `wellknown parse --url` at another path): read, but it declares no change password URL (warning).
pub const WRONG_LOCATION: &str = "wrong_location";
/// A `<meta http-equiv="refresh">` whose content names no usable URL (warning).
pub const INVALID_REFRESH: &str = "invalid_refresh";
/// The page the change password URL redirects to answered 404 or 410 (warning).
pub const TARGET_NOT_FOUND: &str = "target_not_found";
/// The change password page is on plain http although the origin is https (warning).
pub const INSECURE_TARGET: &str = "insecure_target";
/// The origin answered 2xx for the resource that should not exist, so its 2xx answers, including the
/// change password URL's, prove nothing ("Detecting the reliability of HTTP status codes") (warning).
pub const UNRELIABLE_STATUS_CODES: &str = "unreliable_status_codes";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    SERVED_AT_WELL_KNOWN,
    WRONG_LOCATION,
    INVALID_REFRESH,
    TARGET_NOT_FOUND,
    INSECURE_TARGET,
    UNRELIABLE_STATUS_CODES,
    "insecure_transport",
];
