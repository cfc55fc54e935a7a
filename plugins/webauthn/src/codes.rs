//! Diagnostic codes of the `webauthn` probe (`docs/plugins/webauthn.md`). Sections are those of Web
//! Authentication Level 3 (W3C), section 5.11 "Using Web Authentication across related origins"
//! and its validation procedure (5.11.1).
//!
//! Shared codes (`too_large`, `invalid_utf8`, `not_utf8`, `bom`, `invalid_json`, `html_document`,
//! `duplicate_member`, `not_json_object`, `invalid_content_type`, `invalid_charset`,
//! `insecure_transport`, `redirected`) come from [`wellknown_core::diag::codes`].

/// No `origins` member (error: clients find no related origin; 5.11.1 step 2).
pub const MISSING_ORIGINS: &str = "missing_origins";
/// `origins` is not an array of strings (error: clients refuse the whole document; 5.11.1 step 2).
pub const INVALID_ORIGINS: &str = "invalid_origins";
/// An entry clients skip: not a URL, no host, or a host without a registrable domain label
/// (`app://local`, `http://localhost:8093`) (warning; 5.11.1 steps 5.1-5.4).
pub const INVALID_ORIGIN: &str = "invalid_origin";
/// An entry that is not an `https` origin: WebAuthn runs in secure contexts only, so such an
/// origin can never be a caller (warning; section 5.11, "origins" of a relying party).
pub const INSECURE_ORIGIN: &str = "insecure_origin";
/// An entry whose registrable-domain label is not among the first five distinct labels: a client
/// with the minimum limit of five labels skips it (warning; 5.11.1 step 5.5, "maxLabels").
pub const BEYOND_LABEL_LIMIT: &str = "beyond_label_limit";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_ORIGINS,
    INVALID_ORIGINS,
    INVALID_ORIGIN,
    INSECURE_ORIGIN,
    BEYOND_LABEL_LIMIT,
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
    "insecure_transport",
    "redirected",
];
