//! The parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! OAuth 2.0 Protected Resource Metadata (RFC 9728): a JSON object (section 3.2) describing a
//! protected resource: its identifier `resource` (REQUIRED), the issuers of the authorization servers
//! that protect it, its JWK Set, scopes, bearer methods and documentation pages (section 2). The
//! document lives at the resource identifier with `/.well-known/oauth-protected-resource` inserted
//! between the host and the path (section 3.1, the RFC 8414 construction), and its `resource` MUST be
//! identical to the identifier the URL was built from (section 3.3).

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, media_type_diagnostics, read_document};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Report};
use wellknown_oauth_metadata::location::{Construction, expected_issuer_from};
use wellknown_oauth_metadata::metadata::host_name;

use crate::codes;

/// Fetch cap (bytes after content decoding), the issuer-metadata cap (1 MiB). Larger bodies are
/// truncated by the fetcher and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// The report kind of a document read as protected resource metadata.
pub const KIND: &str = "oauth_protected_resource";

/// How the document is read as JSON (RFC 9728 section 3.2): `application/json`, a JSON object;
/// repeated member names are warnings (RFC 8259 section 4).
pub const PROTECTED_RESOURCE_JSON: JsonRules = JsonRules {
    wrong_media_type: |raw, parsed| match parsed {
        Some(m) => format!(
            "protected resource metadata is served as application/json (RFC 9728 section 3.2), not {}",
            m.essence
        ),
        None => {
            format!("protected resource metadata is served as application/json, not {:?}", raw.unwrap_or("nothing"))
        }
    },
    wrong_top_level: |found| {
        format!("protected resource metadata is a JSON object (RFC 9728 section 3.2), found {found}")
    },
    ..JsonRules::JSON
};

/// The JSON type of a protected resource metadata member (RFC 9728 section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    /// `resource`: checked on its own (https, no fragment, identical to the expected identifier).
    Resource,
    /// `authorization_servers`: a non-empty array of issuer identifiers.
    Issuers,
    /// A URL of a JWK Set (`jwks_uri`): https, followed by the `jwks` probe.
    Jwks,
    /// A page for people (`resource_documentation`, `resource_policy_uri`, `resource_tos_uri`).
    Page,
    /// A non-empty array of strings.
    Strings,
    /// `bearer_methods_supported`: an array of `header`, `body`, `query`; `[]` is allowed.
    BearerMethods,
    /// An array of JWS algorithms that must not hold `none`.
    Algorithms,
    /// A JSON boolean.
    Bool,
    /// A JSON string (`resource_name`, `signed_metadata`).
    Text,
}

/// Every member RFC 9728 section 2 defines, with its type. Others are tolerated; their http(s) URL
/// strings still become `url` candidates.
pub const MEMBERS: &[(&str, Member)] = &[
    ("resource", Member::Resource),
    ("authorization_servers", Member::Issuers),
    ("jwks_uri", Member::Jwks),
    ("scopes_supported", Member::Strings),
    ("bearer_methods_supported", Member::BearerMethods),
    ("resource_signing_alg_values_supported", Member::Algorithms),
    ("resource_name", Member::Text),
    ("resource_documentation", Member::Page),
    ("resource_policy_uri", Member::Page),
    ("resource_tos_uri", Member::Page),
    ("tls_client_certificate_bound_access_tokens", Member::Bool),
    ("authorization_details_types_supported", Member::Strings),
    ("dpop_signing_alg_values_supported", Member::Algorithms),
    ("dpop_bound_access_tokens_required", Member::Bool),
    ("signed_metadata", Member::Text),
];

fn member(name: &str) -> Option<Member> {
    // `resource_name#fr` (RFC 9728 section 2.1, human-readable members with a language tag).
    let base = name.split('#').next().unwrap_or(name);
    MEMBERS.iter().find(|(n, _)| *n == base).map(|(_, m)| *m)
}

