//! The DID document parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, TopLevel, read_object_into};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report, Severity};
use wellknown_oauth_metadata::jwks::{THUMBPRINT_URN_PREFIX, jwk_thumbprint};

use crate::codes;
use wellknown_did_web::{DidWeb, did_for_origin};

/// Fetch cap (bytes after content decoding): DID documents are a few KiB. Larger bodies are
/// truncated and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// Most URLs read from one map-valued `serviceEndpoint`.
const MAX_ENDPOINT_URLS: usize = 64;

/// The document as JSON: its media types and a top-level object.
const RULES: JsonRules = JsonRules {
    accepts: |m| matches!(m.essence.as_str(), "application/did+json" | "application/did+ld+json" | "application/json"),
    wrong_media_type: |raw, _| {
        format!(
            "Content-Type {:?} is not application/did+json, application/did+ld+json or application/json (DID Core 1.0 section 6)",
            raw.unwrap_or("")
        )
    },
    top_level: TopLevel::Object,
    wrong_top_level: |found| format!("a DID document is a JSON object, found {found}"),
    wrong_media_type_severity: Severity::Warning,
    charset_severity: Severity::Warning,
    ..JsonRules::JSON
};

/// Interprets a did:web DID document fetched as described by `meta`.
///
/// Returns a report of kind `did_document` (`invalid` when the body is not a JSON object) with
/// candidates located by JSON pointer:
/// * `url` `service_endpoint` for each URI of a service's `serviceEndpoint` (a string, an array, or
///   the string values of a map such as `{"instances": [...]}`), hints `type` and `service` (the
///   service id, resolved against the DID);
/// * `origin` `linked_domain` for the origins of a `LinkedDomains` service (DIF Well Known DID
///   Configuration section 4: a string origin or `{"origins": [...]}`);
/// * `origin` `also_known_as` for an `alsoKnownAs` http(s) URI or did:web DID;
/// * `key` `verification_method` for each verification method: the RFC 7638 thumbprint URN of a
///   `publicKeyJwk`, or `multibase:<value>` of a `publicKeyMultibase`, hints `id` and `type`.
///
/// Facts: `did` (the `id`), `did_matches_origin`, `services`, `verification_methods`. Diagnostics:
/// [`crate::codes::ALL`].
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "did_document");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    if meta.url.scheme() != "https" {
        report.error(shared::INSECURE_TRANSPORT, "did:web resolves over https only (did:web section 3.2)", None);
    }
    // A wrong media type is a warning (`RULES`): DID Core 1.0 section 6 names the media types without a MUST for the server.
    let Some((obj, alternates)) = read_object_into(&mut report, body, meta, &RULES) else {
        return report;
    };
    read(&mut report, meta, &obj);
    for alternate in alternates {
        let Some(o) = alternate.as_object() else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "did_document");
        read(&mut scratch, meta, o);
        merge_alternate(&mut report, scratch);
    }
    report
}

fn read(report: &mut Report, meta: &FetchMeta, obj: &Map<String, Value>) {
    let did = obj.get("id").and_then(Value::as_str);
    match did {
        None => {
            report.error(codes::MISSING_ID, "the DID document has no id string (DID Core 1.0 section 5.1.1)", at(""))
        }
        Some(did) => {
            report.fact("did", did);
            check_id(report, meta, did);
        }
    }
    let base = did.unwrap_or_default();
    services(report, obj.get("service"), base);
    also_known_as(report, obj.get("alsoKnownAs"));
    verification_methods(report, obj.get("verificationMethod"), base);
}

/// `not_did_web` / `id_mismatch`: the `id` must be the did:web DID of the document's URL.
fn check_id(report: &mut Report, meta: &FetchMeta, did: &str) {
    let Some(parsed) = DidWeb::parse(did) else {
        report.error(codes::NOT_DID_WEB, format!("id {did:?} is not a did:web DID"), at("/id"));
        return;
    };
    let expected = parsed.document_url();
    let matches = expected.as_ref().is_some_and(|u| u.as_str() == meta.url.as_str());
    report.fact("did_matches_origin", matches);
    if !matches {
        let served = Origin::from_url(&meta.url).map(|o| did_for_origin(&o)).unwrap_or_default();
        report.error(
            codes::ID_MISMATCH,
            format!(
                "id {did:?} resolves to {}, not to this document (served at {}, whose DID is {served:?}; did:web section 3.2)",
                expected.map(|u| u.to_string()).unwrap_or_default(),
                meta.url
            ),
            at("/id"),
        );
    }
}

/// A DID URL relative to the DID (`#key-1`) made absolute.
fn absolute(base: &str, id: &str) -> String {
    if id.starts_with('#') || id.starts_with('?') || id.starts_with('/') {
        format!("{base}{id}")
    } else {
        id.to_string()
    }
}

