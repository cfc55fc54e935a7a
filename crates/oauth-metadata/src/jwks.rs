//! JWK Sets (RFC 7517 section 5): the document behind `jwks_uri`.
//!
//! Each key becomes a candidate of kind `key`, relation `jwks_key`, identified by its RFC 7638 JWK
//! thumbprint written as the RFC 9278 URI `urn:ietf:params:oauth:jwk-thumbprint:sha-256:<base64url>`
//! (SHA-256 of the key's required members serialised in lexicographic order without whitespace,
//! base64url without padding). Hints: `kty`, `kid`, `use`, `alg`, and for an `x5c` chain
//! `x5c_subject` (the first certificate's subject, RFC 4514 string) and `x5c_sha256` (base64url
//! SHA-256 of the first certificate's DER, the value `x5t#S256` would carry).
//!
//! Publishing public keys is normal; a JWK carrying private parameters (`d`, `p`, `q`, `dp`, `dq`,
//! `qi`, `oth`, or `k` of a symmetric `oct` key; RFC 7518 sections 6.2.2, 6.3.2, 6.4.1, RFC 8037
//! section 2) is `private_key_material`, an error and a real finding.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use wellknown_core::diag::codes;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, media_type_diagnostics, read_document};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Report};

use crate::codes::{self as c, PRIVATE_KEY_MATERIAL};
use crate::metadata::MAX_BODY_BYTES;
use crate::x5c::certificate_subject;

/// The probe id and report kind.
pub const PROBE_ID: &str = "jwks";

/// Prefix of a key candidate's value (RFC 9278 section 3).
pub const THUMBPRINT_URN_PREFIX: &str = "urn:ietf:params:oauth:jwk-thumbprint:sha-256:";

/// Private-key parameters of RSA, EC and OKP keys (RFC 7518 sections 6.2.2, 6.3.2; RFC 8037).
pub const PRIVATE_PARAMS: [&str; 7] = ["d", "p", "q", "dp", "dq", "qi", "oth"];

/// How a JWK Set is read as JSON: a JSON media type (RFC 7517 section 8.5 registers
/// `application/jwk-set+json`; `application/json` is accepted), utf-8, a JSON object, member names
/// unique (RFC 7517 sections 4 and 5: MUST, so `duplicate_member` is an error).
pub const JWKS_JSON: JsonRules = JsonRules {
    accepts: |m| m.is_json(),
    wrong_media_type: |_, parsed| match parsed {
        Some(m) => format!("a JWK Set is served as application/jwk-set+json or application/json, not {}", m.essence),
        None => "JWK Set served without a usable Content-Type".to_string(),
    },
    duplicates_are_errors: true,
    wrong_top_level: |found| format!("a JWK Set is a JSON object, found {found}"),
    ..JsonRules::JSON
};

/// The members an RFC 7638 thumbprint covers for `kty` (section 3.2; OKP from RFC 8037 section 2),
/// in lexicographic order. None for a key type without a defined thumbprint.
pub fn thumbprint_members(kty: &str) -> Option<&'static [&'static str]> {
    match kty {
        "RSA" => Some(&["e", "kty", "n"]),
        "EC" => Some(&["crv", "kty", "x", "y"]),
        "oct" => Some(&["k", "kty"]),
        "OKP" => Some(&["crv", "kty", "x"]),
        _ => None,
    }
}

/// The RFC 7638 SHA-256 thumbprint of `jwk`, base64url without padding. None when `kty` is unknown or
/// a required member is absent or not a string.
pub fn jwk_thumbprint(jwk: &Map<String, Value>) -> Option<String> {
    let kty = jwk.get("kty")?.as_str()?;
    let members = thumbprint_members(kty)?;
    let mut canonical = String::from("{");
    for (i, m) in members.iter().enumerate() {
        let v = jwk.get(*m)?.as_str()?;
        if i > 0 {
            canonical.push(',');
        }
        canonical.push_str(&serde_json::to_string(m).ok()?);
        canonical.push(':');
        canonical.push_str(&serde_json::to_string(v).ok()?);
    }
    canonical.push('}');
    Some(URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes())))
}

