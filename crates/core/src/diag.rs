//! Diagnostics: stable codes with a message and a locator.
//!
//! Codes are `snake_case` strings that never change once published (see `docs/diagnostics.md`);
//! the message is for people and may change. A [`Locator`] says where in the document the finding is:
//! a line (text formats), a JSON pointer (RFC 6901) or an XML element path.

use serde::{Deserialize, Serialize};

/// Whether a diagnostic makes the document invalid (`Error`) or is advisory (`Warning`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The document breaks its specification; `valid` is false.
    Error,
    /// Advisory: the document is usable but deviates from good practice or a recommendation.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where in a document a diagnostic or candidate comes from.
///
/// Serialised externally tagged: `{"line": 3}`, `{"json_pointer": "/issuer"}`,
/// `{"xml": "/urlset/url[2]/loc"}`, `{"byte": 1024}`, `{"redirect": 0}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Locator {
    /// 1-based line number in a text document.
    Line(u32),
    /// RFC 6901 JSON pointer into a JSON document (`""` is the whole document).
    JsonPointer(String),
    /// Element path in an XML document, 1-based indices (`/urlset/url[2]/loc`).
    Xml(String),
    /// 0-based byte offset, where nothing better is known.
    Byte(u64),
    /// The `Location` header of a redirect the document's fetch received: the 0-based index of that
    /// hop in the document's redirect chain (RFC 9110 section 10.2.2). Used for a redirect target the
    /// scan recorded but did not follow (outside the scope).
    Redirect(u32),
}

impl std::fmt::Display for Locator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Locator::Line(n) => write!(f, "line {n}"),
            Locator::JsonPointer(p) => write!(f, "json pointer {p:?}"),
            Locator::Xml(p) => write!(f, "xml {p}"),
            Locator::Byte(b) => write!(f, "byte {b}"),
            Locator::Redirect(hop) => write!(f, "Location header of redirect hop {hop}"),
        }
    }
}

/// One finding about a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable code, e.g. `invalid_content_type`.
    pub code: String,
    /// Human-readable explanation.
    pub message: String,
    /// Where the finding is, when it has a place.
    pub locator: Option<Locator>,
    /// Error or warning (not serialised in reports, which list errors and warnings separately).
    #[serde(skip_serializing, default = "default_severity")]
    pub severity: Severity,
}

fn default_severity() -> Severity {
    Severity::Error
}

impl Diagnostic {
    /// An error diagnostic.
    pub fn error(code: impl Into<String>, message: impl Into<String>, locator: Option<Locator>) -> Self {
        Diagnostic { code: code.into(), message: message.into(), locator, severity: Severity::Error }
    }

    /// A warning diagnostic.
    pub fn warning(code: impl Into<String>, message: impl Into<String>, locator: Option<Locator>) -> Self {
        Diagnostic { code: code.into(), message: message.into(), locator, severity: Severity::Warning }
    }
}

/// Shared diagnostic codes (design.md, "Shared"). Plugins define their own next to their parser.
pub mod codes {
    /// The media type is not the one the document's specification requires.
    pub const INVALID_CONTENT_TYPE: &str = "invalid_content_type";
    /// A charset parameter other than the required one (utf-8).
    pub const INVALID_CHARSET: &str = "invalid_charset";
    /// The body is not valid UTF-8.
    pub const INVALID_UTF8: &str = "invalid_utf8";
    /// The body starts with a byte-order mark.
    pub const BOM: &str = "bom";
    /// The body is UTF-16 or UTF-32, not UTF-8 (the encoding is named; the text is decoded and read).
    pub const NOT_UTF8: &str = "not_utf8";
    /// A member name occurs more than once in one JSON object (RFC 8259 section 4); every occurrence
    /// is examined in an alternate reading (beyond the reading caps, the occurrences left out are
    /// counted); a warning, an error for a JWK Set (RFC 7517).
    pub const DUPLICATE_MEMBER: &str = "duplicate_member";
    /// The body is not well-formed JSON (RFC 8259).
    pub const INVALID_JSON: &str = "invalid_json";
    /// The body exceeds the size the specification or the scanner allows.
    pub const TOO_LARGE: &str = "too_large";
    /// The document was served through one or more redirects where the specification forbids them.
    pub const REDIRECTED: &str = "redirected";
    /// The document was fetched over plain http where https is required.
    pub const INSECURE_TRANSPORT: &str = "insecure_transport";
    /// Found only at a legacy location (warning).
    pub const LEGACY_LOCATION: &str = "legacy_location";
    /// The JSON top level is not an object.
    pub const NOT_JSON_OBJECT: &str = "not_json_object";
    /// The JSON top level is not an array.
    pub const NOT_JSON_ARRAY: &str = "not_json_array";
    /// An HTML page was served where a data document was expected (soft 404, login page, SPA shell).
    pub const HTML_DOCUMENT: &str = "html_document";
    /// The HTTP status was not 2xx, so the body was not interpreted.
    pub const HTTP_STATUS: &str = "http_status";
    /// The fetch failed (DNS, connect, TLS, timeout, ...); the failure class is in the message.
    pub const FETCH_FAILED: &str = "fetch_failed";
    /// The document answered like a random path of its origin (the engine's catch-all calibration):
    /// a soft 404 or catch-all route, not the well-known document.
    pub const CATCH_ALL: &str = "catch_all";
}
