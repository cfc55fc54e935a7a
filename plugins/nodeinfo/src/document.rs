//! The NodeInfo document itself (schema 1.0-2.2), reached through the discovery document's link:
//! `interpret_document(body, meta) -> Report`. Pure.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Locator, Report};

use crate::codes;
use crate::discovery::VERSIONS;
use crate::json_doc::open;

/// The protocols schema 2.x lists (`protocols` enum; 1.x lists a subset).
pub const PROTOCOLS: [&str; 10] =
    ["activitypub", "buddycloud", "dfrn", "diaspora", "libertree", "ostatus", "pumpio", "tent", "xmpp", "zot"];

/// Members every schema version requires at the top level.
const REQUIRED: [&str; 7] = ["version", "software", "protocols", "services", "openRegistrations", "usage", "metadata"];

/// Interprets a NodeInfo document fetched as described by `meta`.
///
/// Returns a report of kind `nodeinfo` (`invalid` when not a JSON object) with facts `schema_version`,
/// `software_name`, `software_version`, `protocols` (2.x: the array; 1.x: the `inbound` and
/// `outbound` lists together), `open_registrations`, `users_total`, `local_posts` (each when
/// present with the right type), and `url` candidates for `software.repository` and
/// `software.homepage` (schema 2.1: relations `software_repository`, `software_homepage`, locators
/// their pointers). Diagnostics: [`crate::codes`] (`missing_member`, `invalid_member`,
/// `invalid_software_name`, `unknown_protocol`, `unknown_version`) and the shared JSON codes.
pub fn interpret_document(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::DOCUMENT_PROBE_ID, &meta.url, "nodeinfo");
    let Some((obj, alternates)) = open(&mut report, body, meta) else { return report };
    read(&mut report, meta, &obj);
    for alternate in alternates {
        let Some(o) = alternate.as_object() else { continue };
        let mut scratch = Report::new(crate::DOCUMENT_PROBE_ID, &meta.url, "nodeinfo");
        read(&mut scratch, meta, o);
        merge_alternate(&mut report, scratch);
    }
    report
}

fn read(report: &mut Report, meta: &FetchMeta, obj: &Map<String, Value>) {
    for name in REQUIRED {
        if !obj.contains_key(name) {
            report.error(
                codes::MISSING_MEMBER,
                format!("no {name} member (required by every NodeInfo schema)"),
                at(""),
            );
        }
    }
    let version = obj.get("version");
    match version {
        Some(Value::String(v)) => {
            if !VERSIONS.contains(&v.as_str()) {
                report.warn(
                    codes::UNKNOWN_VERSION,
                    format!("version {v:?} is not a NodeInfo schema version"),
                    at("/version"),
                );
            }
            report.fact("schema_version", v.as_str());
        }
        Some(other) => invalid(report, "/version", "a string", other),
        None => {}
    }
    let major1 = matches!(version.and_then(Value::as_str), Some(v) if v.starts_with("1."));
    software(report, meta, obj.get("software"), major1);
    protocols(report, obj.get("protocols"), major1);
    match obj.get("services") {
        Some(Value::Object(s)) => {
            for dir in ["inbound", "outbound"] {
                match s.get(dir) {
                    Some(Value::Array(_)) => {}
                    Some(other) => invalid(report, &pointer("/services", dir), "an array", other),
                    None => report.error(codes::MISSING_MEMBER, format!("services has no {dir}"), at("/services")),
                }
            }
        }
        Some(other) => invalid(report, "/services", "an object", other),
        None => {}
    }
    match obj.get("openRegistrations") {
        Some(Value::Bool(b)) => report.fact("open_registrations", *b),
        Some(other) => invalid(report, "/openRegistrations", "a boolean", other),
        None => {}
    }
    match obj.get("usage") {
        Some(Value::Object(u)) => {
            match u.get("users") {
                Some(Value::Object(users)) => {
                    if let Some(total) = users.get("total").and_then(Value::as_u64) {
                        report.fact("users_total", total);
                    }
                }
                Some(other) => invalid(report, "/usage/users", "an object", other),
                None => report.error(codes::MISSING_MEMBER, "usage has no users", at("/usage")),
            }
            if let Some(posts) = u.get("localPosts").and_then(Value::as_u64) {
                report.fact("local_posts", posts);
            }
        }
        Some(other) => invalid(report, "/usage", "an object", other),
        None => {}
    }
    if let Some(m) = obj.get("metadata")
        && !m.is_object()
    {
        invalid(report, "/metadata", "an object", m);
    }
}