/// Interprets a JWK Set fetched as `meta`. Pure, never panics.
///
/// Codes: `invalid_content_type` (not a JSON media type; RFC 7517 section 8.5 registers
/// `application/jwk-set+json`, `application/json` is accepted), the shared `invalid_charset` (a
/// charset other than utf-8, RFC 8259 section 8.1), `bom`, `html_document`,
/// `invalid_json`, `not_json_object`, `too_large`; `missing_keys` / `invalid_keys` (section 5.1);
/// `invalid_jwk` (a key that is not an object, lacks `kty` or the members its thumbprint needs);
/// `unknown_kty` (warning; the key is kept out of the candidates); `invalid_x5c` (section 4.7);
/// `private_key_material`; the shared `duplicate_member`, an error here (RFC 7517 sections 4 and 5:
/// member names MUST be unique), after which every occurrence of the repeated member is read too.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(PROBE_ID, &meta.url, PROBE_ID);
    if let Some(d) = media_type_diagnostics(meta.content_type.as_deref(), &JWKS_JSON) {
        report.push(d);
    }
    if meta.truncated || body.len() > MAX_BODY_BYTES {
        report.error(codes::TOO_LARGE, format!("body exceeds {MAX_BODY_BYTES} bytes"), None);
    }
    let parsed = read_document(body, &JWKS_JSON);
    for d in parsed.diagnostics {
        report.push(d);
    }
    let Some(Value::Object(object)) = parsed.value else {
        report.kind = "invalid".into();
        return report;
    };
    read_set(&mut report, &object);
    // A repeated member name (`duplicate_member`): every occurrence is read, so a private key in an
    // occurrence a last-wins parser drops is still `private_key_material`.
    for alternate in parsed.alternates {
        if let Value::Object(object) = alternate {
            let mut seen = Report::new(PROBE_ID, &meta.url, PROBE_ID);
            read_set(&mut seen, &object);
            merge_alternate(&mut report, seen);
        }
    }
    report
}

/// Reads the JWK Set `object` into `report`: each key, and the fact `key_count`.
fn read_set(report: &mut Report, object: &Map<String, Value>) {
    let keys = match object.get("keys") {
        Some(Value::Array(keys)) => keys,
        Some(other) => {
            report.error(
                c::INVALID_KEYS,
                format!("keys must be an array of JWKs, found {}", type_name(other)),
                at("/keys"),
            );
            return;
        }
        None => {
            // A single JWK served where a set was expected: still read it, it may leak a private key.
            report.error(c::MISSING_KEYS, "a JWK Set has a REQUIRED keys member (RFC 7517 section 5.1)", at(""));
            if object.contains_key("kty") {
                read_key(report, object, "");
            }
            return;
        }
    };
    for (i, key) in keys.iter().enumerate() {
        let ptr = pointer("/keys", &i.to_string());
        match key.as_object() {
            Some(jwk) => read_key(report, jwk, &ptr),
            None => report.error(c::INVALID_JWK, format!("key {i} is {}, not a JSON object", type_name(key)), at(ptr)),
        }
    }
    report.fact("key_count", keys.len());
}

