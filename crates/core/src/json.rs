//! JSON document helpers shared by the JSON plugins (openid-configuration,
//! oauth-authorization-server, assetlinks, apple-app-site-association).
//!
//! [`parse_json_body`] turns a body into a `serde_json::Value` or a clear [`Diagnostic`], handling a
//! BOM (diagnosed `bom`, then read), HTML pages served with 200 (`html_document`) and malformed JSON
//! (`invalid_json` with line and column). [`pointer()`] builds RFC 6901 pointers for locators.

use std::collections::HashSet;

use serde_json::Value;

use crate::diag::{Diagnostic, Locator, codes};
use crate::json_dups;
use crate::media::{decode_wide, detect_wide_encoding, looks_like_html, strip_bom};
use crate::report::Report;

/// Most `duplicate_member` diagnostics listed for one body; the rest are counted in one more.
pub const MAX_DUPLICATE_DIAGNOSTICS: usize = 100;

/// Most alternate readings built for a body that repeats member names ([`JsonBody::alternates`]):
/// occurrences after the ninth of one name are counted but not examined.
pub const MAX_ALTERNATES: usize = 8;

/// Result of reading a JSON body: the value (when it parsed) and the diagnostics met on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonBody {
    /// The parsed value, None when the body is not JSON. A repeated member name keeps its last
    /// value here, as serde_json and most receivers do.
    pub value: Option<Value>,
    /// `bom`, `not_utf8`, `invalid_utf8`, `html_document`, `invalid_json`, `duplicate_member` as
    /// they apply.
    pub diagnostics: Vec<Diagnostic>,
    /// When the body repeats a member name in an object: the document as read keeping occurrence
    /// `k` of every repeated name (k = 0, 1, ...; the first is what a first-wins receiver reads), up
    /// to the last occurrence minus one and at most [`MAX_ALTERNATES`]. Empty for the usual body.
    /// Probes examine each so that no published value is hidden (see [`merge_alternate`]).
    pub alternates: Vec<Value>,
}

/// Parses a JSON body (RFC 8259). A UTF-8 BOM is diagnosed (`bom`, error: RFC 8259 section 8.1 says
/// implementations MUST NOT add one) and skipped; a UTF-16 or UTF-32 body (by BOM or byte pattern)
/// is `not_utf8` (error naming the encoding; section 8.1 requires UTF-8) and decoded, so the rest of
/// the report is about the content; an HTML page is diagnosed `html_document` and not parsed;
/// malformed JSON is `invalid_json` with its line and column. A member name repeated in one object
/// is `duplicate_member` (error, RFC 8259 section 4, pointer of the member, at most
/// [`MAX_DUPLICATE_DIAGNOSTICS`] listed), and the earlier occurrences are kept in
/// [`JsonBody::alternates`]. Never panics; serde_json's recursion limit bounds nesting depth.
pub fn parse_json_body(body: &[u8]) -> JsonBody {
    let mut diagnostics = Vec::new();
    let decoded;
    let rest = if let Some((encoding, bom_len)) = detect_wide_encoding(body) {
        let (text, replaced) = decode_wide(body.get(bom_len..).unwrap_or_default(), encoding);
        let bom = if bom_len > 0 { "with a byte-order mark" } else { "without a byte-order mark" };
        let lossy = if replaced { "; invalid code units were replaced by U+FFFD" } else { "" };
        diagnostics.push(Diagnostic::error(
            codes::NOT_UTF8,
            format!(
                "the body is {} ({bom}), not UTF-8: JSON exchanged between systems MUST be UTF-8 \
                 (RFC 8259 section 8.1); read after decoding{lossy}",
                encoding.name()
            ),
            Some(Locator::Byte(0)),
        ));
        decoded = text;
        decoded.as_bytes()
    } else {
        let (bom, rest) = strip_bom(body);
        if bom.is_some() {
            diagnostics.push(Diagnostic::error(
                codes::BOM,
                "body starts with a byte-order mark (RFC 8259 section 8.1)",
                Some(Locator::Byte(0)),
            ));
        }
        rest
    };
    if looks_like_html(rest) {
        diagnostics.push(Diagnostic::error(
            codes::HTML_DOCUMENT,
            "an HTML page was served instead of a JSON document",
            Some(Locator::Line(1)),
        ));
        return JsonBody { value: None, diagnostics, alternates: Vec::new() };
    }
    if std::str::from_utf8(rest).is_err() {
        diagnostics.push(Diagnostic::error(
            codes::INVALID_UTF8,
            "body is not valid UTF-8 (RFC 8259 section 8.1)",
            None,
        ));
    }
    match json_dups::read(rest) {
        Ok((v, repeats)) => {
            let mut alternates = Vec::new();
            if !repeats.is_empty() {
                duplicate_diagnostics(&mut diagnostics, &repeats);
                let most = repeats.iter().map(|r| r.count).max().unwrap_or(0);
                for k in 0..most.saturating_sub(1).min(MAX_ALTERNATES) {
                    if let Ok(alt) = json_dups::read_keeping(rest, k) {
                        alternates.push(alt);
                    }
                }
            }
            JsonBody { value: Some(v), diagnostics, alternates }
        }
        Err(e) => {
            let line = u32::try_from(e.line()).unwrap_or(u32::MAX);
            diagnostics.push(Diagnostic::error(
                codes::INVALID_JSON,
                format!("malformed JSON: {e}"),
                Some(Locator::Line(line.max(1))),
            ));
            JsonBody { value: None, diagnostics, alternates: Vec::new() }
        }
    }
}

