//! The AASA parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! Checks, in order: location (`legacy_location`), transport (`insecure_transport`, `redirected`,
//! `too_large`), media type, JSON, then the services `applinks`, `webcredentials`, `appclips` and
//! `activitycontinuation` (in that order, whatever the document's key order) with JSON-pointer
//! locators. Everything readable is kept as candidates even when the document is invalid.

use std::collections::HashSet;

use serde_json::{Map, Value};
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, string_items, type_name};
use wellknown_core::json_document::{JsonRules, media_type_diagnostics, read_document};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report};

use crate::app_id::check_app_id;
use crate::pattern::{has_dot_segment, split_not, url_for};
use crate::{FETCH_CAP_BYTES, LEGACY_PATH, MAX_DOCUMENT_BYTES, PROBE_ID, codes};

/// Services whose value is `{"apps": [App ID, ...]}`.
const APP_LIST_SERVICES: [&str; 3] = ["webcredentials", "appclips", "activitycontinuation"];

/// Interprets an apple-app-site-association document fetched as described by `meta`.
///
/// Returns a report of kind `aasa` (or `invalid` when the body is not a JSON object), with the codes
/// of [`crate::codes`] and the shared ones, and candidates:
/// * `app` `apple:<TeamID.bundleID>`, relation = the service (`applinks`, `webcredentials`,
///   `appclips`, `activitycontinuation`); malformed App IDs flagged `invalid`;
/// * `path` patterns of `applinks` (old `paths` and component `/`), relation `applinks_path`,
///   flagged `excluded` for `NOT ` / `"exclude": true`, `invalid_exclude` for an `exclude` that is
///   not a Boolean, `dot_segment` for a pattern with a `.` / `..` segment (`dot_segment_path`),
///   hints `query`, `fragment`, `comment`;
/// * `url` for each literal pattern (no `*`, `?`, `$(...)`, no dot segment) on the document's
///   origin, relation `aasa_path` (once per URL, with its pattern's flags), and that origin's `host`
///   (once).
///
/// A document with none of the four services is `no_services` (warning).
///
/// Facts: `location` (`well_known` | `legacy`), `services`, `applinks_format` (`components` |
/// `paths` | `mixed`) when applinks has entries.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(PROBE_ID, &meta.url, "aasa");
    let legacy = meta.url.path() == LEGACY_PATH;
    if legacy {
        report.warn(
            shared::LEGACY_LOCATION,
            "served at the legacy root location; current systems read /.well-known/apple-app-site-association",
            None,
        );
    }
    report.fact("location", if legacy { "legacy" } else { "well_known" });
    check_transport(&mut report, meta, body.len());
    let parsed = read_document(body, &AASA_JSON);
    for d in media_type_diagnostics(meta.content_type.as_deref(), &AASA_JSON).into_iter().chain(parsed.diagnostics) {
        report.push(d);
    }
    let Some(Value::Object(obj)) = &parsed.value else {
        report.kind = "invalid".to_string();
        return report;
    };
    let services: Vec<&str> =
        ["applinks"].into_iter().chain(APP_LIST_SERVICES).filter(|s| obj.contains_key(*s)).collect();
    report.fact("services", services.clone());
    if services.is_empty() {
        report.warn(
            codes::NO_SERVICES,
            "the document declares none of applinks, webcredentials, appclips and activitycontinuation, so it \
             associates no app with this domain",
            at(""),
        );
    }
    let mut report = walk(report, obj, meta);
    // A repeated member name (`duplicate_member`): the document is read again keeping each earlier
    // occurrence, so an app or path a first-wins reader would use is kept too.
    for alternate in parsed.alternates {
        if let Some(obj) = alternate.as_object() {
            let seen = walk(Report::new(PROBE_ID, &meta.url, "aasa"), obj, meta);
            merge_alternate(&mut report, seen);
        }
    }
    report
}

/// Reads the services of the top-level object `obj` into `report`.
fn walk(report: Report, obj: &Map<String, Value>, meta: &FetchMeta) -> Report {
    let mut walker = Walker {
        report,
        origin: Origin::from_url(&meta.url).ok(),
        urls: HashSet::new(),
        host_done: false,
        formats: Formats::default(),
    };
    if let Some(applinks) = obj.get("applinks") {
        walker.applinks(applinks);
    }
    for service in APP_LIST_SERVICES {
        if let Some(v) = obj.get(service) {
            walker.app_list_service(service, v);
        }
    }
    walker.report
}