/// Interprets a protected resource metadata document fetched as `meta`. Pure, never panics.
///
/// Report kind [`KIND`] (`invalid` when the body is not a JSON object). The resource identifier
/// expected is read from the URL first requested (`meta.requested_url`, before any redirect) by
/// inverting the inserted construction: `https://r.example/.well-known/oauth-protected-resource/api`
/// expects `https://r.example/api`. Facts: `expected_resource` (or null), `construction`
/// (`root`, `inserted`, `appended`, or null), `resource` (declared), `authorization_server_count`.
///
/// Candidates: `url` `resource` (the identifier); `issuer` `authorization_server` for each entry of
/// `authorization_servers` (the engine hands issuers to the OAuth/OpenID metadata probes); `endpoint`
/// `jwks_uri` (and a follow-up to the `jwks` probe, role `jwks_uri`, which reports
/// `private_key_material`); `url` for the documentation, policy and terms pages and for http(s)
/// strings of unknown members; `host` `endpoint_host` for every other host named. Each is located
/// by its JSON pointer. When `resource` does not match, every candidate carries the flag
/// `resource_mismatch` (clients MUST NOT use the document, section 3.3).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, KIND);
    if let Some(d) = media_type_diagnostics(meta.content_type.as_deref(), &PROTECTED_RESOURCE_JSON) {
        report.push(d);
    }
    if meta.truncated || body.len() as u64 > MAX_BODY_BYTES {
        report.error(shared::TOO_LARGE, format!("body exceeds {MAX_BODY_BYTES} bytes"), None);
    }
    let expected = expected_resource(meta);
    record_location(&mut report, meta, expected.as_ref());
    let doc = read_document(body, &PROTECTED_RESOURCE_JSON);
    for d in doc.diagnostics {
        report.push(d);
    }
    let Some(Value::Object(object)) = doc.value else {
        report.kind = "invalid".into();
        return report;
    };
    let own_host = meta.url.host().map(|h| wellknown_core::Host::from(h).name());
    read_object(&mut report, &object, expected.as_ref().map(|(e, _)| e.as_str()), own_host.as_deref());
    report.fact("resource", object.get("resource").cloned().unwrap_or(Value::Null));
    let count = object.get("authorization_servers").and_then(Value::as_array).map_or(0, Vec::len);
    report.fact("authorization_server_count", count);
    // A repeated member name: every occurrence is read, so a `resource` or `authorization_servers`
    // a first-wins client would use is checked and revealed too.
    for alternate in doc.alternates {
        if let Value::Object(alt) = alternate {
            let mut seen = Report::new(crate::PROBE_ID, &meta.url, KIND);
            read_object(&mut seen, &alt, expected.as_ref().map(|(e, _)| e.as_str()), own_host.as_deref());
            merge_alternate(&mut report, seen);
        }
    }
    report
}

/// The resource identifier the URL first requested was built from, and the construction.
pub fn expected_resource(meta: &FetchMeta) -> Option<(String, Construction)> {
    expected_issuer_from(&meta.requested_url, crate::SUFFIX).or_else(|| expected_issuer_from(&meta.url, crate::SUFFIX))
}

fn record_location(report: &mut Report, meta: &FetchMeta, expected: Option<&(String, Construction)>) {
    if meta.was_redirected() {
        report.fact("redirected_from", meta.requested_url.as_str());
    }
    match expected {
        None => {
            // A URL handed over by a `resource_metadata` parameter (RFC 9728 section 5.1) may be anywhere.
            report.fact("expected_resource", Value::Null);
            report.fact("construction", Value::Null);
        }
        Some((resource, construction)) => {
            report.fact("expected_resource", resource.as_str());
            report.fact("construction", construction.as_str());
            if *construction == Construction::Appended {
                report.error(
                    "wrong_well_known_location",
                    format!(
                        "found at {resource}/.well-known/{}: RFC 9728 section 3.1 inserts the suffix between the \
                         host and the path ({})",
                        crate::SUFFIX,
                        wellknown_oauth_metadata::rfc8414_metadata_url(
                            &Url::parse(resource).unwrap_or_else(|_| meta.url.clone()),
                            crate::SUFFIX
                        )
                    ),
                    None,
                );
            }
        }
    }
}