/// One `duplicate_member` per repeated name and object, at most [`MAX_DUPLICATE_DIAGNOSTICS`].
fn duplicate_diagnostics(diagnostics: &mut Vec<Diagnostic>, repeats: &[json_dups::Repeated]) {
    for r in repeats.iter().take(MAX_DUPLICATE_DIAGNOSTICS) {
        let name = r.pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        let unexamined = if r.count > MAX_ALTERNATES + 1 {
            format!("; occurrences after the {} were not examined", MAX_ALTERNATES + 1)
        } else {
            String::new()
        };
        diagnostics.push(Diagnostic::error(
            codes::DUPLICATE_MEMBER,
            format!(
                "member name {name:?} occurs {} times in one object: names SHOULD be unique and receivers \
                 disagree on which value counts (RFC 8259 section 4); the last is read, and every \
                 occurrence is examined{unexamined}",
                r.count
            ),
            at(r.pointer.clone()),
        ));
    }
    if repeats.len() > MAX_DUPLICATE_DIAGNOSTICS {
        diagnostics.push(Diagnostic::error(
            codes::DUPLICATE_MEMBER,
            format!(
                "{} more repeated member names not listed (RFC 8259 section 4)",
                repeats.len() - MAX_DUPLICATE_DIAGNOSTICS
            ),
            None,
        ));
    }
}

