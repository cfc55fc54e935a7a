//! The JSON-document skeleton this crate's documents share: cap, media type, JSON, top-level object.

use serde_json::{Map, Value};
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, parse_json_body, type_name};
use wellknown_core::media::MediaType;
use wellknown_core::{FetchMeta, Report};

/// What the document's media type must be.
pub(crate) struct Media {
    /// Accepted essences; empty = any JSON type (`application/json`, `+json`).
    pub essences: &'static [&'static str],
    /// A wrong media type is an error (a reader refuses the document) rather than a warning.
    pub error: bool,
    /// Where the rule comes from, for the message.
    pub reference: &'static str,
}

/// Checks the cap and the media type, parses the body and returns the top-level object with the
/// other readings of a body that repeats member names (see `wellknown_core::json::Alternates`).
/// None, with the report's kind set to `invalid`, when there is no object to read.
pub(crate) fn object(
    body: &[u8],
    meta: &FetchMeta,
    report: &mut Report,
    max: u64,
    media: &Media,
) -> Option<(Map<String, Value>, Vec<Value>)> {
    if meta.truncated {
        report.error(shared::TOO_LARGE, format!("the body was truncated at {max} bytes"), None);
    }
    let parsed_media = meta.content_type.as_deref().and_then(MediaType::parse);
    let accepted = parsed_media.as_ref().is_some_and(|m| {
        if media.essences.is_empty() { m.is_json() } else { media.essences.contains(&m.essence.as_str()) }
    });
    if !accepted {
        let found = meta.content_type.as_deref().unwrap_or("none");
        let want =
            if media.essences.is_empty() { "a JSON media type".to_string() } else { media.essences.join(" or ") };
        let msg = format!("Content-Type {found:?} is not {want} ({})", media.reference);
        if media.error {
            report.error(shared::INVALID_CONTENT_TYPE, msg, None);
        } else {
            report.warn(shared::INVALID_CONTENT_TYPE, msg, None);
        }
    } else if let Some(problem) = parsed_media.as_ref().and_then(MediaType::json_charset_problem) {
        report.error(shared::INVALID_CHARSET, problem, None);
    }
    let parsed = parse_json_body(body);
    for d in parsed.diagnostics {
        report.push(d);
    }
    let value = parsed.value.and_then(|v| match v {
        Value::Object(map) => Some(map),
        other => {
            report.error(
                shared::NOT_JSON_OBJECT,
                format!("the document must be a JSON object, found {}", type_name(&other)),
                at(""),
            );
            None
        }
    });
    match value {
        Some(map) => Some((map, parsed.alternates.into_iter().collect())),
        None => {
            report.kind = "invalid".to_string();
            None
        }
    }
}
