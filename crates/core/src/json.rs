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

/// Most alternate readings keeping occurrence `k` of the repeated names of objects that are in every
/// reading (k = 0 .. 7): occurrences after the ninth of such a name are counted, not examined.
pub const MAX_ALTERNATES: usize = 8;

/// Most alternate readings for repeats nested inside an occurrence of another repeated name (see
/// [`json_dups`]); the occurrences they leave out are counted, not examined.
pub const MAX_NESTED_ALTERNATES: usize = 8;

/// Result of reading a JSON body: the value (when it parsed) and the diagnostics met on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonBody {
    /// The parsed value, None when the body is not JSON. A repeated member name keeps its last
    /// value here, as serde_json and most receivers do.
    pub value: Option<Value>,
    /// `bom`, `not_utf8`, `invalid_utf8`, `html_document`, `invalid_json`, `duplicate_member` as
    /// they apply.
    pub diagnostics: Vec<Diagnostic>,
    /// When the body repeats a member name in an object: the other readings of the document, which
    /// together with [`JsonBody::value`] hold every occurrence of every member (up to the caps
    /// [`MAX_ALTERNATES`] and [`MAX_NESTED_ALTERNATES`]; what they leave out is counted in a
    /// `duplicate_member` diagnostic). Empty for the usual body. Probes examine each so that no
    /// published value is hidden (see [`merge_alternate`]).
    pub alternates: Alternates,
}

/// The alternate readings of a body that repeats member names, built one at a time when iterated
/// (each is a whole `Value` of the document: a caller examines it and drops it before the next is
/// built, so at most two parsed copies are alive). Holds a copy of the body and the plan
/// ([`json_dups::plan`]); iterating parses the body once per reading.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Alternates {
    body: Vec<u8>,
    readings: Vec<json_dups::Reading>,
}

impl Alternates {
    /// Number of readings.
    pub fn len(&self) -> usize {
        self.readings.len()
    }

    /// True when the body repeats no member name.
    pub fn is_empty(&self) -> bool {
        self.readings.is_empty()
    }

    /// Builds the readings one by one, in plan order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        self.readings.iter().filter_map(|r| json_dups::read_reading(&self.body, *r).ok())
    }
}

/// Builds each reading when asked for (see [`Alternates`]).
#[derive(Debug)]
pub struct AlternatesIter {
    body: Vec<u8>,
    readings: std::vec::IntoIter<json_dups::Reading>,
}

impl Iterator for AlternatesIter {
    type Item = Value;
    fn next(&mut self) -> Option<Value> {
        for r in self.readings.by_ref() {
            if let Ok(v) = json_dups::read_reading(&self.body, r) {
                return Some(v);
            }
        }
        None
    }
}

impl IntoIterator for Alternates {
    type Item = Value;
    type IntoIter = AlternatesIter;
    fn into_iter(self) -> AlternatesIter {
        AlternatesIter { body: self.body, readings: self.readings.into_iter() }
    }
}

/// Parses a JSON body (RFC 8259). A UTF-8 BOM is diagnosed (`bom`, error: RFC 8259 section 8.1 says
/// implementations MUST NOT add one) and skipped; a UTF-16 or UTF-32 body (by BOM or byte pattern)
/// is `not_utf8` (error naming the encoding; section 8.1 requires UTF-8) and decoded, so the rest of
/// the report is about the content; an HTML page is diagnosed `html_document` and not parsed;
/// malformed JSON is `invalid_json` with its line and column. A member name repeated in one object
/// is `duplicate_member` (a warning: RFC 8259 section 4 only says names SHOULD be unique; a format
/// that requires unique names makes it an error with [`JsonBody::duplicates_as_errors`]; pointer of
/// the member, at most
/// [`MAX_DUPLICATE_DIAGNOSTICS`] listed), and the other occurrences are read in
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
        return JsonBody { value: None, diagnostics, alternates: Alternates::default() };
    }
    if std::str::from_utf8(rest).is_err() {
        diagnostics.push(Diagnostic::error(
            codes::INVALID_UTF8,
            "body is not valid UTF-8 (RFC 8259 section 8.1)",
            None,
        ));
    }
    match json_dups::read(rest, MAX_DUPLICATE_DIAGNOSTICS) {
        Ok((v, repeats)) => {
            let mut alternates = Alternates::default();
            if repeats.total > 0 {
                // The body parsed, so planning (the same parser) does too.
                let plan = json_dups::plan(rest, MAX_ALTERNATES, MAX_NESTED_ALTERNATES).unwrap_or_default();
                duplicate_diagnostics(&mut diagnostics, &repeats, plan.unexamined);
                alternates = Alternates { body: rest.to_vec(), readings: plan.readings };
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
            JsonBody { value: None, diagnostics, alternates: Alternates::default() }
        }
    }
}

/// One `duplicate_member` per repeated name and object, at most [`MAX_DUPLICATE_DIAGNOSTICS`], one
/// counting the rest, and one counting the occurrences no reading holds (`unexamined`).
fn duplicate_diagnostics(diagnostics: &mut Vec<Diagnostic>, repeats: &json_dups::Repeats, unexamined: usize) {
    for r in &repeats.listed {
        let name = r.pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        diagnostics.push(Diagnostic::warning(
            codes::DUPLICATE_MEMBER,
            format!(
                "member name {name:?} occurs {} times in one object: names SHOULD be unique and receivers \
                 disagree on which value counts (RFC 8259 section 4); the last is read, and the others \
                 are examined in alternate readings of the document",
                r.count
            ),
            at(r.pointer.clone()),
        ));
    }
    if repeats.total > repeats.listed.len() {
        diagnostics.push(Diagnostic::warning(
            codes::DUPLICATE_MEMBER,
            format!(
                "{} more repeated member names not listed (RFC 8259 section 4)",
                repeats.total - repeats.listed.len()
            ),
            None,
        ));
    }
    if unexamined > 0 {
        diagnostics.push(Diagnostic::warning(
            codes::DUPLICATE_MEMBER,
            format!(
                "{unexamined} occurrences of repeated member names were not examined: readings are capped \
                 at {MAX_ALTERNATES} keeping an earlier occurrence and {MAX_NESTED_ALTERNATES} for repeats \
                 inside another repeated member's value, so what those occurrences hold is not reported"
            ),
            None,
        ));
    }
}

