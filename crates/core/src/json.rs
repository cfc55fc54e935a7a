//! JSON document helpers shared by the JSON plugins (openid-configuration,
//! oauth-authorization-server, assetlinks, apple-app-site-association).
//!
//! [`parse_json_body`] turns a body into a `serde_json::Value` or a clear [`Diagnostic`], handling a
//! BOM (diagnosed `bom`, then read), HTML pages served with 200 (`html_document`) and malformed JSON
//! (`invalid_json` with line and column). [`pointer()`] builds RFC 6901 pointers for locators.

use serde_json::Value;

use crate::diag::{Diagnostic, Locator, codes};
use crate::media::{looks_like_html, strip_bom};

/// Result of reading a JSON body: the value (when it parsed) and the diagnostics met on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonBody {
    /// The parsed value, None when the body is not JSON.
    pub value: Option<Value>,
    /// `bom`, `invalid_utf8`, `html_document`, `invalid_json` as they apply.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a JSON body (RFC 8259). A UTF-8 BOM is diagnosed (`bom`, error: RFC 8259 section 8.1 says
/// implementations MUST NOT add one) and skipped; an HTML page is diagnosed `html_document` and not
/// parsed; malformed JSON is `invalid_json` with its line and column. Never panics; serde_json's
/// recursion limit bounds nesting depth.
pub fn parse_json_body(body: &[u8]) -> JsonBody {
    let mut diagnostics = Vec::new();
    let (bom, rest) = strip_bom(body);
    if bom.is_some() {
        diagnostics.push(Diagnostic::error(
            codes::BOM,
            "body starts with a byte-order mark (RFC 8259 section 8.1)",
            Some(Locator::Byte(0)),
        ));
    }
    if looks_like_html(rest) {
        diagnostics.push(Diagnostic::error(
            codes::HTML_DOCUMENT,
            "an HTML page was served instead of a JSON document",
            Some(Locator::Line(1)),
        ));
        return JsonBody { value: None, diagnostics };
    }
    if std::str::from_utf8(rest).is_err() {
        diagnostics.push(Diagnostic::error(
            codes::INVALID_UTF8,
            "body is not valid UTF-8 (RFC 8259 section 8.1)",
            None,
        ));
    }
    match serde_json::from_slice::<Value>(rest) {
        Ok(v) => JsonBody { value: Some(v), diagnostics },
        Err(e) => {
            let line = u32::try_from(e.line()).unwrap_or(u32::MAX);
            diagnostics.push(Diagnostic::error(
                codes::INVALID_JSON,
                format!("malformed JSON: {e}"),
                Some(Locator::Line(line.max(1))),
            ));
            JsonBody { value: None, diagnostics }
        }
    }
}

/// Appends one reference token to a JSON pointer, escaping `~` and `/` (RFC 6901 section 3).
pub fn pointer(base: &str, token: &str) -> String {
    let mut s = String::with_capacity(base.len() + token.len() + 1);
    s.push_str(base);
    s.push('/');
    for ch in token.chars() {
        match ch {
            '~' => s.push_str("~0"),
            '/' => s.push_str("~1"),
            c => s.push(c),
        }
    }
    s
}

/// A JSON pointer locator.
pub fn at(p: impl Into<String>) -> Option<Locator> {
    Some(Locator::JsonPointer(p.into()))
}

impl JsonBody {
    /// Reports an HTML page as `invalid_json` instead of `html_document` (same message and locator),
    /// for documents whose validators treat a soft 404 as plain malformed JSON (assetlinks.json,
    /// apple-app-site-association). Other diagnostics are kept as they are.
    pub fn html_as_invalid_json(mut self) -> JsonBody {
        for d in &mut self.diagnostics {
            if d.code == codes::HTML_DOCUMENT {
                d.code = codes::INVALID_JSON.to_string();
            }
        }
        self
    }
}

/// The JSON type of a value as a noun phrase for messages: `null`, `a boolean`, `a number`,
/// `a string`, `an array`, `an object`.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The items of a JSON array expected to hold strings, each with its RFC 6901 pointer
/// (`base` + `/index`) and its text (None for an item that is not a string). Returns None when
/// `value` is not an array. Used for string lists such as assetlinks `relation` or AASA `appIDs`.
pub fn string_items<'a>(value: &'a Value, base: &str) -> Option<Vec<(String, Option<&'a str>)>> {
    let items = value.as_array()?;
    Some(items.iter().enumerate().map(|(i, v)| (pointer(base, &i.to_string()), v.as_str())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_then_json() {
        let r = parse_json_body(b"\xEF\xBB\xBF{\"a\":1}");
        assert_eq!(r.value, Some(serde_json::json!({"a": 1})));
        assert_eq!(r.diagnostics[0].code, "bom");
    }

    #[test]
    fn html_and_garbage() {
        assert_eq!(parse_json_body(b"<!doctype html><p>login").diagnostics[0].code, "html_document");
        let r = parse_json_body(b"{\n\"a\": }");
        assert_eq!(r.diagnostics[0].code, "invalid_json");
        assert_eq!(r.diagnostics[0].locator, Some(Locator::Line(2)));
    }

    #[test]
    fn html_reported_as_invalid_json() {
        let r = parse_json_body(b"<html><body>Not found</body></html>").html_as_invalid_json();
        assert_eq!(r.diagnostics.len(), 1);
        assert_eq!(r.diagnostics[0].code, "invalid_json");
        assert_eq!(r.value, None);
    }

    #[test]
    fn string_items_with_pointers() {
        let v = serde_json::json!(["a", 1, "b/c"]);
        let items = string_items(&v, "/relation").unwrap();
        let expected = vec![
            ("/relation/0".to_string(), Some("a")),
            ("/relation/1".to_string(), None),
            ("/relation/2".to_string(), Some("b/c")),
        ];
        assert_eq!(items, expected);
        assert_eq!(string_items(&serde_json::json!("a"), ""), None);
        assert_eq!(type_name(&serde_json::json!({})), "an object");
    }

    #[test]
    fn pointer_escapes() {
        assert_eq!(pointer("/a", "b/c~d"), "/a/b~1c~0d");
    }
}
