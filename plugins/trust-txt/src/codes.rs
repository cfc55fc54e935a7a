//! Diagnostic codes of the `trust.txt` probe (`docs/plugins/trust-txt.md`).
//!
//! Shared codes (`too_large`, `invalid_utf8`, `invalid_content_type`, `html_document`,
//! `legacy_location`) come from [`wellknown_core::diag::codes`].

/// A line that is neither blank, a comment, nor `variable=value` (JournalList trust.txt reference
/// document, "File format": one record per line). Warning.
pub const UNRECOGNISED_LINE: &str = "unrecognised_line";
/// A variable the specification does not define (it defines `belongto`, `member`, `control`,
/// `controlledby`, `social`, `contact`, `vendor`, `customer`, `disclosure`, `datatrainingallowed`).
/// Warning; the value is not read.
pub const UNKNOWN_VARIABLE: &str = "unknown_variable";
/// A record with an empty value. Warning.
pub const EMPTY_VALUE: &str = "empty_value";
/// A value that must be a URL (every variable but `contact` and `datatrainingallowed`) has no
/// scheme (`c2pa.org`, `github.com/org/*`). Warning; its host is still recorded, flagged `invalid`.
pub const MISSING_SCHEME: &str = "missing_scheme";
/// A value that must be a URL is not one, even with `https://` put in front. Error.
pub const INVALID_URL: &str = "invalid_url";
/// `datatrainingallowed` is neither `yes` nor `no`. Warning.
pub const INVALID_DATATRAINING: &str = "invalid_datatraining";
/// `datatrainingallowed` appears more than once with different values (the reference document allows
/// one). Warning; the first is the fact.
pub const CONFLICTING_DATATRAINING: &str = "conflicting_datatraining";
/// The same record (variable and value) appears again. Warning.
pub const DUPLICATE_RECORD: &str = "duplicate_record";
/// The file has lines but not one record: not trust.txt syntax. Error.
pub const NO_RECORDS: &str = "no_records";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    UNRECOGNISED_LINE,
    UNKNOWN_VARIABLE,
    EMPTY_VALUE,
    MISSING_SCHEME,
    INVALID_URL,
    INVALID_DATATRAINING,
    CONFLICTING_DATATRAINING,
    DUPLICATE_RECORD,
    NO_RECORDS,
    "too_large",
    "invalid_utf8",
    "invalid_content_type",
    "html_document",
    "legacy_location",
];
