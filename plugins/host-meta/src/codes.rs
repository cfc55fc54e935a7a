//! Diagnostic codes of the `host-meta` and `host-meta.json` probes (`docs/plugins/host-meta.md`,
//! `docs/plugins/host-meta-json.md`).
//!
//! Shared codes (`too_large`, `invalid_content_type`, `invalid_utf8`, `bom`) come from
//! [`wellknown_core::diag::codes`].

/// The body is not well-formed XML (RFC 6415 section 2: the document is an XRD 1.0 document). Error;
/// the links read before the fault are kept.
pub const MALFORMED_XML: &str = "malformed_xml";
/// The root element is not `XRD` (RFC 6415 section 2; XRD 1.0 section 2). Error.
pub const NOT_XRD: &str = "not_xrd";
/// The root `XRD` element is not in the XRD 1.0 namespace `http://docs.oasis-open.org/ns/xri/xrd-1.0`
/// (XRD 1.0 section 2). Warning.
pub const XRD_NAMESPACE: &str = "xrd_namespace";
/// The body carries a document type declaration; it is not read and no entity is expanded. Warning.
pub const DOCTYPE_IGNORED: &str = "doctype_ignored";
/// A `Link` has both `href` and `template` (RFC 6415 section 3.1.1: the `template` attribute MUST NOT
/// be used together with `href`). Error; both are still recorded.
pub const HREF_AND_TEMPLATE: &str = "href_and_template";
/// A `Link` has neither `href` nor `template`: it declares nothing to follow (RFC 6415 section 3.1.1,
/// XRD 1.0 section 2.4). Warning.
pub const LINK_WITHOUT_TARGET: &str = "link_without_target";
/// A `Link` has no `rel` (RFC 6415 appendix A for JRD; XRD 1.0 section 2.4.1 makes it the link's
/// meaning). Warning.
pub const MISSING_REL: &str = "missing_rel";
/// An `href` that is not a URI reference resolvable against the document (RFC 6415 section 3.1.1;
/// RFC 3986 section 4.1). Error; the value is kept flagged `invalid` when it can be read.
pub const INVALID_HREF: &str = "invalid_href";
/// A `template` whose variables are not only `{uri}`, the one variable RFC 6415 section 3.1.1.1
/// defines (other variables are application-defined). Warning.
pub const TEMPLATE_VARIABLE: &str = "template_variable";
/// A `template` without any `{...}` variable (RFC 6415 section 3.1.1.1). Warning.
pub const TEMPLATE_WITHOUT_VARIABLE: &str = "template_without_variable";
/// The document declares no `Link` (RFC 6415 section 3: links are what a host-meta document is for).
/// Warning.
pub const NO_LINKS: &str = "no_links";
/// A JRD (`host-meta.json`) member has the wrong JSON type (RFC 6415 appendix A: `links` an array of
/// objects, `rel`/`href`/`template`/`type`/`subject` strings, `aliases` an array of strings). Error.
pub const INVALID_MEMBER: &str = "invalid_member";

/// Every code the `host-meta` (XRD) probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MALFORMED_XML,
    NOT_XRD,
    XRD_NAMESPACE,
    DOCTYPE_IGNORED,
    HREF_AND_TEMPLATE,
    LINK_WITHOUT_TARGET,
    MISSING_REL,
    INVALID_HREF,
    TEMPLATE_VARIABLE,
    TEMPLATE_WITHOUT_VARIABLE,
    NO_LINKS,
    "too_large",
    "invalid_content_type",
    "invalid_utf8",
    "bom",
];

/// Every code the `host-meta.json` (JRD) probe can emit, shared ones included, for the documentation
/// test.
pub const JRD_ALL: &[&str] = &[
    INVALID_MEMBER,
    HREF_AND_TEMPLATE,
    LINK_WITHOUT_TARGET,
    MISSING_REL,
    INVALID_HREF,
    TEMPLATE_VARIABLE,
    TEMPLATE_WITHOUT_VARIABLE,
    NO_LINKS,
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
