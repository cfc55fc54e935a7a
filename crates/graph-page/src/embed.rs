//! Escaping of what the page embeds: JSON inside a `<script>` element, and text inside HTML.
//!
//! The HTML standard ends a script element's raw text at the first `</script` (case-insensitive) and
//! treats `<!--` and `<script` inside it specially ("script data escaped" states, WHATWG HTML section
//! 13.2.5). Writing every `<`, `>` and `&` of the JSON as a `\u003c`-style escape means none of those
//! sequences can appear, whatever the values hold; `JSON.parse` reads the escapes back as the same
//! characters. U+2028 and U+2029 are escaped as well, so the text is also a valid JavaScript literal.
//! In JSON these characters only ever occur inside strings, so the escaped text is the same JSON value.

use serde_json::Value;

/// Appends `value` as JSON to `out`, with `<`, `>`, `&`, U+2028 and U+2029 written as `\u003c`,
/// `\u003e`, `\u0026`, `\u2028` and `\u2029`: text that can sit inside
/// `<script type="application/json">` and never close or alter it.
pub fn script_json(value: &Value, out: &mut Vec<u8>) {
    let plain = value.to_string();
    escape_json_text(&plain, out);
}

/// Escapes serialised JSON text `json` into `out` as [`script_json`] does.
pub fn escape_json_text(json: &str, out: &mut Vec<u8>) {
    out.reserve(json.len());
    for c in json.chars() {
        match c {
            '<' => out.extend_from_slice(b"\\u003c"),
            '>' => out.extend_from_slice(b"\\u003e"),
            '&' => out.extend_from_slice(b"\\u0026"),
            '\u{2028}' => out.extend_from_slice(b"\\u2028"),
            '\u{2029}' => out.extend_from_slice(b"\\u2029"),
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
}

/// `s` as HTML text (element content or a double-quoted attribute value): `&`, `<`, `>`, `"` and `'`
/// as character references.
pub fn html_text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn escaped(v: &Value) -> String {
        let mut out = Vec::new();
        script_json(v, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_script_end_tag_in_a_value_cannot_close_the_element() {
        let v = json!({"value": "https://x.test/</script><script>window.__pwned=1</script><!--"});
        let text = escaped(&v);
        assert!(!text.contains('<') && !text.contains('>'), "{text}");
        assert_eq!(
            text,
            r#"{"value":"https://x.test/\u003c/script\u003e\u003cscript\u003ewindow.__pwned=1\u003c/script\u003e\u003c!--"}"#
        );
        // The same value back.
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }

    #[test]
    fn ampersands_and_line_separators_are_escaped_and_read_back() {
        let v = json!(["a&b", "x\u{2028}y\u{2029}z", "javascript:alert(1)", "é ü 日本"]);
        let text = escaped(&v);
        assert_eq!(text, "[\"a\\u0026b\",\"x\\u2028y\\u2029z\",\"javascript:alert(1)\",\"é ü 日本\"]");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }

    #[test]
    fn html_text_escapes_markup_and_quotes() {
        assert_eq!(html_text(r#"<b a="1">'&'</b>"#), "&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;");
    }
}
