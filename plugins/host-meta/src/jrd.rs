//! The JRD parser (`host-meta.json`): `interpret_json(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! `host-meta.json` is the JSON Resource Descriptor form of host-meta (RFC 6415 appendix A): an
//! object with optional `subject`, `aliases`, `properties` and `links`, each link an object with
//! `rel`, `type`, `href`, `template`, `titles`, `properties`.

use crate::codes;
use crate::link::{self, Counts, Link};
use serde_json::{Map, Value};
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, TopLevel, read_object_into};
use wellknown_core::{FetchMeta, Locator, Report, Severity};

/// Fetch cap (bytes after content decoding): real documents are under 2 KiB. Larger bodies are
/// truncated by the fetcher and diagnosed `too_large`.
pub const MAX_JSON_BODY_BYTES: u64 = 64 * 1024;

/// Interprets a `/.well-known/host-meta.json` body fetched as described by `meta`.
///
/// Returns a report of kind `jrd` (`invalid` when the body is not a JSON object) with, for each
/// object of `links` (locator: its JSON pointer, `/links/<i>`), the candidates of
/// [`crate::link::apply`]: `url` (`link`, the `href` resolved against `meta.url`), `path`
/// (`link_template`, the template as written), `host` (`link_host`), hints `rel` and `type`. Facts:
/// `links`, `hrefs`, `templates`, `subject` (when a string). A repeated member name is read in
/// every occurrence (`duplicate_member`). Diagnostics: see [`crate::codes::JRD_ALL`].
pub fn interpret_json(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::JSON_PROBE_ID, &meta.url, "jrd");
    report.too_large_if_truncated(meta, MAX_JSON_BODY_BYTES);
    // A wrong media type is a warning (`RULES`) here: RFC 6415 names application/json without a MUST.
    let Some((obj, alternates)) = read_object_into(&mut report, body, meta, &RULES) else {
        return report;
    };
    let counts = read_jrd(&mut report, meta, &obj);
    if counts.links == 0 {
        report.warn(codes::NO_LINKS, "the JRD declares no link", at(""));
    }
    report.fact("links", counts.links);
    report.fact("hrefs", counts.hrefs);
    report.fact("templates", counts.templates);
    for alternate in alternates {
        let Some(obj) = alternate.as_object() else { continue };
        let mut scratch = Report::new(crate::JSON_PROBE_ID, &meta.url, "jrd");
        let _ = read_jrd(&mut scratch, meta, obj);
        merge_alternate(&mut report, scratch);
    }
    report
}

/// The JRD as a JSON document: `application/json` (RFC 6415 appendix A) or `application/jrd+json`
/// (RFC 7033 section 10.2), a top-level object.
const RULES: JsonRules = JsonRules {
    accepts: |m| matches!(m.essence.as_str(), "application/json" | "application/jrd+json"),
    wrong_media_type: |raw, _| {
        format!(
            "Content-Type {:?} is not application/json (RFC 6415 appendix A) nor application/jrd+json",
            raw.unwrap_or("")
        )
    },
    top_level: TopLevel::Object,
    wrong_top_level: |found| format!("a JRD is a JSON object (RFC 6415 appendix A), found {found}"),
    wrong_media_type_severity: Severity::Warning,
    charset_severity: Severity::Warning,
    ..JsonRules::JSON
};

/// Reads the JRD object.
fn read_jrd(report: &mut Report, meta: &FetchMeta, obj: &Map<String, Value>) -> Counts {
    match obj.get("subject") {
        Some(Value::String(s)) => report.fact("subject", s.as_str()),
        Some(other) => invalid_member(report, "/subject", "a string", other),
        None => {}
    }
    if let Some(aliases) = obj.get("aliases")
        && !aliases.as_array().is_some_and(|a| a.iter().all(Value::is_string))
    {
        invalid_member(report, "/aliases", "an array of strings", aliases);
    }
    let mut counts = Counts::default();
    match obj.get("links") {
        None => {}
        Some(Value::Array(links)) => {
            for (i, l) in links.iter().enumerate() {
                let p = pointer("/links", &i.to_string());
                let Some(lo) = l.as_object() else {
                    invalid_member(report, &p, "an object", l);
                    continue;
                };
                let mut string = |name: &str| match lo.get(name) {
                    None => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(other) => {
                        invalid_member(report, &pointer(&p, name), "a string", other);
                        None
                    }
                };
                let link = Link {
                    rel: string("rel"),
                    media_type: string("type"),
                    href: string("href"),
                    template: string("template"),
                };
                link::apply(report, &meta.url, &link, &Locator::JsonPointer(p), &mut counts);
            }
        }
        Some(other) => invalid_member(report, "/links", "an array of objects", other),
    }
    counts
}

fn invalid_member(report: &mut Report, p: &str, want: &str, found: &Value) {
    report.error(
        codes::INVALID_MEMBER,
        format!("{p} must be {want} (RFC 6415 appendix A), found {}", type_name(found)),
        at(p),
    );
}
