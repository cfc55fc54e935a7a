//! The JSON skeleton both NodeInfo documents share: cap, media type, parse (BOM, encodings, HTML,
//! repeated names), top-level object.

use serde_json::{Map, Value};
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{JsonBody, at, parse_json_body, type_name};
use wellknown_core::media::MediaType;
use wellknown_core::{FetchMeta, Report};

/// Fetch cap (bytes after content decoding) of both documents. Discovery documents are under 1 KiB;
/// NodeInfo documents with Pleroma's metadata reach 25 KiB. Larger bodies are truncated and diagnosed
/// `too_large`.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// Checks the cap and media type, parses the body; the parsed body and its top-level object (None,
/// with the report's kind set to `invalid`, when the body is not a JSON object).
pub(crate) fn open(report: &mut Report, body: &[u8], meta: &FetchMeta) -> (JsonBody, Option<Map<String, Value>>) {
    if meta.truncated {
        report.error(shared::TOO_LARGE, format!("the body was truncated at {MAX_BODY_BYTES} bytes"), None);
    }
    match meta.content_type.as_deref().and_then(MediaType::parse) {
        Some(m) if m.is_json() => {
            if let Some(msg) = m.json_charset_problem() {
                report.warn(shared::INVALID_CHARSET, msg, None);
            }
        }
        _ => report.warn(
            shared::INVALID_CONTENT_TYPE,
            format!("Content-Type {:?} is not JSON", meta.content_type.as_deref().unwrap_or("")),
            None,
        ),
    }
    let mut parsed = parse_json_body(body);
    for d in std::mem::take(&mut parsed.diagnostics) {
        report.push(d);
    }
    let obj = match parsed.value.take() {
        Some(Value::Object(o)) => Some(o),
        Some(other) => {
            report.error(
                shared::NOT_JSON_OBJECT,
                format!("expected a JSON object, found {}", type_name(&other)),
                at(""),
            );
            None
        }
        None => None,
    };
    if obj.is_none() {
        report.kind = "invalid".to_string();
    }
    (parsed, obj)
}