/// Adds to `into` what reading an alternate (see [`JsonBody::alternates`]) found that `into` lacks:
/// diagnostics (same code, message and locator), candidates (same kind, relation, value, locator and
/// hints; so a key that signs another app there is kept with that app) and follow-ups. Facts and
/// kind stay `into`'s. Linear in the sizes of both reports (hash sets of what `into` holds).
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
    let follow_key = |f: &crate::report::FollowUp| (f.probe.clone(), f.url.as_str().to_string(), f.role.clone());
    let mut follows: HashSet<_> = into.follow_ups.iter().map(follow_key).collect();
    for f in from.follow_ups {
        if follows.insert(follow_key(&f)) {
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
    /// Makes the `duplicate_member` diagnostics errors, for a format whose specification requires
    /// unique member names (a JWK and a JWK Set: RFC 7517 sections 4 and 5, "MUST be unique");
    /// RFC 8259 section 4 alone says SHOULD, so [`parse_json_body`] reports them as warnings.
    pub fn duplicates_as_errors(mut self) -> JsonBody {
        for d in &mut self.diagnostics {
            if d.code == codes::DUPLICATE_MEMBER {
                d.severity = crate::diag::Severity::Error;
            }
        }
        self
    }

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
    fn duplicate_members_are_warnings_and_alternates_keep_earlier_values() {
        let r = parse_json_body(br#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}],"keys":[{"kty":"RSA"}]}"#);
        assert_eq!(r.value, Some(serde_json::json!({"keys": [{"kty": "RSA"}]})));
        assert_eq!(r.diagnostics.len(), 1);
        assert_eq!(r.diagnostics[0].code, "duplicate_member");
        assert_eq!(r.diagnostics[0].severity, crate::diag::Severity::Warning);
        let strict = r.clone().duplicates_as_errors();
        assert_eq!(strict.diagnostics[0].severity, crate::diag::Severity::Error);
        assert_eq!(r.diagnostics[0].locator, at("/keys"));
        assert!(r.diagnostics[0].message.contains("\"keys\" occurs 2 times"), "{}", r.diagnostics[0].message);
        let alternates: Vec<Value> = r.alternates.iter().collect();
        assert_eq!(alternates, vec![serde_json::json!({"keys": [{"kty": "oct", "k": "c2VjcmV0"}]})]);
        // Three occurrences: two alternates; none for a clean body.
        let r = parse_json_body(br#"{"a":1,"a":2,"a":3,"b":{"c":1,"c":2}}"#);
        let alternates: Vec<Value> = r.alternates.clone().into_iter().collect();
        assert_eq!(alternates, vec![serde_json::json!({"a":1,"b":{"c":1}}), serde_json::json!({"a":2,"b":{"c":2}})]);
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
        assert_eq!(r.diagnostics.len(), MAX_DUPLICATE_DIAGNOSTICS + 2);
        assert!(r.diagnostics[MAX_DUPLICATE_DIAGNOSTICS].message.starts_with("51 more"));
        // "z" 20 times: occurrences 0-7 and 19 are read, 8-18 are not.
        let capped = &r.diagnostics[MAX_DUPLICATE_DIAGNOSTICS + 1];
        assert!(
            capped.message.starts_with("11 occurrences of repeated member names were not examined"),
            "{}",
            capped.message
        );
        assert_eq!(capped.locator, None);
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
    fn nested_repeat_in_a_replaced_occurrence_is_an_alternate() {
        // Review 4 finding 4: the inner "oct" key was in no reading.
        let r =
            parse_json_body(br#"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB","k":"c2VjcmV0","kty":"oct"}],"keys":[]}"#);
        assert_eq!(r.value, Some(serde_json::json!({"keys": []})));
        let kty: Vec<Value> = r.alternates.iter().map(|v| v["keys"][0]["kty"].clone()).collect();
        assert!(kty.contains(&Value::from("oct")) && kty.contains(&Value::from("RSA")), "{kty:?}");
        let pointers: Vec<_> = r.diagnostics.iter().map(|d| d.locator.clone()).collect();
        assert_eq!(pointers, vec![at("/keys/0/kty"), at("/keys")]);
    }

    #[test]
    fn merge_alternate_follow_ups_by_hash() {
        // Review 4 finding 2: 23,000 includes were compared pairwise (quadratic); now a hash set.
        let url = url::Url::parse("https://a.example/x").unwrap();
        let mut main = Report::new("p", &url, "k");
        let mut alt = Report::new("p", &url, "k");
        for i in 0..23_000 {
            let u = url::Url::parse(&format!("https://a.example/{i}.json")).unwrap();
            main.follow_up("p", u.clone(), "include");
            alt.follow_up("p", u.clone(), "include");
            alt.follow_up("p", u, "other_role");
        }
        merge_alternate(&mut main, alt);
        assert_eq!(main.follow_ups.len(), 46_000);
        assert_eq!(main.follow_ups[23_000].role, "other_role");
        assert_eq!(main.follow_ups[23_000].url.as_str(), "https://a.example/0.json");
    }

    #[test]
    fn pointer_escapes() {
        assert_eq!(pointer("/a", "b/c~d"), "/a/b~1c~0d");
    }
}
