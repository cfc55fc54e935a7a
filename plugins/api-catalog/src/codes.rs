//! Diagnostic codes of the `api-catalog` probe (`docs/plugins/api-catalog.md`). RFC 9727 (the
//! api-catalog well-known URI) and RFC 9264 (Linkset, the JSON format it requires).
//!
//! Shared codes (`too_large`, `invalid_utf8`, `not_utf8`, `bom`, `invalid_json`, `html_document`,
//! `duplicate_member`, `not_json_object`, `invalid_content_type`, `invalid_charset`) come from
//! [`wellknown_core::diag::codes`].

/// No `linkset` member (error: RFC 9264 section 4.2.1; RFC 9727 section 4 requires the Linkset
/// format).
pub const MISSING_LINKSET: &str = "missing_linkset";
/// A top-level member other than `linkset` (error, RFC 9264 section 4.2.1: the object has the one
/// member `linkset`).
pub const UNKNOWN_MEMBER: &str = "unknown_member";
/// `linkset` is not an array of link context objects, or a relation's value is not an array of
/// target objects (error, RFC 9264 sections 4.2.1-4.2.3).
pub const INVALID_LINKSET: &str = "invalid_linkset";
/// `anchor` is not a string holding a URI reference (error, RFC 9264 section 4.2.2).
pub const INVALID_ANCHOR: &str = "invalid_anchor";
/// A target object without an `href` string (error, RFC 9264 section 4.2.3).
pub const MISSING_HREF: &str = "missing_href";
/// An `href` that is not a URI reference resolving to an absolute URL (error, RFC 9264 section
/// 4.2.3).
pub const INVALID_HREF: &str = "invalid_href";
/// A target attribute of the wrong type: `type`, `title`, `media` not a string, `hreflang` not an
/// array of strings, an extension attribute (`rel` in a target object, say) not an array (warning,
/// RFC 9264 section 4.2.4).
pub const INVALID_TARGET_ATTRIBUTE: &str = "invalid_target_attribute";
/// No `item` link anywhere: RFC 9727 section 4.1 identifies each API of the catalog with `item`
/// (warning).
pub const NO_ITEM_LINKS: &str = "no_item_links";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_LINKSET,
    UNKNOWN_MEMBER,
    INVALID_LINKSET,
    INVALID_ANCHOR,
    MISSING_HREF,
    INVALID_HREF,
    INVALID_TARGET_ATTRIBUTE,
    NO_ITEM_LINKS,
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