/// Reads one JWK at `ptr`: private parameters, thumbprint, hints.
fn read_key(report: &mut Report, jwk: &Map<String, Value>, ptr: &str) {
    let kty = jwk.get("kty").and_then(Value::as_str);
    let mut private: Vec<&str> = PRIVATE_PARAMS.iter().copied().filter(|p| jwk.contains_key(*p)).collect();
    if kty == Some("oct") && jwk.contains_key("k") {
        private.push("k");
    }
    if let Some(first) = private.first() {
        let kid = jwk.get("kid").and_then(Value::as_str).map(|k| format!(" (kid {k:?})")).unwrap_or_default();
        report.error(
            PRIVATE_KEY_MATERIAL,
            format!("published key{kid} carries private parameters {}: the private key is exposed", private.join(", ")),
            at(pointer(ptr, first)),
        );
    }
    let Some(kty) = kty else {
        report.error(c::INVALID_JWK, "a JWK has a REQUIRED kty member (RFC 7517 section 4.1)", at(ptr));
        return;
    };
    let x5c = read_x5c(report, jwk, ptr);
    if thumbprint_members(kty).is_none() {
        report.warn(c::UNKNOWN_KTY, format!("key type {kty:?} has no defined thumbprint; key not recorded"), at(ptr));
        return;
    }
    let Some(thumbprint) = jwk_thumbprint(jwk) else {
        report.error(
            c::INVALID_JWK,
            format!("{kty} key lacks a member its thumbprint needs (RFC 7638 section 3.2), or one is not a string"),
            at(ptr),
        );
        return;
    };
    let mut cand =
        Candidate::new(CandidateKind::Key, "jwks_key", format!("{THUMBPRINT_URN_PREFIX}{thumbprint}"), at(ptr));
    cand = cand.with_hint("kty", kty);
    for hint in ["kid", "use", "alg"] {
        if let Some(v) = jwk.get(hint).and_then(Value::as_str) {
            cand = cand.with_hint(hint, v);
        }
    }
    if let Some((sha, subject)) = x5c {
        cand = cand.with_hint("x5c_sha256", sha);
        if let Some(s) = subject {
            cand = cand.with_hint("x5c_subject", s);
        }
    }
    if !private.is_empty() {
        cand = cand.with_flag("private_key_material");
    }
    report.candidate(cand);
}