/// The member checks and candidates of one reading of the object.
fn read_object(report: &mut Report, object: &Map<String, Value>, expected: Option<&str>, own_host: Option<&str>) {
    let mismatch = check_resource(report, object, expected);
    for (name, value) in object {
        check_member(report, name, value);
    }
    if !object.contains_key("scopes_supported") {
        report.warn("missing_scopes_supported", "scopes_supported is RECOMMENDED (RFC 9728 section 2)", at(""));
    }
    if !object.keys().any(|k| k == "resource_name" || k.starts_with("resource_name#")) {
        report.warn("missing_resource_name", "resource_name is RECOMMENDED (RFC 9728 section 2)", at(""));
    }
    host_candidates(report, own_host);
    if mismatch {
        // `report` holds this reading's candidates only (diagnostics come before any candidate).
        let flagged: Vec<Candidate> =
            report.candidates.iter().map(|c| c.to_candidate().with_flag(codes::RESOURCE_MISMATCH)).collect();
        report.candidates = Default::default();
        report.candidates.extend(flagged);
    }
}

/// Checks `resource` and adds its candidate. Returns true when it does not match the expected
/// identifier.
fn check_resource(report: &mut Report, object: &Map<String, Value>, expected: Option<&str>) -> bool {
    let loc = at("/resource");
    let value = match object.get("resource") {
        None => {
            report.error("missing_resource", "resource is REQUIRED (RFC 9728 section 2)", at(""));
            return false;
        }
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            report.error("invalid_resource", format!("resource must be a string URL, found {}", type_name(other)), loc);
            return false;
        }
    };
    let Some(url) = Url::parse(value).ok().filter(Url::has_host) else {
        report.error("invalid_resource", format!("resource {value:?} is not an absolute URL"), loc);
        return false;
    };
    if url.scheme() != "https" {
        report.error(
            codes::RESOURCE_NOT_HTTPS,
            format!("resource {value:?} must use the https scheme (RFC 9728 section 1.2)"),
            loc.clone(),
        );
    }
    if url.fragment().is_some() || value.contains('#') {
        report.error(
            codes::RESOURCE_HAS_FRAGMENT,
            format!("resource {value:?} must have no fragment (RFC 9728 section 1.2)"),
            loc.clone(),
        );
    }
    if url.query().is_some() {
        report.warn(
            codes::RESOURCE_HAS_QUERY,
            format!("resource {value:?} SHOULD NOT have a query component (RFC 9728 section 1.2, RFC 8707 section 2)"),
            loc.clone(),
        );
    }
    let mismatch = expected.is_some_and(|e| !same_resource(value, e));
    if let Some(e) = expected.filter(|_| mismatch) {
        report.error(
            codes::RESOURCE_MISMATCH,
            format!(
                "resource {value:?} is not {e:?}, the resource identifier this document's URL was built from: the \
                 metadata MUST NOT be used (RFC 9728 section 3.3)"
            ),
            loc.clone(),
        );
    }
    report.candidate(Candidate::new(CandidateKind::Url, "resource", url.as_str(), loc));
    mismatch
}

/// RFC 9728 section 3.1 removes a terminating `/` before inserting the suffix, so `https://r.example/`
/// and `https://r.example` (or `.../api/` and `.../api`) share a metadata URL: both match.
fn same_resource(declared: &str, expected: &str) -> bool {
    declared == expected || declared.strip_suffix('/') == Some(expected)
}

