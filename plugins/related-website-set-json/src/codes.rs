//! Diagnostic codes of the `related-website-set.json` probe (`docs/plugins/related-website-set-json.md`).
//! The rules are those of Chrome's Related Website Sets: the submission guidelines and the checks of
//! the canonical list (`GoogleChrome/related-website-sets`, `RWS-Submission_Guidelines.md`), and the
//! WICG explainer (`WICG/first-party-sets`).
//!
//! Shared codes (`too_large`, `invalid_utf8`, `not_utf8`, `bom`, `invalid_json`, `html_document`,
//! `duplicate_member`, `not_json_object`, `invalid_content_type`, `invalid_charset`) come from
//! [`wellknown_core::diag::codes`].

/// No `primary` string (error: every well-known file names the set's primary).
pub const MISSING_PRIMARY: &str = "missing_primary";
/// A site that is not an https schemeful site: `https://` and a registrable domain (eTLD+1), no
/// subdomain, port, path, query or fragment (error; the list's checks refuse it).
pub const INVALID_SITE: &str = "invalid_site";
/// A subset (`associatedSites`, `serviceSites`) that is not an array of strings, or `ccTLDs` /
/// `rationaleBySite` that is not an object of the right shape (error).
pub const INVALID_SUBSET: &str = "invalid_subset";
/// A site listed twice: as the primary and a member, in two subsets, or twice in one (error: a
/// site belongs to one subset of one set).
pub const DUPLICATE_SITE: &str = "duplicate_site";
/// More than five associated sites (error: the guidelines limit the associated subset to five).
pub const TOO_MANY_ASSOCIATED_SITES: &str = "too_many_associated_sites";
/// An associated or service site without its entry in `rationaleBySite` (warning: the guidelines
/// require a rationale for each).
pub const MISSING_RATIONALE: &str = "missing_rationale";
/// The full set (with subsets) served by a site other than its primary (error: members serve
/// `{"primary": ...}` only; the primary serves the set).
pub const NOT_SERVED_BY_PRIMARY: &str = "not_served_by_primary";
/// A member name the format does not define (warning; a case-insensitive match of a defined name,
/// such as `ccTLDS`, is read for candidates, flagged `invalid`, since Chrome ignores it).
pub const UNKNOWN_MEMBER: &str = "unknown_member";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_PRIMARY,
    INVALID_SITE,
    INVALID_SUBSET,
    DUPLICATE_SITE,
    TOO_MANY_ASSOCIATED_SITES,
    MISSING_RATIONALE,
    NOT_SERVED_BY_PRIMARY,
    UNKNOWN_MEMBER,
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
