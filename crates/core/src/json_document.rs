//! The skeleton every JSON document probe shares: the media type and its charset, then the body
//! (BOM, UTF-16/32, HTML served instead, strict parse, repeated member names) and the top-level
//! type, each with the shared diagnostic codes (`wellknown_core::diag::codes`).
//!
//! A probe describes its document once in a `const` [`JsonRules`] (what media types it accepts, how
//! it words a wrong one, the top-level type, how strict it is about repeated names) and calls
//! [`media_type_diagnostics`] and [`read_document`], in the order its report lists its diagnostics
//! (a probe may put its own checks, `too_large` say, between the two). What it gets back is the
//! parsed top-level value, the diagnostics in document order, and the alternate readings of a body
//! that repeats member names ([`crate::json::Alternates`]), which the probe reads too.
//!
//! ```
//! use wellknown_core::json_document::{JsonRules, TopLevel, read_document};
//!
//! const RULES: JsonRules = JsonRules {
//!     top_level: TopLevel::Array,
//!     wrong_top_level: |found| format!("a statement list is a JSON array, found {found}"),
//!     ..JsonRules::JSON
//! };
//! let doc = read_document(b"\xEF\xBB\xBF{\"a\":1}", &RULES);
//! let codes: Vec<&str> = doc.diagnostics.iter().map(|d| d.code.as_str()).collect();
//! assert_eq!(codes, ["bom", "not_json_array"]);
//! assert!(doc.value.is_none());
//! ```

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, Severity, codes};
use crate::fetch::FetchMeta;
use crate::json::{Alternates, at, parse_json_body, type_name};
use crate::media::MediaType;
use crate::report::Report;

/// The JSON type a document's top level must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopLevel {
    /// A JSON object (`not_json_object` otherwise).
    Object,
    /// A JSON array (`not_json_array` otherwise).
    Array,
    /// Any JSON value.
    Any,
}

/// How a probe reads its JSON document: the media types it accepts and the wording of the
/// diagnostics that name them, how strict it is, and the top-level type.
#[derive(Debug, Clone, Copy)]
pub struct JsonRules {
    /// True for an acceptable media type; an accepted one is still checked for a charset other than
    /// utf-8 (`invalid_charset`, [`MediaType::json_charset_problem`], RFC 8259 section 8.1).
    pub accepts: fn(&MediaType) -> bool,
    /// True when a response without a `Content-Type` (absent or blank) is acceptable.
    pub absent_ok: bool,
    /// The message of `invalid_content_type`, from the header as received (None when absent) and
    /// its parse (None when it does not parse).
    pub wrong_media_type: fn(Option<&str>, Option<&MediaType>) -> String,
    /// A repeated member name is an error (a format that requires unique names: a JWK Set, RFC 7517
    /// sections 4 and 5); else a warning (RFC 8259 section 4 says SHOULD).
    pub duplicates_are_errors: bool,
    /// An HTML page served instead is reported `invalid_json` rather than `html_document` (for
    /// documents whose validators treat a soft 404 as malformed JSON).
    pub html_as_invalid_json: bool,
    /// The top-level type.
    pub top_level: TopLevel,
    /// The message of `not_json_object` / `not_json_array`, from the type found (a noun phrase:
    /// `an array`, `a string`, ... from [`type_name`]).
    pub wrong_top_level: fn(&str) -> String,
    /// Severity of `invalid_content_type`: `Warning` where the specification names a media type
    /// without requiring it of the server (readers parse the body anyway).
    pub wrong_media_type_severity: Severity,
    /// Severity of `invalid_charset` (an accepted type with a charset other than utf-8).
    pub charset_severity: Severity,
}

impl JsonRules {
    /// `application/json` (with any charset check), required; a JSON object; repeated names are
    /// warnings; HTML is `html_document`. A base to override with `..JsonRules::JSON`.
    pub const JSON: JsonRules = JsonRules {
        accepts: |m| m.essence == "application/json",
        absent_ok: false,
        wrong_media_type: |raw, parsed| match (raw, parsed) {
            (_, Some(m)) => format!("served as {}, not application/json", m.essence),
            (Some(raw), None) => format!("Content-Type {raw:?} is not a media type"),
            (None, None) => "served without a Content-Type".to_string(),
        },
        duplicates_are_errors: false,
        html_as_invalid_json: false,
        top_level: TopLevel::Object,
        wrong_top_level: |found| format!("the document must be a JSON object, found {found}"),
        wrong_media_type_severity: Severity::Error,
        charset_severity: Severity::Error,
    };
}

/// A JSON document read by [`read_document`].
#[derive(Debug, Clone, PartialEq)]
pub struct JsonDocument {
    /// The top-level value when the body parsed and has the required type; None otherwise (the
    /// probe's report is then `invalid`).
    pub value: Option<Value>,
    /// `bom`, `not_utf8`, `invalid_utf8`, `html_document` (or `invalid_json`), `invalid_json`,
    /// `duplicate_member`, `not_json_object` / `not_json_array`, in that order, as they apply.
    pub diagnostics: Vec<Diagnostic>,
    /// The other readings of a body that repeats member names (empty for the usual body; see
    /// [`crate::json::JsonBody::alternates`]).
    pub alternates: Alternates,
}