/// `insecure_transport` (http), `redirected` (any hop), `too_large` (over 128 KB or truncated).
fn check_transport(report: &mut Report, meta: &FetchMeta, len: usize) {
    if meta.url.scheme() != "https" {
        report.error(shared::INSECURE_TRANSPORT, "Apple fetches the association file only over https", None);
    }
    if let Some(first) = meta.redirect_chain.first() {
        report.error(
            shared::REDIRECTED,
            format!(
                "served through {} redirect(s) from {}; Apple does not follow redirects for this file (QA1916)",
                meta.redirect_chain.len(),
                first.url
            ),
            None,
        );
    }
    if len > MAX_DOCUMENT_BYTES || meta.truncated {
        let size = if meta.truncated { format!("more than {FETCH_CAP_BYTES}") } else { len.to_string() };
        report.error(
            shared::TOO_LARGE,
            format!("{size} bytes uncompressed; Apple accepts at most {MAX_DOCUMENT_BYTES} bytes (128 KB)"),
            None,
        );
    }
}

/// How the association file is read as JSON: `application/json` or no type at all (Apple accepts
/// both; `invalid_content_type` otherwise, `invalid_charset` for a charset other than utf-8), a JSON
/// object, an HTML page reported as `invalid_json`.
pub const AASA_JSON: JsonRules = JsonRules {
    absent_ok: true,
    wrong_media_type: |raw, _| {
        format!("Content-Type {:?}: the file must be served as application/json (or without a type)", raw.unwrap_or(""))
    },
    html_as_invalid_json: true,
    wrong_top_level: |found| format!("the document must be a JSON object, found {found}"),
    ..JsonRules::JSON
};

/// How many `details` entries use each applinks format.
#[derive(Debug, Default)]
struct Formats {
    old: usize,
    new: usize,
    both: usize,
}

struct Walker {
    report: Report,
    origin: Option<Origin>,
    urls: HashSet<String>,
    host_done: bool,
    formats: Formats,
}