/// The first `x5c` certificate's SHA-256 (base64url) and subject, or None when absent; malformed
/// chains are `invalid_x5c`.
fn read_x5c(report: &mut Report, jwk: &Map<String, Value>, ptr: &str) -> Option<(String, Option<String>)> {
    let value = jwk.get("x5c")?;
    let x5c_ptr = pointer(ptr, "x5c");
    let Some(first) = value.as_array().and_then(|a| a.first()) else {
        report.error(c::INVALID_X5C, "x5c must be a non-empty array of base64 DER certificates", at(x5c_ptr));
        return None;
    };
    let text: String = first.as_str().unwrap_or_default().chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let der = match STANDARD.decode(text.as_bytes()) {
        Ok(der) if !der.is_empty() => der,
        _ => {
            report.error(
                c::INVALID_X5C,
                "x5c[0] is not base64 (RFC 7517 section 4.7: standard base64, not base64url)",
                at(pointer(&x5c_ptr, "0")),
            );
            return None;
        }
    };
    let sha = URL_SAFE_NO_PAD.encode(Sha256::digest(&der));
    let subject = certificate_subject(&der);
    if subject.is_none() {
        report.error(c::INVALID_X5C, "x5c[0] is not a DER X.509 certificate", at(pointer(&x5c_ptr, "0")));
    }
    Some((sha, subject))
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::Timestamp;

    fn run(body: &str) -> Report {
        let url = Url::parse("https://as.example/jwks").unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/jwk-set+json"), Timestamp::UNIX_EPOCH))
    }

    /// RFC 7638 section 3.1's example key and thumbprint.
    const RFC7638_N: &str = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";

    #[test]
    fn non_utf8_charset_is_invalid_charset() {
        let url = Url::parse("https://as.example/jwks").unwrap();
        let body = br#"{"keys":[{"kty":"EC","crv":"P-256","x":"AQ","y":"AQ"}]}"#;
        let meta = FetchMeta::synthetic(
            url.clone(),
            Some("application/jwk-set+json; charset=windows-1252"),
            Timestamp::UNIX_EPOCH,
        );
        let r = interpret(body, &meta);
        let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, vec!["invalid_charset"]);
        assert_eq!(r.errors[0].message, "charset \"windows-1252\": JSON is UTF-8 (RFC 8259 section 8.1)");
        let meta = FetchMeta::synthetic(url, Some("application/json; charset=utf-8"), Timestamp::UNIX_EPOCH);
        assert!(interpret(body, &meta).errors.is_empty());
    }

    #[test]
    fn rfc7638_example_thumbprint() {
        let body =
            format!(r#"{{"keys":[{{"kty":"RSA","n":"{RFC7638_N}","e":"AQAB","alg":"RS256","kid":"2011-04-29"}}]}}"#);
        let r = run(&body);
        assert!(r.valid(), "{:?}", r.errors);
        let key = &r.candidates.get(0).unwrap();
        assert_eq!(
            key.value(),
            "urn:ietf:params:oauth:jwk-thumbprint:sha-256:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
        );
        assert_eq!(key.hint("kid").unwrap(), "2011-04-29");
        assert_eq!(key.hint("alg").unwrap(), "RS256");
        assert_eq!(key.hint("kty").unwrap(), "RSA");
    }

    #[test]
    fn private_parameters_are_findings() {
        let r = run(r#"{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"secret","kid":"k1"},
                                {"kty":"oct","k":"c2VjcmV0"},{"kty":"EC","crv":"P-256","x":"a","y":"b"}]}"#);
        let leaks: Vec<_> = r.errors.iter().filter(|d| d.code == "private_key_material").collect();
        assert_eq!(leaks.len(), 2);
        assert_eq!(leaks[0].locator, at("/keys/0/d"));
        assert_eq!(leaks[1].locator, at("/keys/1/k"));
        assert_eq!(r.candidates.len(), 3);
        assert!(r.candidates.get(0).unwrap().has_flag("private_key_material"));
        // The public half of key 0 has the same thumbprint as key 2.
        assert_eq!(r.candidates.get(0).unwrap().value(), r.candidates.get(2).unwrap().value());
    }

    #[test]
    fn duplicate_keys_member_hides_nothing() {
        let r = run(r#"{"keys":[{"kty":"oct","k":"c2VjcmV0"}],"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}"#);
        assert!(!r.valid());
        let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, vec!["duplicate_member", "private_key_material"]);
        assert_eq!(r.errors[0].locator, at("/keys"));
        assert_eq!(r.errors[1].locator, at("/keys/0/k"));
        let kty: Vec<&str> = r.candidates.iter().filter_map(|c| c.hint("kty")).collect();
        assert_eq!(kty, vec!["RSA", "oct"]);
        assert!(r.candidates.get(1).unwrap().has_flag("private_key_material"));
        assert_eq!(r.facts["key_count"], 1);
        // A repeated member inside one JWK: the private `d` in the first occurrence is found.
        let r = run(r#"{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"s3cret","d":null}]}"#);
        assert!(r.has_code("private_key_material"));
        assert_eq!(r.errors[0].locator, at("/keys/0/d"));
    }

    #[test]
    fn a_repeat_inside_a_replaced_keys_member_is_read() {
        // Review 4 finding 4: the inner repeated `kty` under a repeated `keys` hid the secret key.
        let r = run(r#"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB","k":"c2VjcmV0","kty":"oct"}],"keys":[]}"#);
        let codes: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, vec!["duplicate_member", "duplicate_member", "private_key_material"]);
        assert_eq!(r.errors[0].locator, at("/keys/0/kty"));
        assert_eq!(r.errors[1].locator, at("/keys"));
        assert_eq!(r.errors[2].locator, at("/keys/0/k"));
        let kty: Vec<&str> = r.candidates.iter().filter_map(|c| c.hint("kty")).collect();
        assert_eq!(kty, vec!["RSA", "oct"]);
        assert_eq!(r.facts["key_count"], 0);
    }

    #[test]
    fn malformed_sets() {
        assert!(run(r#"{"kty":"EC","d":"x"}"#).has_code("missing_keys"));
        assert!(run(r#"{"kty":"EC","d":"x"}"#).has_code("private_key_material"));
        assert!(run(r#"{"keys":{}}"#).has_code("invalid_keys"));
        let r = run(r#"{"keys":[1,{"use":"sig"},{"kty":"RSA","n":1,"e":"AQAB"},{"kty":"XYZ"}]}"#);
        let codes: Vec<&str> = r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect();
        assert_eq!(codes, vec!["invalid_jwk", "invalid_jwk", "invalid_jwk", "unknown_kty"]);
        assert!(r.candidates.is_empty());
        assert!(run(r#"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AA","x5c":["!!"]}]}"#).has_code("invalid_x5c"));
    }
}
