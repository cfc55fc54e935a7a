//! Diagnostic codes of the `matrix-server` and `matrix-client` probes (`docs/plugins/matrix.md`).
//! Sections are those of the Matrix specification v1.x: server-server API "Server discovery"
//! (`/.well-known/matrix/server`), client-server API "Server discovery" (`/.well-known/matrix/client`)
//! and appendix "Server names".
//!
//! Shared codes (`too_large`, `invalid_utf8`, `not_utf8`, `bom`, `invalid_json`, `html_document`,
//! `duplicate_member`, `not_json_object`, `invalid_content_type`, `invalid_charset`) come from
//! [`wellknown_core::diag::codes`].

/// No `m.server` string (error, server-server API 2.1 step 3: `m.server` is required; a server
/// falls back to SRV records).
pub const MISSING_SERVER: &str = "missing_server";
/// `m.server` is not `hostname[:port]` (error, appendix "Server names": no scheme, no path, a port
/// of 1 to 5 digits up to 65535).
pub const INVALID_SERVER_NAME: &str = "invalid_server_name";
/// No `m.homeserver` object (error, client-server API "Well-known URIs": required; clients
/// `FAIL_PROMPT`).
pub const MISSING_HOMESERVER: &str = "missing_homeserver";
/// An `m.homeserver` or `m.identity_server` object without a `base_url` string (error; clients
/// `FAIL_PROMPT` or `FAIL_ERROR`).
pub const MISSING_BASE_URL: &str = "missing_base_url";
/// A `base_url` that is not an absolute http(s) URL (error; clients `FAIL_ERROR`).
pub const INVALID_BASE_URL: &str = "invalid_base_url";
/// A `base_url` over plain http (warning: the client-server API is to be reached over TLS).
pub const INSECURE_BASE_URL: &str = "insecure_base_url";
/// The client document carries `m.server`, the server-server delegation key, which belongs in
/// `/.well-known/matrix/server` (warning: servers never read it here).
pub const MISPLACED_SERVER_DELEGATION: &str = "misplaced_server_delegation";

/// Every code the two probes can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_SERVER,
    INVALID_SERVER_NAME,
    MISSING_HOMESERVER,
    MISSING_BASE_URL,
    INVALID_BASE_URL,
    INSECURE_BASE_URL,
    MISPLACED_SERVER_DELEGATION,
    "too_large",
    "invalid_utf8",
    "not_utf8",
    "bom",
    "invalid_json",
    "html_document",
    "duplicate_member",
    "not_json_object",
    "invalid_content_type",
    "invalid_charset",
];
