//! The statement-list parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! Order of checks: transport (`insecure_transport`, `redirected`, `too_large`), media type, JSON
//! (`bom`, `invalid_utf8`, `invalid_json`; an HTML soft 404 is `invalid_json`), top-level array, then
//! each statement with JSON-pointer locators. Every statement is read even when an earlier one is
//! invalid, so candidates survive errors (verifiers reject the whole list; we keep what it claims).

use std::collections::HashSet;

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, string_items, type_name};
use wellknown_core::json_document::{JsonRules, TopLevel, media_type_diagnostics, read_document};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Report};

use crate::codes;
use crate::syntax::{check_relation, check_site, is_valid_fingerprint, is_valid_package_name};

/// Fetch cap for a statement list (bytes after content decoding). Larger bodies are truncated by the
/// fetcher and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// Relation used for app candidates of a statement whose `relation` is missing or unusable.
const FALLBACK_RELATION: &str = "asset_link";

/// Interprets a statement list fetched as described by `meta`.
///
/// Returns a report of kind `statement_list` (or `invalid` when the body is not a JSON array), with
/// the codes of [`crate::codes`] and the shared ones, and candidates:
/// * `app` `android:<package_name>`, one per relation string of the statement (relation = that
///   string, or `asset_link` when the statement has none);
/// * `key` `sha256:<FINGERPRINT>` (upper-cased), relation `sha256_cert_fingerprint`, hint `app`;
/// * `origin` `<scheme>://<host>[:port]` of a `web` target, relation `asset_link`, hint `relations`,
///   and its `host` (once per document); a `site` with a path, query or fragment (`invalid_web_site`)
///   also gives the `url` it names, relation `asset_link`, flagged `invalid`;
/// * `url` of an `include`, relation `include`, and its `host`; plus a follow-up
///   `("assetlinks", url, "include")` unless verifiers would refuse it (http from an https list).
///
/// Invalid values are still emitted, flagged `invalid`. An `include` statement that also carries
/// `relation` or `target` is `include_with_other_fields` (not also `missing_relation` or
/// `missing_target`); what it carries is still read for candidates, before the include URL.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "statement_list");
    check_transport(&mut report, meta);
    let parsed = read_document(body, &STATEMENT_LIST_JSON);
    for d in
        media_type_diagnostics(meta.content_type.as_deref(), &STATEMENT_LIST_JSON).into_iter().chain(parsed.diagnostics)
    {
        report.push(d);
    }
    let Some(Value::Array(statements)) = &parsed.value else {
        report.kind = "invalid".to_string();
        return report;
    };
    if statements.is_empty() {
        report.error(codes::NO_STATEMENTS, "the statement list is empty", at(""));
    }
    let source_is_https = meta.url.scheme() == "https";
    let mut walker = Walker { report, source_is_https, hosts: HashSet::new(), includes: 0 };
    for (i, statement) in statements.iter().enumerate() {
        walker.statement(statement, &pointer("", &i.to_string()));
    }
    let includes = walker.includes;
    let mut report = walker.report;
    report.fact("statements", statements.len());
    report.fact("include_statements", includes);
    // A repeated member name (`duplicate_member`): the statements are read again keeping each earlier
    // occurrence, so an app, key, site or include a first-wins verifier would use is kept too (a key
    // with the app it signs there).
    for alternate in parsed.alternates {
        let Some(statements) = alternate.as_array() else { continue };
        let scratch = Report::new(crate::PROBE_ID, &meta.url, "statement_list");
        let mut walker = Walker { report: scratch, source_is_https, hosts: HashSet::new(), includes: 0 };
        for (i, statement) in statements.iter().enumerate() {
            walker.statement(statement, &pointer("", &i.to_string()));
        }
        merge_alternate(&mut report, walker.report);
    }
    report
}

/// `insecure_transport` (http), `redirected` (any hop), `too_large` (truncated at the cap).
fn check_transport(report: &mut Report, meta: &FetchMeta) {
    if meta.url.scheme() != "https" {
        report.error(
            shared::INSECURE_TRANSPORT,
            "statement lists are only trusted when served over https (App Links verification)",
            None,
        );
    }
    if let Some(first) = meta.redirect_chain.first() {
        report.error(
            shared::REDIRECTED,
            format!(
                "served through {} redirect(s) from {}; verifiers accept only a direct 200 (details.md: \
                 \"HTTP 30x redirects will not be followed\")",
                meta.redirect_chain.len(),
                first.url
            ),
            None,
        );
    }
    if meta.truncated {
        report.error(shared::TOO_LARGE, format!("body exceeds the {MAX_BODY_BYTES}-byte cap and was truncated"), None);
    }
}

/// How a statement list is read as JSON: `application/json` (`invalid_content_type` otherwise, and
/// `invalid_charset` for a charset other than utf-8), a JSON array, an HTML page reported as
/// `invalid_json` (as the Digital Asset Links API does).
pub const STATEMENT_LIST_JSON: JsonRules = JsonRules {
    wrong_media_type: |raw, parsed| match parsed {
        Some(m) => format!("Content-Type {:?} is not application/json (details.md \"Website\")", m.essence),
        None => format!("Content-Type {:?} is not application/json", raw.unwrap_or("")),
    },
    html_as_invalid_json: true,
    top_level: TopLevel::Array,
    wrong_top_level: |found| format!("a statement list must be a single JSON array, found {found}"),
    ..JsonRules::JSON
};