/// Adds to `into` what reading an alternate (see [`JsonBody::alternates`]) found that `into` lacks:
/// diagnostics (same code, message and locator), candidates (same kind, relation, value, locator and
/// hints; so a key that signs another app there is kept with that app) and follow-ups. Facts and
/// kind stay `into`'s. Linear in the sizes of both reports.
pub fn merge_alternate(into: &mut Report, from: Report) {
    let diag_key = |d: &Diagnostic| (d.code.clone(), d.message.clone(), d.locator.clone());
    let mut diags: HashSet<_> = into.errors.iter().chain(&into.warnings).map(diag_key).collect();
    for d in from.errors.into_iter().chain(from.warnings) {
        if diags.insert(diag_key(&d)) {
            into.push(d);
        }
    }
    let cand_key = |c: crate::candidates::CandidateRef<'_>| {
        let hints: Vec<(String, String)> = c.hints().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        (c.kind(), c.relation().to_string(), c.value().to_string(), c.locator(), hints)
    };
    let mut cands: HashSet<_> = into.candidates.iter().map(cand_key).collect();
    for c in from.candidates.iter() {
        if cands.insert(cand_key(c)) {
            into.candidate(c.to_candidate());
        }
    }
    for f in from.follow_ups {
        if !into.follow_ups.contains(&f) {
            into.follow_ups.push(f);
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
    fn duplicate_members_are_errors_and_alternates_keep_earlier_values() {
        let r = parse_json_body(br#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}],"keys":[{"kty":"RSA"}]}"#);
        assert_eq!(r.value, Some(serde_json::json!({"keys": [{"kty": "RSA"}]})));
        assert_eq!(r.diagnostics.len(), 1);
        assert_eq!(r.diagnostics[0].code, "duplicate_member");
        assert_eq!(r.diagnostics[0].locator, at("/keys"));
        assert!(r.diagnostics[0].message.contains("\"keys\" occurs 2 times"), "{}", r.diagnostics[0].message);
        assert_eq!(r.alternates, vec![serde_json::json!({"keys": [{"kty": "oct", "k": "c2VjcmV0"}]})]);
        // Three occurrences: two alternates; none for a clean body.
        let r = parse_json_body(br#"{"a":1,"a":2,"a":3,"b":{"c":1,"c":2}}"#);
        assert_eq!(r.alternates, vec![serde_json::json!({"a":1,"b":{"c":1}}), serde_json::json!({"a":2,"b":{"c":2}})]);
        let pointers: Vec<_> = r.diagnostics.iter().map(|d| d.locator.clone()).collect();
        assert_eq!(pointers, vec![at("/b/c"), at("/a")]);
        assert!(parse_json_body(br#"{"a":{"a":1}}"#).alternates.is_empty());
    }

    #[test]
    fn many_repeats_are_capped() {
        let mut body = String::from("{");
        for i in 0..150 {
            body.push_str(&format!("\"m{i}\":1,\"m{i}\":2,"));
        }
        body.push_str(&"\"z\":0,".repeat(20));
        body.push_str("\"end\":0}");
        let r = parse_json_body(body.as_bytes());
        assert_eq!(r.diagnostics.len(), MAX_DUPLICATE_DIAGNOSTICS + 1);
        assert!(r.diagnostics[MAX_DUPLICATE_DIAGNOSTICS].message.starts_with("51 more"));
        assert_eq!(r.alternates.len(), MAX_ALTERNATES);
    }

    #[test]
    fn utf16_and_utf32_bodies_are_named_and_decoded() {
        let text = "{\"a\":\"\u{e9}\u{1F600}\"}";
        let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let utf32: Vec<u8> = text.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
        for (body, name) in
            [(le, "UTF-16LE (with a byte-order mark)"), (be, "UTF-16BE (without"), (utf32, "UTF-32LE (without")]
        {
            let r = parse_json_body(&body);
            assert_eq!(r.value, Some(serde_json::json!({"a": "\u{e9}\u{1F600}"})), "{name}");
            assert_eq!(r.diagnostics.len(), 1, "{name}: {:?}", r.diagnostics);
            assert_eq!(r.diagnostics[0].code, "not_utf8");
            assert!(r.diagnostics[0].message.contains(name), "{}", r.diagnostics[0].message);
        }
    }

    #[test]
    fn merge_alternate_adds_only_what_is_new() {
        use crate::{Candidate, CandidateKind};
        let url = url::Url::parse("https://a.example/x").unwrap();
        let mut main = Report::new("p", &url, "k");
        main.error("e", "same", at("/a"));
        main.candidate(Candidate::new(CandidateKind::Key, "r", "v", at("/0")).with_hint("app", "one"));
        let mut alt = Report::new("p", &url, "k");
        alt.error("e", "same", at("/a"));
        alt.error("e", "other", at("/a"));
        alt.candidate(Candidate::new(CandidateKind::Key, "r", "v", at("/0")).with_hint("app", "one"));
        alt.candidate(Candidate::new(CandidateKind::Key, "r", "v", at("/0")).with_hint("app", "two"));
        alt.follow_up("p", url.clone(), "include");
        merge_alternate(&mut main, alt);
        assert_eq!(main.errors.len(), 2);
        assert_eq!(main.candidates.len(), 2);
        assert_eq!(main.candidates.get(1).unwrap().hint("app"), Some("two"));
        assert_eq!(main.follow_ups.len(), 1);
    }

    #[test]
    fn pointer_escapes() {
        assert_eq!(pointer("/a", "b/c~d"), "/a/b~1c~0d");
    }
}
