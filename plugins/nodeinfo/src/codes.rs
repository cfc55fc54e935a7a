//! Diagnostic codes of the `nodeinfo` and `nodeinfo-document` probes (`docs/plugins/nodeinfo.md`).
//!
//! Shared codes (`too_large`, `invalid_content_type`, `invalid_json`, ...) come from
//! [`wellknown_core::diag::codes`].

/// The discovery document's `links` is missing or not an array of link objects (NodeInfo protocol,
/// "Discovery": a JRD with a `links` array). Error; a single link object is still read (Lemmy).
pub const INVALID_LINKS: &str = "invalid_links";
/// A link whose `rel` is not a NodeInfo schema URI `http://nodeinfo.diaspora.software/ns/schema/<version>`
/// (NodeInfo protocol, "Discovery"). Warning; its `href` is still recorded.
pub const UNKNOWN_SCHEMA: &str = "unknown_schema";
/// A link without an `href` string (NodeInfo protocol, "Discovery"). Error.
pub const MISSING_HREF: &str = "missing_href";
/// An `href` that is not an absolute http(s) URL (NodeInfo protocol, "Discovery": the link points to
/// the NodeInfo document). Error; kept flagged `invalid` when it parses.
pub const INVALID_HREF: &str = "invalid_href";
/// No link names a NodeInfo schema, so no NodeInfo document can be found (NodeInfo protocol,
/// "Discovery"). Error.
pub const NO_SCHEMA_LINK: &str = "no_schema_link";
/// A member the NodeInfo schema requires is missing (schema 1.0-2.2 `required`: `version`, `software`
/// with `name` and `version`, `protocols`, `services`, `openRegistrations`, `usage` with `users`,
/// `metadata`). Error.
pub const MISSING_MEMBER: &str = "missing_member";
/// A member has the wrong JSON type for the schema (`metadata` an array, `openRegistrations` a
/// string, ...). Error.
pub const INVALID_MEMBER: &str = "invalid_member";
/// `software.name` does not match the schema's pattern `^[a-z0-9-]+$` (schema 2.0-2.2). Error.
pub const INVALID_SOFTWARE_NAME: &str = "invalid_software_name";
/// A protocol outside the schema's list (`activitypub`, `buddycloud`, `dfrn`, `diaspora`, `libertree`,
/// `ostatus`, `pumpio`, `tent`, `xmpp`, `zot`). Warning.
pub const UNKNOWN_PROTOCOL: &str = "unknown_protocol";
/// The document's `version` is not a NodeInfo schema version (1.0, 1.1, 2.0, 2.1, 2.2). Warning.
pub const UNKNOWN_VERSION: &str = "unknown_version";

/// Every code the two probes can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    INVALID_LINKS,
    UNKNOWN_SCHEMA,
    MISSING_HREF,
    INVALID_HREF,
    NO_SCHEMA_LINK,
    MISSING_MEMBER,
    INVALID_MEMBER,
    INVALID_SOFTWARE_NAME,
    UNKNOWN_PROTOCOL,
    UNKNOWN_VERSION,
    "too_large",
    "invalid_content_type",
    "invalid_charset",
    "invalid_utf8",
    "not_utf8",
    "bom",
    "invalid_json",
    "html_document",
    "duplicate_member",
    "not_json_object",
];