/// Walks statements, accumulating into the report.
struct Walker {
    report: Report,
    source_is_https: bool,
    hosts: HashSet<String>,
    includes: usize,
}

impl Walker {
    fn statement(&mut self, statement: &Value, p: &str) {
        let Some(obj) = statement.as_object() else {
            self.report.error(
                shared::NOT_JSON_OBJECT,
                format!("a statement must be an object, found {}", type_name(statement)),
                at(p),
            );
            return;
        };
        if let Some(include) = obj.get("include") {
            self.includes += 1;
            if obj.contains_key("relation") || obj.contains_key("target") {
                self.report.error(
                    codes::INCLUDE_WITH_OTHER_FIELDS,
                    "an include statement must not also carry relation or target (comptest2004)",
                    at(p),
                );
                // Read leniently for candidates. An include statement has no relation nor target,
                // so the one it lacks is not reported missing: `include_with_other_fields` says it.
                let relations = if obj.contains_key("relation") { self.relations(obj, p) } else { Vec::new() };
                if obj.contains_key("target") {
                    self.target(obj, p, &relations);
                }
            }
            self.include(include, &pointer(p, "include"));
            return;
        }
        let relations = self.relations(obj, p);
        self.target(obj, p, &relations);
    }

    /// Reads `relation`; returns the well-formed relation strings.
    fn relations(&mut self, obj: &Map<String, Value>, p: &str) -> Vec<String> {
        let rp = pointer(p, "relation");
        let Some(value) = obj.get("relation") else {
            self.report.error(codes::MISSING_RELATION, "statement has no relation array", at(p));
            return Vec::new();
        };
        let Some(items) = string_items(value, &rp) else {
            self.report.error(
                codes::INVALID_RELATION,
                format!("relation must be an array of strings, found {}", type_name(value)),
                at(rp),
            );
            return Vec::new();
        };
        if items.is_empty() {
            self.report.error(codes::MISSING_RELATION, "relation array is empty", at(rp));
        }
        let mut out = Vec::new();
        for (ip, item) in items {
            match item {
                None => self.report.error(codes::INVALID_RELATION, "relation entries must be strings", at(ip)),
                Some(s) => match check_relation(s) {
                    Ok(()) => out.push(s.to_string()),
                    Err(why) => self.report.error(codes::INVALID_RELATION, format!("relation {s:?}: {why}"), at(ip)),
                },
            }
        }
        out
    }

    fn target(&mut self, obj: &Map<String, Value>, p: &str, relations: &[String]) {
        let tp = pointer(p, "target");
        let Some(target) = obj.get("target") else {
            self.report.error(codes::MISSING_TARGET, "statement has no target", at(p));
            return;
        };
        let Some(t) = target.as_object() else {
            self.report.error(
                codes::MISSING_TARGET,
                format!("target must be an asset descriptor object, found {}", type_name(target)),
                at(tp),
            );
            return;
        };
        match t.get("namespace").and_then(Value::as_str) {
            Some("android_app") => self.android_app(t, &tp, relations),
            Some("web") => self.web(t, &tp, relations),
            Some(other) => self.report.error(
                codes::UNKNOWN_NAMESPACE,
                format!("unrecognized namespace {other:?} (expected android_app or web)"),
                at(pointer(&tp, "namespace")),
            ),
            None => self.report.error(codes::UNKNOWN_NAMESPACE, "target has no namespace string", at(tp)),
        }
    }

    fn android_app(&mut self, t: &Map<String, Value>, tp: &str, relations: &[String]) {
        let pp = pointer(tp, "package_name");
        let package = match t.get("package_name") {
            None => {
                self.report.error(codes::MISSING_PACKAGE_NAME, "android_app target has no package_name", at(tp));
                None
            }
            Some(Value::String(s)) if is_valid_package_name(s) => Some((s.as_str(), true)),
            Some(Value::String(s)) => {
                self.report.error(codes::INVALID_PACKAGE_NAME, format!("invalid package name {s:?}"), at(&pp));
                Some((s.trim(), false)).filter(|(s, _)| !s.is_empty())
            }
            Some(other) => {
                self.report.error(
                    codes::INVALID_PACKAGE_NAME,
                    format!("package_name must be a string, found {}", type_name(other)),
                    at(&pp),
                );
                None
            }
        };
        let app = package.map(|(name, valid)| (format!("android:{name}"), valid));
        if let Some((value, valid)) = &app {
            let names: Vec<&str> = if relations.is_empty() {
                vec![FALLBACK_RELATION]
            } else {
                relations.iter().map(String::as_str).collect()
            };
            for relation in names {
                let c = Candidate::new(CandidateKind::App, relation, value.clone(), at(&pp));
                self.report.candidate(if *valid { c } else { c.with_flag("invalid") });
            }
        }
        self.fingerprints(t, tp, app.as_ref().map(|(v, _)| v.as_str()));
    }

