//! The DID Configuration parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! Signatures are not verified. A JWT Domain Linkage Credential is signed with a key of the linked
//! DID's document (another document: `interpret` sees one body, and the engine does not hand one
//! document's keys to another's interpretation), and a JSON-LD credential's `Ed25519Signature2020`
//! proof needs RDF Dataset Canonicalization, for which the workspace has no crate. Every linkage is
//! therefore recorded with the hint `signature` = `unverified`, and the fact `signatures` says so.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, TopLevel, read_object_into};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report, Severity, Timestamp};
use wellknown_did_web::DidWeb;

use crate::codes;

/// Fetch cap (bytes after content decoding): a configuration holds a few credentials. Larger bodies
/// are truncated and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// The DIF context of version 1.0 (section 3.2).
pub const CONTEXT_V1: &str = "https://identity.foundation/.well-known/did-configuration/v1";

/// Role of the follow-up to a linked did:web DID's document.
pub const FOLLOW_UP_ROLE: &str = "linked_did";

/// Most `linked_dids` entries read.
const MAX_ENTRIES: usize = 256;

/// The document as JSON: its media types and a top-level object.
const RULES: JsonRules = JsonRules {
    accepts: |m| m.is_json(),
    wrong_media_type: |raw, _| format!("Content-Type {:?} is not application/json", raw.unwrap_or("")),
    top_level: TopLevel::Object,
    wrong_top_level: |found| format!("expected a JSON object, found {found}"),
    wrong_media_type_severity: Severity::Warning,
    charset_severity: Severity::Warning,
    ..JsonRules::JSON
};

/// Interprets a DID Configuration resource fetched as described by `meta`.
///
/// Returns a report of kind `did_configuration` (`invalid` when not a JSON object) with, for each
/// `linked_dids` entry (locator `/linked_dids/<i>`, hints `did`, `format` = `jwt` | `json-ld`,
/// `signature` = `unverified`):
/// * `origin` `linked_origin`: `credentialSubject.origin`, flagged `invalid` when it is not the
///   serving origin (`origin_mismatch`);
/// * `origin` `linked_did`: the origin of a did:web linked DID, and a follow-up to the probe
///   `did.json` for its DID document (role `linked_did`).
///
/// Facts: `linked_dids` (the DIDs, in order), `formats` (counts), `signatures` (`unverified`).
/// Diagnostics: [`crate::codes::ALL`].
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "did_configuration");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    if meta.url.scheme() != "https" {
        report.error(
            shared::INSECURE_TRANSPORT,
            "the DID Configuration resource MUST be served over https (section 3.1)",
            None,
        );
    }
    // A wrong media type is a warning (`RULES`): section 3.1 names no media type requirement.
    let Some((obj, alternates)) = read_object_into(&mut report, body, meta, &RULES) else {
        return report;
    };
    read(&mut report, meta, &obj, true);
    for alternate in alternates {
        let Some(o) = alternate.as_object() else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "did_configuration");
        read(&mut scratch, meta, o, false);
        merge_alternate(&mut report, scratch);
    }
    report
}

/// One linkage read from an entry, whatever its format.
struct Linkage<'a> {
    format: &'static str,
    subject: Option<&'a str>,
    origin: Option<&'a str>,
    types: Vec<&'a str>,
}

