//! JSON document helpers shared by the JSON plugins (openid-configuration,
//! oauth-authorization-server, assetlinks, apple-app-site-association).
//!
//! [`parse_json_body`] turns a body into a `serde_json::Value` or a clear [`Diagnostic`], handling a
//! BOM (diagnosed `bom`, then read), HTML pages served with 200 (`html_document`) and malformed JSON
//! (`invalid_json` with line and column). [`pointer`] builds RFC 6901 pointers for locators.

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
        diagnostics.push(Diagnostic::error(codes::BOM, "body starts with a byte-order mark (RFC 8259 section 8.1)", Some(Locator::Byte(0))));
    }
    if looks_like_html(rest) {
        diagnostics.push(Diagnostic::error(codes::HTML_DOCUMENT, "an HTML page was served instead of a JSON document", Some(Locator::Line(1))));
        return JsonBody { value: None, diagnostics };
    }
    if std::str::from_utf8(rest).is_err() {
        diagnostics.push(Diagnostic::error(codes::INVALID_UTF8, "body is not valid UTF-8 (RFC 8259 section 8.1)", None));
    }
    match serde_json::from_slice::<Value>(rest) {
        Ok(v) => JsonBody { value: Some(v), diagnostics },
        Err(e) => {
            let line = u32::try_from(e.line()).unwrap_or(u32::MAX);
            diagnostics.push(Diagnostic::error(codes::INVALID_JSON, format!("malformed JSON: {e}"), Some(Locator::Line(line.max(1)))));
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
    fn pointer_escapes() {
        assert_eq!(pointer("/a", "b/c~d"), "/a/b~1c~0d");
    }
}