/// Type-checks one member and adds its candidates.
fn check_member(report: &mut Report, name: &str, value: &Value) {
    let ptr = pointer("", name);
    // `resource_name#fr` is diagnosed as `invalid_resource_name` (codes are snake_case names).
    let base = name.split('#').next().unwrap_or(name);
    let invalid = |report: &mut Report, why: String| report.error(&format!("invalid_{base}"), why, at(ptr.clone()));
    let Some(kind) = member(name) else {
        if let Some(url) = value.as_str().and_then(http_url) {
            report.candidate(Candidate::new(CandidateKind::Url, name, url.as_str(), at(ptr)));
        }
        return;
    };
    match kind {
        Member::Resource => {}
        Member::Jwks | Member::Page => {
            let Some(s) = value.as_str() else {
                return invalid(report, format!("{name} must be a string URL, found {}", type_name(value)));
            };
            let Some(url) = http_url(s) else {
                return invalid(report, format!("{name} {s:?} is not an absolute http(s) URL"));
            };
            if kind == Member::Jwks {
                if url.scheme() != "https" {
                    report.error(
                        "insecure_endpoint",
                        format!("jwks_uri {s:?} MUST use https (RFC 9728 section 2)"),
                        at(ptr.clone()),
                    );
                }
                report.follow_up("jwks", url.clone(), "jwks_uri");
                report.candidate(Candidate::new(CandidateKind::Endpoint, name, url.as_str(), at(ptr)));
            } else {
                report.candidate(Candidate::new(CandidateKind::Url, name, url.as_str(), at(ptr)));
            }
        }
        Member::Bool if !value.is_boolean() => {
            invalid(report, format!("{name} must be a boolean, found {}", type_name(value)))
        }
        Member::Text if !value.is_string() => {
            invalid(report, format!("{name} must be a string, found {}", type_name(value)))
        }
        Member::Bool | Member::Text => {}
        Member::Issuers | Member::Strings | Member::BearerMethods | Member::Algorithms => {
            let Some(items) = value.as_array() else {
                return invalid(report, format!("{name} must be a JSON array of strings, found {}", type_name(value)));
            };
            if items.is_empty() && kind != Member::BearerMethods {
                invalid(
                    report,
                    format!(
                        "{name} is an empty array: members with zero elements MUST be omitted (RFC 9728 section 3.2)"
                    ),
                );
            }
            for (i, item) in items.iter().enumerate() {
                let p = pointer(&ptr, &i.to_string());
                let Some(s) = item.as_str() else {
                    report.error(
                        &format!("invalid_{base}"),
                        format!("{name} must hold strings, item {i} is {}", type_name(item)),
                        at(p),
                    );
                    continue;
                };
                match kind {
                    Member::Issuers => authorization_server(report, s, &p),
                    Member::BearerMethods if !matches!(s, "header" | "body" | "query") => report.warn(
                        codes::UNKNOWN_BEARER_METHOD,
                        format!("bearer method {s:?} is none of header, body, query (RFC 9728 section 2, RFC 6750)"),
                        at(p),
                    ),
                    Member::Algorithms if s == "none" => report.error(
                        "none_alg_not_allowed",
                        format!("{name} must not list \"none\" (RFC 9728 section 2)"),
                        at(p),
                    ),
                    _ => {}
                }
            }
        }
    }
}

/// One `authorization_servers` entry: an issuer identifier (RFC 8414 section 2: https, no query or
/// fragment), kept as declared.
fn authorization_server(report: &mut Report, s: &str, ptr: &str) {
    let Some(url) = Url::parse(s).ok().filter(Url::has_host) else {
        report.error(
            "invalid_authorization_servers",
            format!("authorization server {s:?} is not an absolute URL"),
            at(ptr),
        );
        return;
    };
    if url.scheme() != "https" {
        report.error(
            "issuer_not_https",
            format!("authorization server issuer {s:?} must use https (RFC 8414 section 2)"),
            at(ptr),
        );
    }
    if url.query().is_some() || url.fragment().is_some() || s.contains('?') || s.contains('#') {
        report.error(
            "issuer_has_query_or_fragment",
            format!("authorization server issuer {s:?} must have no query or fragment (RFC 8414 section 2)"),
            at(ptr),
        );
    }
    report.candidate(Candidate::new(CandidateKind::Issuer, "authorization_server", s, at(ptr)));
}