fn software(report: &mut Report, meta: &FetchMeta, value: Option<&Value>, major1: bool) {
    let Some(value) = value else { return };
    let Some(s) = value.as_object() else {
        invalid(report, "/software", "an object", value);
        return;
    };
    match s.get("name") {
        Some(Value::String(name)) => {
            let ok =
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !ok && !major1 {
                report.error(
                    codes::INVALID_SOFTWARE_NAME,
                    format!("software.name {name:?} does not match ^[a-z0-9-]+$"),
                    at("/software/name"),
                );
            }
            report.fact("software_name", name.as_str());
        }
        Some(other) => invalid(report, "/software/name", "a string", other),
        None => report.error(codes::MISSING_MEMBER, "software has no name", at("/software")),
    }
    match s.get("version") {
        Some(Value::String(v)) => report.fact("software_version", v.as_str()),
        Some(other) => invalid(report, "/software/version", "a string", other),
        None => report.error(codes::MISSING_MEMBER, "software has no version", at("/software")),
    }
    for (member, relation) in [("repository", "software_repository"), ("homepage", "software_homepage")] {
        let Some(v) = s.get(member) else { continue };
        let p = pointer("/software", member);
        match v.as_str().map(|t| Url::options().base_url(Some(&meta.url)).parse(t.trim())) {
            Some(Ok(u)) => report.candidate(Candidate::new(
                CandidateKind::Url,
                relation,
                u.as_str(),
                Some(Locator::JsonPointer(p)),
            )),
            Some(Err(_)) | None => invalid(report, &p, "a URL string", v),
        }
    }
}

fn protocols(report: &mut Report, value: Option<&Value>, major1: bool) {
    let Some(value) = value else { return };
    let mut names: Vec<(String, &Value)> = Vec::new();
    match value {
        Value::Array(items) if !major1 => {
            names.extend(items.iter().enumerate().map(|(i, v)| (pointer("/protocols", &i.to_string()), v)));
        }
        Value::Object(dirs) if major1 => {
            for dir in ["inbound", "outbound"] {
                if let Some(Value::Array(items)) = dirs.get(dir) {
                    let base = pointer("/protocols", dir);
                    names.extend(items.iter().enumerate().map(|(i, v)| (pointer(&base, &i.to_string()), v)));
                } else {
                    report.error(
                        codes::MISSING_MEMBER,
                        format!("protocols has no {dir} array (schema 1.x)"),
                        at("/protocols"),
                    );
                }
            }
        }
        other => {
            let want = if major1 { "an object of inbound and outbound arrays (schema 1.x)" } else { "an array" };
            invalid(report, "/protocols", want, other);
            return;
        }
    }
    let mut list: Vec<String> = Vec::new();
    for (p, v) in names {
        let Some(name) = v.as_str() else {
            invalid(report, &p, "a string", v);
            continue;
        };
        if !PROTOCOLS.contains(&name) {
            report.warn(codes::UNKNOWN_PROTOCOL, format!("protocol {name:?} is not in the schema's list"), at(&p));
        }
        if !list.iter().any(|n| n == name) && list.len() < 64 {
            list.push(name.to_string());
        }
    }
    report.fact("protocols", list);
}

fn invalid(report: &mut Report, p: &str, want: &str, found: &Value) {
    report.error(codes::INVALID_MEMBER, format!("{p} must be {want}, found {}", type_name(found)), at(p));
}
