//! The JSON skeleton both NodeInfo documents share: cap, media type, parse (BOM, encodings, HTML,
//! repeated names), top-level object.

use serde_json::{Map, Value};
use wellknown_core::diag::codes as shared;
use wellknown_core::json::Alternates;
use wellknown_core::json_document::{JsonRules, TopLevel, media_type_diagnostics, read_document};
use wellknown_core::{FetchMeta, Report, Severity};

/// Fetch cap (bytes after content decoding) of both documents. Discovery documents are under 1 KiB;
/// NodeInfo documents with Pleroma's metadata reach 25 KiB. Larger bodies are truncated and diagnosed
/// `too_large`.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// Both documents: any JSON media type (the NodeInfo document's carries a `profile` parameter), a
/// top-level object.
const RULES: JsonRules = JsonRules {
    accepts: |m| m.is_json(),
    wrong_media_type: |raw, _| format!("Content-Type {:?} is not JSON", raw.unwrap_or("")),
    top_level: TopLevel::Object,
    wrong_top_level: |found| format!("expected a JSON object, found {found}"),
    ..JsonRules::JSON
};

/// Checks the cap and media type (a wrong one is a warning: the protocol names no MUST), reads the
/// body; its top-level object (None, with the report's kind set to `invalid`, when the body is not
/// a JSON object) and the alternate readings of repeated member names.
pub(crate) fn open(report: &mut Report, body: &[u8], meta: &FetchMeta) -> (Alternates, Option<Map<String, Value>>) {
    if meta.truncated {
        report.error(shared::TOO_LARGE, format!("the body was truncated at {MAX_BODY_BYTES} bytes"), None);
    }
    if let Some(mut d) = media_type_diagnostics(meta.content_type.as_deref(), &RULES) {
        d.severity = Severity::Warning;
        report.push(d);
    }
    let doc = read_document(body, &RULES);
    for d in doc.diagnostics {
        report.push(d);
    }
    let obj = match doc.value {
        Some(Value::Object(o)) => Some(o),
        _ => None,
    };
    if obj.is_none() {
        report.kind = "invalid".to_string();
    }
    (doc.alternates, obj)
}