/// An absolute http(s) URL, or None.
fn http_url(s: &str) -> Option<Url> {
    Url::parse(s).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
}

/// `endpoint_host` candidates for the hosts of URL, endpoint and issuer candidates other than the
/// document's own host, once each, located at their first member.
fn host_candidates(report: &mut Report, own_host: Option<&str>) {
    let mut seen: Vec<String> = own_host.map(str::to_string).into_iter().collect();
    let mut new = Vec::new();
    for c in &report.candidates {
        if !matches!(c.kind(), CandidateKind::Url | CandidateKind::Endpoint | CandidateKind::Issuer) {
            continue;
        }
        let Some(host) = Url::parse(c.value()).ok().as_ref().and_then(host_name) else { continue };
        if !seen.contains(&host) {
            seen.push(host.clone());
            new.push(Candidate::new(CandidateKind::Host, "endpoint_host", host, c.locator()));
        }
    }
    report.candidates.extend(new);
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::{Locator, Timestamp};

    fn run_at(url: &str, body: &str) -> Report {
        let meta = FetchMeta::synthetic(Url::parse(url).unwrap(), Some("application/json"), Timestamp::UNIX_EPOCH);
        interpret(body.as_bytes(), &meta)
    }

    fn run(body: &str) -> Report {
        run_at("https://r.example/.well-known/oauth-protected-resource/api", body)
    }

    fn codes(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    fn loc(p: &str) -> Option<Locator> {
        Some(Locator::JsonPointer(p.into()))
    }

    const OK: &str = r#""scopes_supported":["a"],"resource_name":"R""#;

    #[test]
    fn inserted_path_matches_with_or_without_terminating_slash() {
        for resource in ["https://r.example/api", "https://r.example/api/"] {
            let r = run(&format!(r#"{{"resource":"{resource}",{OK}}}"#));
            assert_eq!(codes(&r), Vec::<&str>::new(), "{resource}");
            assert_eq!(r.facts["expected_resource"], "https://r.example/api");
            assert_eq!(r.facts["construction"], "inserted");
        }
        let r = run(&format!(r#"{{"resource":"https://r.example/other",{OK}}}"#));
        assert_eq!(codes(&r), ["resource_mismatch"]);
        assert_eq!(r.errors[0].locator, loc("/resource"));
        assert!(r.candidates.get(0).unwrap().has_flag("resource_mismatch"));
    }

    #[test]
    fn resource_identifier_rules() {
        let r = run_at(
            "http://r.example/.well-known/oauth-protected-resource",
            &format!(r#"{{"resource":"http://r.example",{OK}}}"#),
        );
        assert_eq!(codes(&r), ["resource_not_https"]);
        let r = run_at(
            "https://r.example/.well-known/oauth-protected-resource",
            &format!(r#"{{"resource":"https://r.example/#f",{OK}}}"#),
        );
        assert_eq!(codes(&r), ["resource_has_fragment", "resource_mismatch"]);
        let r = run_at(
            "https://r.example/.well-known/oauth-protected-resource",
            &format!(r#"{{"resource":"https://r.example/?t=1",{OK}}}"#),
        );
        assert_eq!(codes(&r), ["resource_mismatch", "resource_has_query"]);
        assert_eq!(codes(&run(&format!("{{{OK}}}"))), ["missing_resource"]);
        assert_eq!(codes(&run(&format!(r#"{{"resource":7,{OK}}}"#))), ["invalid_resource"]);
        assert_eq!(codes(&run(&format!(r#"{{"resource":"api",{OK}}}"#))), ["invalid_resource"]);
    }

    #[test]
    fn appended_location_is_wrong() {
        let r = run_at(
            "https://r.example/api/.well-known/oauth-protected-resource",
            &format!(r#"{{"resource":"https://r.example/api",{OK}}}"#),
        );
        assert_eq!(codes(&r), ["wrong_well_known_location"]);
        assert!(r.errors[0].message.contains("https://r.example/.well-known/oauth-protected-resource/api"));
    }

    #[test]
    fn a_url_outside_the_well_known_location_checks_no_identity() {
        let r = run_at("https://r.example/meta.json", &format!(r#"{{"resource":"https://x.example/y",{OK}}}"#));
        assert_eq!(codes(&r), Vec::<&str>::new());
        assert_eq!(r.facts["expected_resource"], Value::Null);
    }

    #[test]
    fn authorization_servers_jwks_and_members() {
        let r = run(r#"{"resource":"https://r.example/api","resource_name":"R","authorization_servers":
            ["https://as.example/t1","http://as2.example","https://as3.example?x",5],
            "jwks_uri":"http://keys.example/jwks.json","bearer_methods_supported":["header","cookie"],
            "resource_signing_alg_values_supported":["ES256","none"],"dpop_bound_access_tokens_required":"yes",
            "resource_documentation":"/docs","resource_tos_uri":"https://r.example/tos","x_status":"https://status.example/"}"#);
        assert_eq!(
            codes(&r),
            [
                "issuer_not_https",
                "issuer_has_query_or_fragment",
                "invalid_authorization_servers",
                "invalid_dpop_bound_access_tokens_required",
                "insecure_endpoint",
                "invalid_resource_documentation",
                "none_alg_not_allowed",
                "unknown_bearer_method",
                "missing_scopes_supported"
            ]
        );
        let issuers: Vec<&str> = r.values(CandidateKind::Issuer).collect();
        assert_eq!(issuers, ["https://as.example/t1", "http://as2.example", "https://as3.example?x"]);
        let jwks = r.candidates.iter().find(|c| c.relation() == "jwks_uri").unwrap();
        assert_eq!((jwks.kind(), jwks.value()), (CandidateKind::Endpoint, "http://keys.example/jwks.json"));
        assert_eq!(r.follow_ups.len(), 1);
        assert_eq!((r.follow_ups[0].probe.as_str(), r.follow_ups[0].role.as_str()), ("jwks", "jwks_uri"));
        let mut hosts: Vec<&str> = r.values(CandidateKind::Host).collect();
        hosts.sort_unstable();
        assert_eq!(hosts, ["as.example", "as2.example", "as3.example", "keys.example", "status.example"]);
        assert_eq!(r.facts["authorization_server_count"], 4);
    }

    #[test]
    fn empty_bearer_methods_is_allowed_other_empty_arrays_are_not() {
        let r = run(
            r#"{"resource":"https://r.example/api","resource_name":"R","scopes_supported":[],"bearer_methods_supported":[]}"#,
        );
        assert_eq!(codes(&r), ["invalid_scopes_supported"]);
    }

    #[test]
    fn skeleton_errors() {
        let meta = FetchMeta::synthetic(
            Url::parse("https://r.example/.well-known/oauth-protected-resource").unwrap(),
            Some("text/html"),
            Timestamp::UNIX_EPOCH,
        );
        let r = interpret(b"<!doctype html><title>404</title>", &meta);
        assert_eq!(codes(&r), ["invalid_content_type", "html_document"]);
        assert_eq!(r.kind, "invalid");
        assert_eq!(codes(&run("[1]")), ["not_json_object"]);
    }

    #[test]
    fn a_repeated_resource_is_read_both_ways() {
        let r = run(
            r#"{"resource":"https://evil.example/","resource":"https://r.example/api","scopes_supported":["a"],"resource_name":"R"}"#,
        );
        assert_eq!(codes(&r), ["resource_mismatch", "duplicate_member"]);
        let urls: Vec<&str> = r.values(CandidateKind::Url).collect();
        assert_eq!(urls, ["https://r.example/api", "https://evil.example/"]);
    }
}
