//! Diagnostic codes of the `host-meta.json` probe (`docs/plugins/host-meta-json.md`).
//!
//! Shared codes (`too_large`, `invalid_utf8`) come from [`wellknown_core::diag::codes`].

/// The document has no entry (error).
pub const EMPTY_DOCUMENT: &str = "empty_document";
/// A line that is not an absolute http(s) URL (warning).
pub const UNRECOGNISED_LINE: &str = "unrecognised_line";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[EMPTY_DOCUMENT, UNRECOGNISED_LINE, "too_large", "invalid_utf8"];
