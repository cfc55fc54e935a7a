//! The JSON-document skeleton (`wellknown_core::json_document`) with this crate's rules: the cap,
//! the media type (an error or a warning, as the crate's specification says), then the body and the
//! top-level object.

use serde_json::{Map, Value};
use wellknown_core::diag::codes as shared;
use wellknown_core::json_document::{JsonRules, media_type_diagnostics, read_document};
use wellknown_core::{FetchMeta, Report};

/// Checks the cap (`too_large`) and the media type (`invalid_content_type`, a warning unless
/// `media_is_error`; `invalid_charset`), reads the body with `rules` and returns the top-level
/// object with the other readings of a body that repeats member names
/// (`wellknown_core::json::Alternates`). None, with the report's kind set to `invalid`, when there
/// is no object to read.
pub(crate) fn object(
    body: &[u8],
    meta: &FetchMeta,
    report: &mut Report,
    max: u64,
    rules: &JsonRules,
    media_is_error: bool,
) -> Option<(Map<String, Value>, Vec<Value>)> {
    if meta.truncated {
        report.error(shared::TOO_LARGE, format!("the body was truncated at {max} bytes"), None);
    }
    if let Some(d) = media_type_diagnostics(meta.content_type.as_deref(), rules) {
        if d.code == shared::INVALID_CONTENT_TYPE && !media_is_error {
            report.warn(&d.code, d.message, d.locator);
        } else {
            report.push(d);
        }
    }
    let doc = read_document(body, rules);
    for d in doc.diagnostics {
        report.push(d);
    }
    match doc.value {
        Some(Value::Object(map)) => Some((map, doc.alternates.into_iter().collect())),
        _ => {
            report.kind = "invalid".to_string();
            None
        }
    }
}