fn services(report: &mut Report, value: Option<&Value>, did: &str) {
    let Some(value) = value else { return };
    let Some(items) = value.as_array() else {
        report.error(
            codes::INVALID_SERVICE,
            format!("service must be an array, found {}", type_name(value)),
            at("/service"),
        );
        return;
    };
    report.fact("services", items.len());
    for (i, item) in items.iter().enumerate() {
        let p = pointer("/service", &i.to_string());
        let Some(s) = item.as_object() else {
            report.error(
                codes::INVALID_SERVICE,
                format!("a service must be an object, found {}", type_name(item)),
                at(&p),
            );
            continue;
        };
        let id = s.get("id").and_then(Value::as_str).map(|id| absolute(did, id));
        let kind = s.get("type").and_then(Value::as_str).map(str::to_string);
        for (name, present) in
            [("id", id.is_some()), ("type", kind.is_some() || s.get("type").is_some_and(Value::is_array))]
        {
            if !present {
                report.error(codes::INVALID_SERVICE, format!("a service without an {name} string"), at(&p));
            }
        }
        let Some(endpoint) = s.get("serviceEndpoint") else {
            report.error(codes::INVALID_SERVICE, "a service without a serviceEndpoint", at(&p));
            continue;
        };
        let linked_domains = kind.as_deref() == Some("LinkedDomains");
        let ep = pointer(&p, "serviceEndpoint");
        let mut urls = Vec::new();
        collect_uris(report, endpoint, &ep, 0, &mut urls);
        for (u, up) in urls {
            let (kind_, relation) = if linked_domains {
                (CandidateKind::Origin, "linked_domain")
            } else {
                (CandidateKind::Url, "service_endpoint")
            };
            let value = if linked_domains {
                match Origin::from_url(&u) {
                    Ok(o) => o.ascii(),
                    Err(_) => continue,
                }
            } else {
                u.to_string()
            };
            let mut c = Candidate::new(kind_, relation, value, at(up));
            if let Some(k) = &kind {
                c = c.with_hint("type", k.as_str());
            }
            if let Some(id) = &id {
                c = c.with_hint("service", id.as_str());
            }
            report.candidate(c);
        }
    }
}

/// The URIs of a `serviceEndpoint`: a string, an array of strings or maps, or a map's string values
/// (two levels deep at most, [`MAX_ENDPOINT_URLS`] in all).
fn collect_uris(report: &mut Report, v: &Value, p: &str, depth: usize, out: &mut Vec<(Url, String)>) {
    if out.len() >= MAX_ENDPOINT_URLS {
        return;
    }
    match v {
        Value::String(s) => match Url::parse(s.trim()) {
            Ok(u) => out.push((u, p.to_string())),
            Err(e) if depth == 0 => {
                report.error(
                    codes::INVALID_SERVICE_ENDPOINT,
                    format!("serviceEndpoint {s:?} is not a URI: {e}"),
                    at(p),
                );
            }
            Err(_) => {}
        },
        Value::Array(items) if depth < 3 => {
            for (i, item) in items.iter().enumerate() {
                collect_uris(report, item, &pointer(p, &i.to_string()), depth + 1, out);
            }
        }
        Value::Object(map) if depth < 3 => {
            for (k, item) in map {
                collect_uris(report, item, &pointer(p, k), depth + 1, out);
            }
        }
        Value::Array(_) | Value::Object(_) => {}
        other if depth == 0 => report.error(
            codes::INVALID_SERVICE_ENDPOINT,
            format!("serviceEndpoint must be a URI, a map or an array, found {}", type_name(other)),
            at(p),
        ),
        _ => {}
    }
}

fn also_known_as(report: &mut Report, value: Option<&Value>) {
    let Some(value) = value else { return };
    let Some(items) = value.as_array() else {
        report.error(
            codes::INVALID_ALSO_KNOWN_AS,
            format!("alsoKnownAs must be an array, found {}", type_name(value)),
            at("/alsoKnownAs"),
        );
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let p = pointer("/alsoKnownAs", &i.to_string());
        let Some(s) = item.as_str() else {
            report.error(codes::INVALID_ALSO_KNOWN_AS, "alsoKnownAs entries must be URI strings", at(&p));
            continue;
        };
        let origin = if let Some(d) = DidWeb::parse(s) {
            d.origin()
        } else {
            match Url::parse(s) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => Origin::from_url(&u).ok(),
                Ok(_) => None,
                Err(_) => {
                    report.error(codes::INVALID_ALSO_KNOWN_AS, format!("alsoKnownAs {s:?} is not a URI"), at(&p));
                    None
                }
            }
        };
        if let Some(o) = origin {
            report.candidate(
                Candidate::new(CandidateKind::Origin, "also_known_as", o.ascii(), at(&p)).with_hint("declared", s),
            );
        }
    }
}

fn verification_methods(report: &mut Report, value: Option<&Value>, did: &str) {
    let Some(value) = value else { return };
    let Some(items) = value.as_array() else {
        report.error(
            codes::INVALID_VERIFICATION_METHOD,
            format!("verificationMethod must be an array, found {}", type_name(value)),
            at("/verificationMethod"),
        );
        return;
    };
    report.fact("verification_methods", items.len());
    for (i, item) in items.iter().enumerate() {
        let p = pointer("/verificationMethod", &i.to_string());
        let Some(m) = item.as_object() else {
            report.error(codes::INVALID_VERIFICATION_METHOD, "a verification method must be an object", at(&p));
            continue;
        };
        for name in ["id", "type", "controller"] {
            if !m.get(name).is_some_and(Value::is_string) {
                report.error(
                    codes::INVALID_VERIFICATION_METHOD,
                    format!("a verification method without an {name} string"),
                    at(&p),
                );
            }
        }
        let key = if let Some(jwk) = m.get("publicKeyJwk").and_then(Value::as_object) {
            jwk_thumbprint(jwk).map(|t| (format!("{THUMBPRINT_URN_PREFIX}{t}"), pointer(&p, "publicKeyJwk")))
        } else {
            m.get("publicKeyMultibase")
                .and_then(Value::as_str)
                .map(|k| (format!("multibase:{k}"), pointer(&p, "publicKeyMultibase")))
        };
        let Some((key, kp)) = key else { continue };
        let mut c = Candidate::new(CandidateKind::Key, "verification_method", key, at(kp));
        if let Some(id) = m.get("id").and_then(Value::as_str) {
            c = c.with_hint("id", absolute(did, id));
        }
        if let Some(t) = m.get("type").and_then(Value::as_str) {
            c = c.with_hint("type", t);
        }
        report.candidate(c);
    }
}