/// The diagnostic the media type of a JSON document gets under `rules`, if any:
/// `invalid_content_type` (a type not accepted, or absent unless [`JsonRules::absent_ok`]) or
/// `invalid_charset` (an accepted type with a charset other than utf-8), with the severity `rules`
/// gives each. Never panics.
pub fn media_type_diagnostics(content_type: Option<&str>, rules: &JsonRules) -> Option<Diagnostic> {
    let wrong_type = |message: String| Diagnostic {
        severity: rules.wrong_media_type_severity,
        ..Diagnostic::error(codes::INVALID_CONTENT_TYPE, message, None)
    };
    let raw = content_type.filter(|c| !(rules.absent_ok && c.trim().is_empty()));
    let Some(raw) = raw else {
        return (!rules.absent_ok).then(|| wrong_type((rules.wrong_media_type)(None, None)));
    };
    match MediaType::parse(raw) {
        Some(m) if (rules.accepts)(&m) => m.json_charset_problem().map(|msg| Diagnostic {
            severity: rules.charset_severity,
            ..Diagnostic::error(codes::INVALID_CHARSET, msg, None)
        }),
        parsed => Some(wrong_type((rules.wrong_media_type)(Some(raw), parsed.as_ref()))),
    }
}

/// The skeleton of a JSON-object document into `report`: [`media_type_diagnostics`] of `meta`'s
/// `Content-Type`, then [`read_document`] of `body`, their diagnostics pushed in that order.
/// Returns the top-level object and the alternate readings of a body that repeats member names;
/// None, with the report's kind set to `invalid`, when there is no object to read (`rules` with
/// another [`TopLevel`] than `Object` give None for a non-object value too). Never panics.
pub fn read_object_into(
    report: &mut Report,
    body: &[u8],
    meta: &FetchMeta,
    rules: &JsonRules,
) -> Option<(Map<String, Value>, Alternates)> {
    if let Some(d) = media_type_diagnostics(meta.content_type.as_deref(), rules) {
        report.push(d);
    }
    let doc = read_document(body, rules);
    for d in doc.diagnostics {
        report.push(d);
    }
    match doc.value {
        Some(Value::Object(object)) => Some((object, doc.alternates)),
        _ => {
            report.kind = "invalid".to_string();
            None
        }
    }
}

/// Reads a JSON document's body under `rules` ([`parse_json_body`], then the top-level type,
/// diagnosed at the pointer `""`). Pure, never panics; serde_json's recursion limit bounds nesting.
pub fn read_document(body: &[u8], rules: &JsonRules) -> JsonDocument {
    let mut parsed = parse_json_body(body);
    if rules.duplicates_are_errors {
        parsed = parsed.duplicates_as_errors();
    }
    if rules.html_as_invalid_json {
        parsed = parsed.html_as_invalid_json();
    }
    let mut diagnostics = parsed.diagnostics;
    let value = parsed.value.and_then(|value| {
        let code = match (rules.top_level, &value) {
            (TopLevel::Object, Value::Object(_)) | (TopLevel::Array, Value::Array(_)) | (TopLevel::Any, _) => {
                return Some(value);
            }
            (TopLevel::Array, _) => codes::NOT_JSON_ARRAY,
            _ => codes::NOT_JSON_OBJECT,
        };
        diagnostics.push(Diagnostic::error(code, (rules.wrong_top_level)(type_name(&value)), at("")));
        None
    });
    JsonDocument { value, diagnostics, alternates: parsed.alternates }
}

impl JsonDocument {
    /// True when a diagnostic of the body is an error.
    pub fn has_error(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: JsonRules = JsonRules {
        accepts: |m| m.is_json(),
        duplicates_are_errors: true,
        wrong_media_type: |raw, _| format!("wrong: {}", raw.unwrap_or("none")),
        ..JsonRules::JSON
    };

    #[test]
    fn media_types() {
        let code = |ct: Option<&str>, rules: &JsonRules| media_type_diagnostics(ct, rules).map(|d| (d.code, d.message));
        assert_eq!(code(Some("application/json; charset=utf-8"), &JsonRules::JSON), None);
        assert_eq!(
            code(Some("text/html"), &JsonRules::JSON),
            Some(("invalid_content_type".into(), "served as text/html, not application/json".into()))
        );
        assert_eq!(
            code(None, &JsonRules::JSON),
            Some(("invalid_content_type".into(), "served without a Content-Type".into()))
        );
        assert_eq!(code(Some("application/jwk-set+json"), &STRICT), None);
        assert_eq!(code(Some(";"), &STRICT), Some(("invalid_content_type".into(), "wrong: ;".into())));
        let latin1 = code(Some("application/json; charset=latin1"), &JsonRules::JSON).unwrap();
        assert_eq!(latin1.0, "invalid_charset");
        let lenient = JsonRules { absent_ok: true, ..JsonRules::JSON };
        assert_eq!(code(None, &lenient), None);
        assert_eq!(code(Some("  "), &lenient), None);
    }

    #[test]
    fn bodies() {
        let doc = read_document(br#"{"a":1,"a":2}"#, &STRICT);
        assert_eq!(doc.value, Some(serde_json::json!({"a": 2})));
        assert_eq!(doc.diagnostics[0].severity, Severity::Error);
        assert_eq!(doc.alternates.len(), 1);
        let doc = read_document(b"[1]", &JsonRules::JSON);
        assert_eq!(doc.value, None);
        assert_eq!(doc.diagnostics[0].code, "not_json_object");
        assert_eq!(doc.diagnostics[0].message, "the document must be a JSON object, found an array");
        let html = JsonRules { html_as_invalid_json: true, top_level: TopLevel::Any, ..JsonRules::JSON };
        let doc = read_document(b"<html><body>404</body></html>", &html);
        assert_eq!(doc.diagnostics[0].code, "invalid_json");
        assert!(doc.has_error());
        assert_eq!(read_document(b"\"s\"", &html).value, Some(Value::from("s")));
    }
}
