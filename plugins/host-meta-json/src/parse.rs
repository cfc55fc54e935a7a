//! The JRD parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! `host-meta.json` is the JSON Resource Descriptor form of host-meta (RFC 6415 appendix A): an
//! object with optional `subject`, `aliases`, `properties` and `links`, each link an object with
//! `rel`, `type`, `href`, `template`, `titles`, `properties`.

use serde_json::Value;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, parse_json_body, pointer, type_name};
use wellknown_core::media::MediaType;
use wellknown_core::{FetchMeta, Locator, Report};
use wellknown_host_meta::link::{self, Counts, Link};

use crate::codes;

/// Fetch cap (bytes after content decoding): real documents are under 2 KiB. Larger bodies are
/// truncated by the fetcher and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

/// Interprets a `/.well-known/host-meta.json` body fetched as described by `meta`.
///
/// Returns a report of kind `jrd` (`invalid` when the body is not a JSON object) with, for each
/// object of `links` (locator: its JSON pointer, `/links/<i>`), the candidates of
/// [`wellknown_host_meta::link::apply`]: `url` (`link`, the `href` resolved against `meta.url`), `path`
/// (`link_template`, the template as written), `host` (`link_host`), hints `rel` and `type`. Facts:
/// `links`, `hrefs`, `templates`, `subject` (when a string). A repeated member name is read in
/// every occurrence (`duplicate_member`). Diagnostics: see [`crate::codes::ALL`].
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "jrd");
    if meta.truncated {
        report.error(shared::TOO_LARGE, format!("the body was truncated at {MAX_BODY_BYTES} bytes"), None);
    }
    check_media_type(&mut report, meta.content_type.as_deref());
    let parsed = parse_json_body(body);
    for d in parsed.diagnostics {
        report.push(d);
    }
    let Some(value) = parsed.value else {
        report.kind = "invalid".to_string();
        return report;
    };
    let Some(counts) = read_jrd(&mut report, meta, &value) else {
        report.kind = "invalid".to_string();
        return report;
    };
    if counts.links == 0 {
        report.warn(codes::NO_LINKS, "the JRD declares no link", at(""));
    }
    report.fact("links", counts.links);
    report.fact("hrefs", counts.hrefs);
    report.fact("templates", counts.templates);
    for alternate in parsed.alternates {
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "jrd");
        let _ = read_jrd(&mut scratch, meta, &alternate);
        merge_alternate(&mut report, scratch);
    }
    report
}

/// `invalid_content_type` (warning) unless `application/json` (RFC 6415 appendix A) or
/// `application/jrd+json` (RFC 7033 section 10.2); `invalid_charset` for a charset other than UTF-8.
fn check_media_type(report: &mut Report, content_type: Option<&str>) {
    match content_type.and_then(MediaType::parse) {
        Some(m) if matches!(m.essence.as_str(), "application/json" | "application/jrd+json") => {
            if let Some(msg) = m.json_charset_problem() {
                report.warn(shared::INVALID_CHARSET, msg, None);
            }
        }
        _ => report.warn(
            shared::INVALID_CONTENT_TYPE,
            format!(
                "Content-Type {:?} is not application/json (RFC 6415 appendix A) nor application/jrd+json",
                content_type.unwrap_or("")
            ),
            None,
        ),
    }
}

/// Reads the JRD object; None when `value` is not an object (`not_json_object`).
fn read_jrd(report: &mut Report, meta: &FetchMeta, value: &Value) -> Option<Counts> {
    let Some(obj) = value.as_object() else {
        report.error(
            shared::NOT_JSON_OBJECT,
            format!("a JRD is a JSON object (RFC 6415 appendix A), found {}", type_name(value)),
            at(""),
        );
        return None;
    };
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
    Some(counts)
}

fn invalid_member(report: &mut Report, p: &str, want: &str, found: &Value) {
    report.error(
        codes::INVALID_MEMBER,
        format!("{p} must be {want} (RFC 6415 appendix A), found {}", type_name(found)),
        at(p),
    );
}