fn read(report: &mut Report, meta: &FetchMeta, obj: &Map<String, Value>, facts: bool) {
    match obj.get("@context") {
        Some(Value::String(c)) if c == CONTEXT_V1 => {}
        other => report.warn(
            codes::CONTEXT,
            format!(
                "@context is {}, not {CONTEXT_V1:?} (section 3.2)",
                other.map_or_else(|| "missing".to_string(), |v| v.to_string())
            ),
            at("/@context"),
        ),
    }
    let Some(entries) = obj.get("linked_dids").and_then(Value::as_array) else {
        report.error(codes::MISSING_LINKED_DIDS, "no linked_dids array (section 3.2)", at(""));
        return;
    };
    let serving = Origin::from_url(&meta.url).ok();
    let mut dids: Vec<String> = Vec::new();
    let (mut jwts, mut ld) = (0usize, 0usize);
    // JWT payloads are decoded into values that must outlive the linkage borrowed from them.
    for (i, entry) in entries.iter().enumerate().take(MAX_ENTRIES) {
        let p = pointer("/linked_dids", &i.to_string());
        let decoded;
        let linkage = match entry {
            Value::String(jwt) => {
                jwts += 1;
                let Some((header, payload)) = decode_jwt(report, jwt, &p) else { continue };
                decoded = payload;
                jwt_linkage(report, meta.fetched_at, &header, &decoded, &p)
            }
            Value::Object(vc) => {
                ld += 1;
                ld_linkage(report, meta.fetched_at, vc, &p)
            }
            other => {
                report.error(
                    codes::INVALID_LINKED_DID,
                    format!(
                        "a linked_dids entry must be a JWT string or a credential object, found {}",
                        type_name(other)
                    ),
                    at(&p),
                );
                continue;
            }
        };
        let Some(linkage) = linkage else { continue };
        if !linkage.types.contains(&"DomainLinkageCredential") {
            report.error(
                codes::NOT_DOMAIN_LINKAGE,
                "the credential's type does not include DomainLinkageCredential",
                at(&p),
            );
        }
        let hints = |c: Candidate| {
            let c = c.with_hint("format", linkage.format).with_hint("signature", "unverified");
            match linkage.subject {
                Some(did) => c.with_hint("did", did),
                None => c,
            }
        };
        match linkage.origin {
            None => report.error(codes::MISSING_ORIGIN, "the credential has no credentialSubject.origin", at(&p)),
            Some(declared) => match Url::parse(declared).ok().and_then(|u| Origin::from_url(&u).ok()) {
                Some(o) => {
                    let mut c = hints(Candidate::new(CandidateKind::Origin, "linked_origin", o.ascii(), at(&p)));
                    if serving.as_ref() != Some(&o) {
                        report.error(
                            codes::ORIGIN_MISMATCH,
                            format!(
                                "credentialSubject.origin {declared:?} is not the origin serving this resource ({})",
                                serving.as_ref().map(Origin::ascii).unwrap_or_default()
                            ),
                            at(&p),
                        );
                        c = c.with_flag("invalid");
                    }
                    report.candidate(c);
                }
                None => report.error(
                    codes::ORIGIN_MISMATCH,
                    format!("credentialSubject.origin {declared:?} is not an origin"),
                    at(&p),
                ),
            },
        }
        if let Some(did) = linkage.subject {
            dids.push(did.to_string());
            if let Some(web) = DidWeb::parse(did) {
                if let Some(o) = web.origin() {
                    report.candidate(hints(Candidate::new(CandidateKind::Origin, "linked_did", o.ascii(), at(&p))));
                }
                if let Some(url) = web.document_url() {
                    report.follow_up("did.json", url, FOLLOW_UP_ROLE);
                }
            }
        }
    }
    if facts {
        report.fact("linked_dids", dids);
        report.fact("formats", serde_json::json!({"jwt": jwts, "json-ld": ld}));
        report.fact("signatures", "unverified");
    }
}

/// Decodes a compact JWS: header and payload objects, or `invalid_jwt`.
fn decode_jwt(report: &mut Report, jwt: &str, p: &str) -> Option<(Map<String, Value>, Map<String, Value>)> {
    let parts: Vec<&str> = jwt.trim().split('.').collect();
    let part = |s: &str| -> Option<Map<String, Value>> {
        let bytes = URL_SAFE_NO_PAD.decode(s.trim_end_matches('=')).ok()?;
        match serde_json::from_slice::<Value>(&bytes).ok()? {
            Value::Object(o) => Some(o),
            _ => None,
        }
    };
    let decoded = match parts.as_slice() {
        [h, pl, _sig] => part(h).zip(part(pl)),
        _ => None,
    };
    if decoded.is_none() {
        report.error(
            codes::INVALID_JWT,
            "not a compact JWS of three base64url parts with JSON header and payload",
            at(p),
        );
    }
    decoded
}