    fn fingerprints(&mut self, t: &Map<String, Value>, tp: &str, app: Option<&str>) {
        let fp = pointer(tp, "sha256_cert_fingerprints");
        let Some(value) = t.get("sha256_cert_fingerprints") else {
            self.report.error(codes::INVALID_FINGERPRINT, "android_app target has no sha256_cert_fingerprints", at(tp));
            return;
        };
        let Some(items) = string_items(value, &fp) else {
            self.report.error(
                codes::INVALID_FINGERPRINT,
                format!("sha256_cert_fingerprints must be an array, found {}", type_name(value)),
                at(fp),
            );
            return;
        };
        if items.is_empty() {
            self.report.error(
                codes::INVALID_FINGERPRINT,
                "sha256_cert_fingerprints must contain at least one certificate",
                at(&fp),
            );
        }
        for (ip, item) in items {
            let Some(s) = item else {
                self.report.error(codes::INVALID_FINGERPRINT, "fingerprints must be strings", at(ip));
                continue;
            };
            let valid = is_valid_fingerprint(s);
            if !valid {
                self.report.error(
                    codes::INVALID_FINGERPRINT,
                    format!(
                        "malformed certificate fingerprint {s:?}: expected 32 colon-separated upper-case hex bytes"
                    ),
                    at(&ip),
                );
            }
            let s = s.trim();
            if s.is_empty() {
                continue;
            }
            let mut c = Candidate::new(
                CandidateKind::Key,
                "sha256_cert_fingerprint",
                format!("sha256:{}", s.to_ascii_uppercase()),
                at(ip),
            );
            if let Some(app) = app {
                c = c.with_hint("app", app);
            }
            self.report.candidate(if valid { c } else { c.with_flag("invalid") });
        }
    }

    fn web(&mut self, t: &Map<String, Value>, tp: &str, relations: &[String]) {
        let sp = pointer(tp, "site");
        let site = match t.get("site") {
            Some(Value::String(s)) => s,
            Some(other) => {
                self.report.error(
                    codes::INVALID_WEB_SITE,
                    format!("site must be a string, found {}", type_name(other)),
                    at(sp),
                );
                return;
            }
            None => {
                self.report.error(codes::INVALID_WEB_SITE, "web target has no site field", at(tp));
                return;
            }
        };
        let check = check_site(site);
        if let Some(why) = check.problem {
            self.report.error(codes::INVALID_WEB_SITE, format!("site {site:?}: {why}"), at(&sp));
        }
        let Some(origin) = check.origin else { return };
        let with_relations = |c: Candidate| {
            let c = if relations.is_empty() { c } else { c.with_hint("relations", relations.join(" ")) };
            if check.problem.is_none() { c } else { c.with_flag("invalid") }
        };
        self.report.candidate(with_relations(Candidate::new(
            CandidateKind::Origin,
            "asset_link",
            origin.ascii(),
            at(&sp),
        )));
        // A site with a path, query or fragment is invalid, but the URL it names is a claim too.
        if let Some(url) = &check.url {
            self.report.candidate(with_relations(Candidate::new(
                CandidateKind::Url,
                "asset_link",
                url.as_str(),
                at(&sp),
            )));
        }
        self.host(origin.host().name(), "asset_link", &sp);
    }

    fn include(&mut self, value: &Value, ip: &str) {
        let Some(text) = value.as_str() else {
            self.report.error(
                codes::INVALID_INCLUDE,
                format!("include must be a URL string, found {}", type_name(value)),
                at(ip),
            );
            return;
        };
        let url = match Url::parse(text.trim()) {
            Ok(u) if (u.scheme() == "https" || u.scheme() == "http") && u.host().is_some() => u,
            _ => {
                self.report.error(
                    codes::INVALID_INCLUDE,
                    format!("include {text:?} is not an absolute http(s) URL"),
                    at(ip),
                );
                return;
            }
        };
        let refused = url.scheme() == "http" && self.source_is_https;
        if refused {
            self.report.error(
                codes::INSECURE_INCLUDE,
                format!(
                    "include {url} is not https; verifiers refuse insecure URLs in the fetch stack of a secure list"
                ),
                at(ip),
            );
        }
        let c = Candidate::new(CandidateKind::Url, "include", url.as_str(), at(ip));
        self.report.candidate(if refused { c.with_flag("insecure") } else { c });
        if let Some(host) = url.host_str() {
            self.host(wellknown_core::Host::from(url::Host::Domain(host)).name(), "include", ip);
        }
        if !refused {
            self.report.follow_up(crate::PROBE_ID, url, "include");
        }
    }

    /// Adds a `host` candidate once per document.
    fn host(&mut self, host: String, relation: &str, p: &str) {
        if self.hosts.insert(host.clone()) {
            self.report.candidate(Candidate::new(CandidateKind::Host, relation, host, at(p)));
        }
    }
}
