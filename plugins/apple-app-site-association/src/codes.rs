//! Diagnostic codes of the apple-app-site-association probe (design.md;
//! `docs/plugins/apple-app-site-association.md`).
//!
//! Shared codes (`invalid_content_type`, `invalid_charset`, `invalid_utf8`, `bom`, `invalid_json`,
//! `too_large`, `redirected`, `insecure_transport`, `legacy_location`, `not_json_object`) come from
//! [`wellknown_core::diag::codes`].

/// Error: `applinks.details` is missing or not an array (the iOS 9 dictionary form keyed by App ID is
/// still read, leniently).
pub const DETAILS_NOT_ARRAY: &str = "details_not_array";
/// Error: an App ID (`appID`, an `appIDs` item, a service's `apps` item) is not
/// `<10-character Team ID>.<bundle ID>`, or a service's `apps` is not an array.
pub const INVALID_APP_ID: &str = "invalid_app_id";
/// Error: `appIDs` is not an array of strings, or a details entry names no app at all.
pub const INVALID_APP_IDS: &str = "invalid_appIDs";
/// Error: old-format `paths` is not an array of strings.
pub const INVALID_PATHS: &str = "invalid_paths";
/// Error: `components` is not an array, or a component is not an object with string `/`, `#`,
/// `comment`, string-or-object `?` and boolean `exclude`.
pub const INVALID_COMPONENT: &str = "invalid_component";
/// Warning: only the pre-iOS 13 format (`appID` + `paths`) is used.
pub const LEGACY_APPLINKS_FORMAT: &str = "legacy_applinks_format";
/// Warning: both formats are used (`appID`/`paths` and `appIDs`/`components`), in one entry or
/// across entries.
pub const MIXED_APPLINKS_FORMATS: &str = "mixed_applinks_formats";
/// Warning: a path pattern has a dot segment (`.` or `..`, also percent-encoded as `%2e`): a URL's
/// path is normalised before it is matched (RFC 3986 section 5.2.4), so the pattern matches no URL
/// as written; its `path` candidate is flagged `dot_segment` and no `url` candidate is derived.
pub const DOT_SEGMENT_PATH: &str = "dot_segment_path";
/// Warning: the document declares none of the services `applinks`, `webcredentials`, `appclips` and
/// `activitycontinuation` (e.g. `{}`), so it associates nothing.
pub const NO_SERVICES: &str = "no_services";

/// Every code this probe can emit, shared ones included, for documentation tests.
pub const ALL: &[&str] = &[
    DETAILS_NOT_ARRAY,
    INVALID_APP_ID,
    INVALID_APP_IDS,
    INVALID_PATHS,
    INVALID_COMPONENT,
    LEGACY_APPLINKS_FORMAT,
    MIXED_APPLINKS_FORMATS,
    DOT_SEGMENT_PATH,
    NO_SERVICES,
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
    "legacy_location",
    "not_json_object",
];