fn jwt_linkage<'a>(
    report: &mut Report,
    now: Timestamp,
    header: &Map<String, Value>,
    payload: &'a Map<String, Value>,
    p: &str,
) -> Option<Linkage<'a>> {
    match header.get("alg").and_then(Value::as_str) {
        None | Some("none") => report.error(codes::UNSIGNED_JWT, "the JWT header's alg is none or missing", at(p)),
        Some(_) => {}
    }
    let Some(vc) = payload.get("vc").and_then(Value::as_object) else {
        report.error(codes::INVALID_JWT, "the JWT payload has no vc object (section 3.3.2)", at(p));
        return None;
    };
    let subject = vc.get("credentialSubject").and_then(Value::as_object);
    let subject_id = subject.and_then(|s| s.get("id")).and_then(Value::as_str);
    let iss = payload.get("iss").and_then(Value::as_str);
    let sub = payload.get("sub").and_then(Value::as_str);
    if iss.is_none() || iss != sub || sub != subject_id {
        report.error(
            codes::DID_MISMATCH,
            format!("iss {iss:?}, sub {sub:?} and credentialSubject.id {subject_id:?} must be the same DID"),
            at(p),
        );
    }
    if let (Some(kid), Some(iss)) = (header.get("kid").and_then(Value::as_str), iss)
        && kid.split('#').next() != Some(iss)
    {
        report.error(codes::DID_MISMATCH, format!("the JWT header's kid {kid:?} is not a key of {iss:?}"), at(p));
    }
    for (claim, late) in [("exp", true), ("nbf", false)] {
        let Some(v) = payload.get(claim) else { continue };
        let Some(t) = v.as_i64().and_then(|s| Timestamp::from_second(s).ok()) else {
            report.error(codes::INVALID_DATE, format!("{claim} is not a NumericDate"), at(p));
            continue;
        };
        time_check(report, now, t, late, claim, p);
    }
    Some(Linkage {
        format: "jwt",
        subject: subject_id.or(sub),
        origin: subject.and_then(|s| s.get("origin")).and_then(Value::as_str),
        types: string_list(vc.get("type")),
    })
}

fn ld_linkage<'a>(report: &mut Report, now: Timestamp, vc: &'a Map<String, Value>, p: &str) -> Option<Linkage<'a>> {
    let subject = vc.get("credentialSubject").and_then(Value::as_object);
    let subject_id = subject.and_then(|s| s.get("id")).and_then(Value::as_str);
    let issuer = match vc.get("issuer") {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Object(o)) => o.get("id").and_then(Value::as_str),
        _ => None,
    };
    if issuer.is_none() || issuer != subject_id {
        report.error(
            codes::DID_MISMATCH,
            format!("issuer {issuer:?} and credentialSubject.id {subject_id:?} must be the same DID"),
            at(p),
        );
    }
    if !vc.contains_key("proof") {
        report.error(codes::MISSING_PROOF, "a JSON-LD Domain Linkage Credential without a proof", at(p));
    }
    for (member, late) in [("expirationDate", true), ("issuanceDate", false)] {
        let Some(v) = vc.get(member) else { continue };
        let Some(t) = v.as_str().and_then(|s| s.parse::<Timestamp>().ok()) else {
            report.error(codes::INVALID_DATE, format!("{member} is not an RFC 3339 date-time"), at(pointer(p, member)));
            continue;
        };
        time_check(report, now, t, late, member, &pointer(p, member));
    }
    Some(Linkage {
        format: "json-ld",
        subject: subject_id,
        origin: subject.and_then(|s| s.get("origin")).and_then(Value::as_str),
        types: string_list(vc.get("type")),
    })
}

/// `expired` when an end (`late`) is before `now`; `not_yet_valid` when a start is after it.
fn time_check(report: &mut Report, now: Timestamp, t: Timestamp, late: bool, what: &str, p: &str) {
    if late && t < now {
        report.error(codes::EXPIRED, format!("{what} {t} is before the fetch ({now})"), at(p));
    } else if !late && t > now {
        report.error(codes::NOT_YET_VALID, format!("{what} {t} is after the fetch ({now})"), at(p));
    }
}

fn string_list(v: Option<&Value>) -> Vec<&str> {
    match v {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}
