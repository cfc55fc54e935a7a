//! The JSON skeleton both NodeInfo documents share: cap, media type, parse (BOM, encodings, HTML,
//! repeated names), top-level object.

use serde_json::{Map, Value};
use wellknown_core::json::Alternates;
use wellknown_core::json_document::{JsonRules, TopLevel, read_object_into};
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
    wrong_media_type_severity: Severity::Warning,
    charset_severity: Severity::Warning,
    ..JsonRules::JSON
};

/// Checks the cap and media type (a wrong one is a warning: the protocol names no MUST), reads the
/// body; its top-level object and the alternate readings of repeated member names (None, with the
/// report's kind set to `invalid`, when the body is not a JSON object).
pub(crate) fn open(report: &mut Report, body: &[u8], meta: &FetchMeta) -> Option<(Map<String, Value>, Alternates)> {
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    read_object_into(report, body, meta, &RULES)
}