impl Walker {
    fn applinks(&mut self, v: &Value) {
        let p = "/applinks";
        let Some(obj) = v.as_object() else {
            self.report.error(
                shared::NOT_JSON_OBJECT,
                format!("applinks must be an object, found {}", type_name(v)),
                at(p),
            );
            return;
        };
        let dp = pointer(p, "details");
        match obj.get("details") {
            None => self.report.error(codes::DETAILS_NOT_ARRAY, "applinks has no details array", at(p)),
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.detail(item, &pointer(&dp, &i.to_string()));
                }
            }
            Some(Value::Object(by_app_id)) => {
                self.report.error(
                    codes::DETAILS_NOT_ARRAY,
                    "details is an object keyed by App ID (early iOS 9 form); it must be an array of entries",
                    at(&dp),
                );
                for (app_id, entry) in by_app_id {
                    let ep = pointer(&dp, app_id);
                    self.app(app_id, "applinks", &ep);
                    if let Some(paths) = entry.as_object().and_then(|e| e.get("paths")) {
                        self.formats.old += 1;
                        self.paths(paths, &pointer(&ep, "paths"));
                    }
                }
            }
            Some(other) => self.report.error(
                codes::DETAILS_NOT_ARRAY,
                format!("details must be an array, found {}", type_name(other)),
                at(&dp),
            ),
        }
        let f = &self.formats;
        if f.both > 0 || (f.old > 0 && f.new > 0) {
            self.report.warn(
                codes::MIXED_APPLINKS_FORMATS,
                "applinks mixes the old (appID, paths) and iOS 13+ (appIDs, components) formats; iOS 13+ reads only \
                 the new one",
                at(&dp),
            );
            self.report.fact("applinks_format", "mixed");
        } else if f.old > 0 {
            self.report.warn(
                codes::LEGACY_APPLINKS_FORMAT,
                "applinks uses only the pre-iOS 13 format (appID, paths); iOS 13+ prefers appIDs and components",
                at(&dp),
            );
            self.report.fact("applinks_format", "paths");
        } else if f.new > 0 {
            self.report.fact("applinks_format", "components");
        }
    }

    fn detail(&mut self, item: &Value, p: &str) {
        let Some(d) = item.as_object() else {
            self.report.error(
                shared::NOT_JSON_OBJECT,
                format!("a details entry must be an object, found {}", type_name(item)),
                at(p),
            );
            return;
        };
        let old = d.contains_key("appID") || d.contains_key("paths");
        let new = d.contains_key("appIDs") || d.contains_key("components");
        match (old, new) {
            (true, true) => self.formats.both += 1,
            (true, false) => self.formats.old += 1,
            (false, true) => self.formats.new += 1,
            (false, false) => {}
        }
        match d.get("appID") {
            Some(Value::String(s)) => self.app(s, "applinks", &pointer(p, "appID")),
            Some(other) => self.report.error(
                codes::INVALID_APP_ID,
                format!("appID must be a string, found {}", type_name(other)),
                at(pointer(p, "appID")),
            ),
            None => {}
        }
        if let Some(v) = d.get("appIDs") {
            self.app_ids(v, &pointer(p, "appIDs"));
        }
        if !d.contains_key("appID") && !d.contains_key("appIDs") {
            self.report.error(codes::INVALID_APP_IDS, "details entry names no app (appIDs)", at(p));
        }
        if let Some(v) = d.get("paths") {
            self.paths(v, &pointer(p, "paths"));
        }
        if let Some(v) = d.get("components") {
            self.components(v, &pointer(p, "components"));
        }
    }

    fn app_ids(&mut self, v: &Value, p: &str) {
        let Some(items) = string_items(v, p) else {
            self.report.error(
                codes::INVALID_APP_IDS,
                format!("appIDs must be an array of App ID strings, found {}", type_name(v)),
                at(p),
            );
            return;
        };
        for (ip, item) in items {
            match item {
                Some(s) => self.app(s, "applinks", &ip),
                None => self.report.error(codes::INVALID_APP_IDS, "appIDs entries must be strings", at(ip)),
            }
        }
    }

    fn app_list_service(&mut self, service: &str, v: &Value) {
        let p = pointer("", service);
        let Some(obj) = v.as_object() else {
            self.report.error(
                shared::NOT_JSON_OBJECT,
                format!("{service} must be an object, found {}", type_name(v)),
                at(p),
            );
            return;
        };
        let ap = pointer(&p, "apps");
        let Some(items) = obj.get("apps").and_then(|a| string_items(a, &ap)) else {
            self.report.error(codes::INVALID_APP_ID, format!("{service} must have an apps array of App IDs"), at(p));
            return;
        };
        for (ip, item) in items {
            match item {
                Some(s) => self.app(s, service, &ip),
                None => self.report.error(codes::INVALID_APP_ID, "apps entries must be App ID strings", at(ip)),
            }
        }
    }

    fn app(&mut self, app_id: &str, service: &str, p: &str) {
        let valid = match check_app_id(app_id) {
            Ok(()) => true,
            Err(why) => {
                self.report.error(codes::INVALID_APP_ID, format!("App ID {app_id:?}: {why}"), at(p));
                false
            }
        };
        let id = app_id.trim();
        if id.is_empty() {
            return;
        }
        let c = Candidate::new(CandidateKind::App, service, format!("apple:{id}"), at(p));
        self.report.candidate(if valid { c } else { c.with_flag("invalid") });
    }

    fn paths(&mut self, v: &Value, p: &str) {
        let Some(items) = string_items(v, p) else {
            self.report.error(
                codes::INVALID_PATHS,
                format!("paths must be an array of strings, found {}", type_name(v)),
                at(p),
            );
            return;
        };
        for (ip, item) in items {
            match item {
                Some(s) => {
                    let (excluded, pattern) = split_not(s);
                    let flags: &[&'static str] = if excluded { &["excluded"] } else { &[] };
                    self.pattern(pattern, flags, &ip, Vec::new());
                }
                None => self.report.error(codes::INVALID_PATHS, "paths entries must be strings", at(ip)),
            }
        }
    }

    fn components(&mut self, v: &Value, p: &str) {
        let Some(items) = v.as_array() else {
            self.report.error(
                codes::INVALID_COMPONENT,
                format!("components must be an array, found {}", type_name(v)),
                at(p),
            );
            return;
        };
        for (i, item) in items.iter().enumerate() {
            self.component(item, &pointer(p, &i.to_string()));
        }
    }

    fn component(&mut self, item: &Value, p: &str) {
        let Some(c) = item.as_object() else {
            self.report.error(
                codes::INVALID_COMPONENT,
                format!("a component must be an object, found {}", type_name(item)),
                at(p),
            );
            return;
        };
        self.component_types(c, p);
        // `exclude` is a Boolean (Apple, "Components"): any other value leaves it unknown whether the
        // pattern is included, so its candidates are flagged `invalid_exclude` rather than silently
        // read as included (the `invalid_component` error names the member).
        let exclude = c.get("exclude");
        let excluded = exclude.and_then(Value::as_bool).unwrap_or(false);
        let invalid_exclude = exclude.is_some_and(|v| !v.is_boolean());
        let Some(path) = c.get("/").and_then(Value::as_str) else { return };
        let mut hints = Vec::new();
        match c.get("?") {
            Some(Value::String(q)) => hints.push(("query", q.clone())),
            Some(q @ Value::Object(_)) => hints.push(("query", q.to_string())),
            _ => {}
        }
        if let Some(f) = c.get("#").and_then(Value::as_str) {
            hints.push(("fragment", f.to_string()));
        }
        if let Some(comment) = c.get("comment").and_then(Value::as_str) {
            hints.push(("comment", comment.to_string()));
        }
        let mut flags = Vec::new();
        if excluded {
            flags.push("excluded");
        }
        if invalid_exclude {
            flags.push("invalid_exclude");
        }
        self.pattern(path, &flags, &pointer(p, "/"), hints);
    }

    /// `invalid_component` for members of the wrong type (checked in a fixed order, whatever the
    /// map's iteration order).
    fn component_types(&mut self, c: &Map<String, Value>, p: &str) {
        const MEMBERS: [&str; 7] = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"];
        for key in MEMBERS {
            let Some(value) = c.get(key) else { continue };
            let ok = match key {
                "?" => value.is_string() || value.as_object().is_some_and(|m| m.values().all(Value::is_string)),
                "exclude" | "caseSensitive" | "percentEncoded" => value.is_boolean(),
                _ => value.is_string(),
            };
            if !ok {
                self.report.error(
                    codes::INVALID_COMPONENT,
                    format!("component member {key:?} has the wrong type ({})", type_name(value)),
                    at(pointer(p, key)),
                );
            }
        }
    }

    /// The `path` candidate of a pattern (as written, with `flags` and hints), and the `url` it names
    /// on the document's origin when literal (with the same `flags`). A pattern with a dot segment
    /// is `dot_segment_path` and flagged `dot_segment`; it gives no `url`.
    fn pattern(&mut self, pattern: &str, flags: &[&'static str], p: &str, hints: Vec<(&str, String)>) {
        let mut c = Candidate::new(CandidateKind::Path, "applinks_path", pattern, at(p));
        for (k, v) in hints {
            c = c.with_hint(k, v);
        }
        for f in flags {
            c = c.with_flag(*f);
        }
        if has_dot_segment(pattern) {
            self.report.warn(
                codes::DOT_SEGMENT_PATH,
                format!(
                    "path pattern {pattern:?} has a dot segment (. or ..): a URL's path is normalised before it is \
                     matched (RFC 3986 section 5.2.4), so it matches no URL as written; no URL is derived from it"
                ),
                at(p),
            );
            self.report.candidate(c.with_flag("dot_segment"));
            return;
        }
        self.report.candidate(c);
        let Some(url) = self.origin.as_ref().and_then(|o| url_for(o, pattern)) else { return };
        if !self.urls.insert(url.to_string()) {
            return;
        }
        let mut c = Candidate::new(CandidateKind::Url, "aasa_path", url.as_str(), at(p));
        for f in flags {
            c = c.with_flag(*f);
        }
        self.report.candidate(c);
        if !self.host_done {
            self.host_done = true;
            if let Some(host) = self.origin.as_ref().map(|o| o.host().name()) {
                self.report.candidate(Candidate::new(CandidateKind::Host, "aasa_path", host, at(p)));
            }
        }
    }
}
