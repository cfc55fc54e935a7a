//! Diagnostic codes of the `mta-sts.txt` probe (`docs/plugins/mta-sts-txt.md`). Sections are those of
//! RFC 8461.
//!
//! Shared codes (`too_large`, `invalid_utf8`, `invalid_content_type`, `insecure_transport`,
//! `redirected`, `html_document`) come from [`wellknown_core::diag::codes`].

/// No `version` field (error, section 3.2: the field is required).
pub const MISSING_VERSION: &str = "missing_version";
/// `version` is not `STSv1`, the only version defined (error, section 3.2).
pub const INVALID_VERSION: &str = "invalid_version";
/// The first field is not `version` (warning: section 3.2's example and the TXT record of section
/// 3.1 lead with the version; a reader that checks the first line refuses the policy).
pub const VERSION_NOT_FIRST: &str = "version_not_first";
/// No `mode` field (error, section 3.2).
pub const MISSING_MODE: &str = "missing_mode";
/// `mode` is not `enforce`, `testing` or `none` (error, section 3.2; values are case-sensitive).
pub const INVALID_MODE: &str = "invalid_mode";
/// No `max_age` field (error, section 3.2).
pub const MISSING_MAX_AGE: &str = "missing_max_age";
/// `max_age` is not 1 to 10 digits, or is over 31557600 seconds (one year) (error, section 3.2).
pub const INVALID_MAX_AGE: &str = "invalid_max_age";
/// `max_age` is under one day (warning, section 3.2: "it is expected that this value typically be in
/// the range of weeks or greater", to resist attacks at policy refresh time).
pub const SHORT_MAX_AGE: &str = "short_max_age";
/// No `mx` field while `mode` is `enforce` or `testing` (error; a warning with `mode: none`),
/// section 3.2: one or more patterns of allowed MX hosts.
pub const MISSING_MX: &str = "missing_mx";
/// An `mx` value that is not `["*."] Domain` (error, section 3.2 ABNF; RFC 5321 `Domain`, so no
/// trailing dot, no IP literal, no wildcard other than a whole leftmost label).
pub const INVALID_MX: &str = "invalid_mx";
/// `version`, `mode` or `max_age` given more than once (warning: the ABNF allows repeats only for
/// `mx`; readers differ on which one they keep, this probe keeps the first).
pub const DUPLICATE_FIELD: &str = "duplicate_field";
/// A line that is not `name: value` (warning, section 3.2 ABNF `sts-policy-field`; the line is
/// ignored).
pub const INVALID_LINE: &str = "invalid_line";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_VERSION,
    INVALID_VERSION,
    VERSION_NOT_FIRST,
    MISSING_MODE,
    INVALID_MODE,
    MISSING_MAX_AGE,
    INVALID_MAX_AGE,
    SHORT_MAX_AGE,
    MISSING_MX,
    INVALID_MX,
    DUPLICATE_FIELD,
    INVALID_LINE,
    "too_large",
    "invalid_utf8",
    "invalid_content_type",
    "insecure_transport",
    "redirected",
    "html_document",
];
