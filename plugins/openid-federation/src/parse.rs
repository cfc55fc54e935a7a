//! The parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock (validity is judged against
//! `meta.fetched_at`), no panics.
//!
//! An OpenID Federation 1.0 Entity Configuration (section 3, served at section 9's location) is a
//! signed JWT about the entity itself: `iss` = `sub` = its Entity Identifier, `iat`, `exp`, its
//! federation keys `jwks`, its superiors `authority_hints`, and `metadata` by entity type
//! (`openid_provider`, `openid_relying_party`, `oauth_authorization_server`, `federation_entity`, ...).
//! Its signature is checked with the key its own `jwks` names by the header's `kid` (section 3.1).

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, pointer, type_name};
use wellknown_core::media::MediaType;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report};
use wellknown_oauth_metadata::jwks::{PRIVATE_PARAMS, THUMBPRINT_URN_PREFIX, jwk_thumbprint};
use wellknown_oauth_metadata::location::{Construction, expected_issuer_from};
use wellknown_oauth_metadata::metadata::host_name;

use crate::codes as c;
use crate::jws::{self, Check};

/// Fetch cap: 256 KiB (an Entity Configuration is a few KiB); larger bodies are `too_large`.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// The media type of an Entity Statement (section 9.2, IANA registration in section 18).
pub const MEDIA_TYPE: &str = "application/entity-statement+jwt";

/// The report kind of an Entity Configuration.
pub const KIND: &str = "entity_configuration";

/// Clock skew allowed for `iat` (seconds).
pub const IAT_SKEW_SECONDS: i64 = 60;

/// Interprets an Entity Configuration fetched as `meta`. Pure, never panics.
///
/// Report kind [`KIND`] (`invalid` when the body is not a compact JWS whose header and payload are
/// JSON objects). Facts: `entity_id` (expected from the URL, or null), `iss`, `alg`, `kid`,
/// `signature` (`valid`, `invalid`, `key_not_found`, `unsupported_alg`, `not_checked`), `iat`, `exp`
/// (NumericDate seconds), `entity_types` (the `metadata` members), `authority_hint_count`.
///
/// Candidates (locators are JSON pointers into the payload): `origin` `authority_hint` (the
/// superior's origin, hint `entity_id`; a superior whose Entity Identifier has a path is also a
/// follow-up to this probe); `origin` `trust_mark_issuer`; `issuer` `openid_provider` /
/// `oauth_authorization_server` (the Entity Identifier of an entity with that metadata: the engine
/// hands it to the OpenID and RFC 8414 probes); `endpoint` / `url` `metadata.<type>.<member>` for
/// URL members (`jwks_uri` also a `jwks` follow-up); `key` `federation_key` for each key of `jwks`
/// and `metadata.<type>.jwks` for keys in metadata; `host` `endpoint_host` for other hosts.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, KIND);
    match meta.content_type.as_deref().and_then(MediaType::parse) {
        Some(m) if m.essence == MEDIA_TYPE => {}
        other => report.error(
            c::INVALID_CONTENT_TYPE,
            format!(
                "an Entity Configuration is served as {MEDIA_TYPE} (OpenID Federation 1.0 section 9.2), not {}",
                other.map_or("nothing usable".to_string(), |m| m.essence)
            ),
            None,
        ),
    }
    if meta.truncated || body.len() as u64 > MAX_BODY_BYTES {
        report.error(shared::TOO_LARGE, format!("body exceeds {MAX_BODY_BYTES} bytes"), None);
    }
    let expected = expected_entity_id(&mut report, meta);
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(_) => {
            report.error(shared::INVALID_UTF8, "a compact JWS is ASCII (RFC 7515 section 7.1)", None);
            report.kind = "invalid".into();
            return report;
        }
    };
    let jws = match jws::split(text) {
        Ok(j) => j,
        Err(e) => {
            let why = match e {
                jws::SplitError::Parts(n) => format!("{n} dot-separated parts, a compact JWS has 3"),
                jws::SplitError::Base64(i) => format!("part {} is not base64url without padding", i + 1),
            };
            report.error(c::INVALID_JWS, format!("not a compact JWS (RFC 7515 section 7.1): {why}"), None);
            report.kind = "invalid".into();
            return report;
        }
    };
    let (Some(header), Some(claims)) = (json_object(&jws.header), json_object(&jws.payload)) else {
        report.error(c::INVALID_JWS, "the JWS header and payload must be JSON objects (RFC 7515, RFC 7519)", None);
        report.kind = "invalid".into();
        return report;
    };
    check_header(&mut report, &header);
    let entity = check_identity(&mut report, &claims, expected.as_deref());
    check_times(&mut report, &claims, meta);
    let keys = read_jwks(&mut report, claims.get("jwks"), "/jwks", "federation_key", true);
    check_signature(&mut report, &header, keys, &jws, claims.contains_key("jwks"));
    read_authority_hints(&mut report, &claims);
    read_trust_mark_issuers(&mut report, &claims);
    read_metadata(&mut report, &claims, entity.as_deref());
    host_candidates(&mut report, meta);
    report
}

fn json_object(bytes: &[u8]) -> Option<Map<String, Value>> {
    match serde_json::from_slice(bytes).ok()? {
        Value::Object(o) => Some(o),
        _ => None,
    }
}

/// The Entity Identifier the URL first requested was built from (section 9: the identifier with
/// `/.well-known/openid-federation` appended).
fn expected_entity_id(report: &mut Report, meta: &FetchMeta) -> Option<String> {
    let found = expected_issuer_from(&meta.requested_url, crate::SUFFIX);
    let expected = match &found {
        Some((id, Construction::Root | Construction::Appended)) => Some(id.clone()),
        Some((_, Construction::Inserted)) => {
            report.error(
                c::WRONG_WELL_KNOWN_LOCATION,
                format!("{} inserts the suffix; section 9 appends it to the Entity Identifier", meta.requested_url),
                None,
            );
            None
        }
        None => None,
    };
    report.fact("entity_id", expected.clone().map_or(Value::Null, Value::from));
    expected
}

fn check_header(report: &mut Report, header: &Map<String, Value>) {
    match header.get("typ").and_then(Value::as_str) {
        Some(t) if t.eq_ignore_ascii_case("entity-statement+jwt") => {}
        other => report.error(
            c::INVALID_TYP,
            format!("the JWS header typ must be entity-statement+jwt (section 3), found {other:?}"),
            None,
        ),
    }
    let alg = header.get("alg").and_then(Value::as_str);
    report.fact("alg", alg.map_or(Value::Null, Value::from));
    report.fact("kid", header.get("kid").cloned().unwrap_or(Value::Null));
    if header.get("kid").and_then(Value::as_str).is_none() {
        report.error(c::MISSING_KID, "the JWS header has no kid naming the signing key (section 3)", None);
    }
    if alg.is_none_or(|a| a == "none") {
        report.error(c::ALG_NONE, "an Entity Statement MUST be signed: alg is none or absent (section 3)", None);
    }
}

/// `iss`, `sub`: present, equal, https, and the expected Entity Identifier. Returns the identifier.
fn check_identity(report: &mut Report, claims: &Map<String, Value>, expected: Option<&str>) -> Option<String> {
    let mut ids = Vec::new();
    for claim in ["iss", "sub"] {
        match claims.get(claim) {
            None => report.error(&format!("missing_{claim}"), format!("{claim} is REQUIRED (section 3)"), at("")),
            Some(Value::String(s)) => ids.push(s.as_str()),
            Some(other) => report.error(
                &format!("invalid_{claim}"),
                format!("{claim} must be a string, found {}", type_name(other)),
                at(pointer("", claim)),
            ),
        }
    }
    let iss = claims.get("iss").and_then(Value::as_str);
    report.fact("iss", iss.map_or(Value::Null, Value::from));
    if let (Some(i), Some(s)) = (iss, claims.get("sub").and_then(Value::as_str))
        && i != s
    {
        report.error(
            c::ISS_SUB_MISMATCH,
            format!("iss {i:?} and sub {s:?} differ: an Entity Configuration is about its issuer (section 3)"),
            at("/sub"),
        );
    }
    let iss = iss?;
    check_entity_id(report, iss, "/iss");
    if let Some(e) = expected {
        if iss.trim_end_matches('/') == e && iss != e {
            report.warn(
                c::ENTITY_ID_TRAILING_SLASH,
                format!(
                    "iss {iss:?} differs from {e:?}, the Entity Identifier this URL was built from, by a trailing slash"
                ),
                at("/iss"),
            );
        } else if iss != e {
            report.error(
                c::ENTITY_ID_MISMATCH,
                format!("iss {iss:?} is not {e:?}, the Entity Identifier this URL was built from (section 9)"),
                at("/iss"),
            );
        }
    }
    Some(iss.to_string())
}

/// `entity_id_not_https` unless `id` is an https URL; returns the parsed URL when http(s).
fn check_entity_id(report: &mut Report, id: &str, ptr: &str) -> Option<Url> {
    let url = Url::parse(id).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host());
    if url.as_ref().is_none_or(|u| u.scheme() != "https") {
        report.error(
            c::ENTITY_ID_NOT_HTTPS,
            format!("Entity Identifier {id:?} is not an https URL (section 1.2)"),
            at(ptr),
        );
    }
    url
}

fn check_times(report: &mut Report, claims: &Map<String, Value>, meta: &FetchMeta) {
    let now = meta.fetched_at.as_second();
    let mut read = |claim: &str| -> Option<i64> {
        match claims.get(claim) {
            None => {
                report.error(&format!("missing_{claim}"), format!("{claim} is REQUIRED (section 3)"), at(""));
                None
            }
            Some(v) => match v.as_i64().or_else(|| v.as_f64().filter(|f| f.is_finite()).map(|f| f as i64)) {
                Some(t) => {
                    report.fact(claim, t);
                    Some(t)
                }
                None => {
                    report.error(
                        &format!("invalid_{claim}"),
                        format!("{claim} must be a NumericDate (RFC 7519 section 2), found {}", type_name(v)),
                        at(pointer("", claim)),
                    );
                    None
                }
            },
        }
    };
    let iat = read("iat");
    let exp = read("exp");
    if let Some(exp) = exp
        && exp < now
    {
        report.error(
            c::EXPIRED,
            format!("exp {exp} is {} s before the fetch time", now.saturating_sub(exp)),
            at("/exp"),
        );
    }
    if let Some(iat) = iat
        && iat > now.saturating_add(IAT_SKEW_SECONDS)
    {
        report.error(
            c::IAT_IN_FUTURE,
            format!("iat {iat} is {} s after the fetch time", iat.saturating_sub(now)),
            at("/iat"),
        );
    }
    if let (Some(iat), Some(exp)) = (iat, exp)
        && exp <= iat
    {
        report.error(c::EXP_BEFORE_IAT, format!("exp {exp} is not after iat {iat}"), at("/exp"));
    }
}

/// Reads a JWK Set claim at `ptr`: key candidates (RFC 7638 thumbprint URNs) with `relation`,
/// `private_key_material` for private members. Returns the keys (objects) for the signature check.
/// `required`: `missing_<claim>` when absent. A bare array of JWKs (seen in the wild in metadata) is
/// read too, after `invalid_<claim>`.
fn read_jwks<'a>(
    report: &mut Report,
    value: Option<&'a Value>,
    ptr: &str,
    relation: &str,
    required: bool,
) -> Vec<&'a Map<String, Value>> {
    let claim = ptr.rsplit('/').next().unwrap_or("jwks");
    let (keys, base): (&Vec<Value>, String) = match value {
        None => {
            if required {
                report.error(&format!("missing_{claim}"), format!("{claim} is REQUIRED (section 3)"), at(""));
            }
            return Vec::new();
        }
        Some(Value::Object(set)) => match set.get("keys") {
            Some(Value::Array(keys)) => (keys, pointer(ptr, "keys")),
            _ => {
                report.error(
                    &format!("invalid_{claim}"),
                    format!("{ptr} is not a JWK Set with a keys array (RFC 7517 section 5)"),
                    at(ptr),
                );
                return Vec::new();
            }
        },
        Some(Value::Array(keys)) => {
            report.error(
                &format!("invalid_{claim}"),
                format!("{ptr} is a bare array of JWKs, not a JWK Set (RFC 7517 section 5)"),
                at(ptr),
            );
            (keys, ptr.to_string())
        }
        Some(other) => {
            report.error(
                &format!("invalid_{claim}"),
                format!("{ptr} must be a JWK Set, found {}", type_name(other)),
                at(ptr),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let kp = pointer(&base, &i.to_string());
        let Some(jwk) = key.as_object() else { continue };
        out.push(jwk);
        let private: Vec<&str> = PRIVATE_PARAMS
            .iter()
            .copied()
            .chain((jwk.get("kty").and_then(Value::as_str) == Some("oct")).then_some("k"))
            .filter(|p| jwk.contains_key(*p))
            .collect();
        if let Some(first) = private.first() {
            report.error(
                c::PRIVATE_KEY_MATERIAL,
                format!("published key carries private members {}: the private key is exposed", private.join(", ")),
                at(pointer(&kp, first)),
            );
        }
        if let Some(tp) = jwk_thumbprint(jwk) {
            let mut cand = Candidate::new(CandidateKind::Key, relation, format!("{THUMBPRINT_URN_PREFIX}{tp}"), at(kp));
            for hint in ["kty", "kid", "alg", "use"] {
                if let Some(v) = jwk.get(hint).and_then(Value::as_str) {
                    cand = cand.with_hint(hint, v);
                }
            }
            if !private.is_empty() {
                cand = cand.with_flag(c::PRIVATE_KEY_MATERIAL);
            }
            report.candidate(cand);
        }
    }
    out
}

/// Checks the signature with the key of the statement's own `jwks` that the header's `kid` names.
/// `has_jwks`: the claim is present (when absent, `missing_jwks` already says why no key is found).
fn check_signature(
    report: &mut Report,
    header: &Map<String, Value>,
    keys: Vec<&Map<String, Value>>,
    jws: &jws::CompactJws<'_>,
    has_jwks: bool,
) {
    let alg = header.get("alg").and_then(Value::as_str).unwrap_or("none");
    let kid = header.get("kid").and_then(Value::as_str);
    let outcome = if alg == "none" {
        "not_checked"
    } else if !jws::ALGORITHMS.contains(&alg) {
        report.warn(
            c::UNSUPPORTED_ALG,
            format!("alg {alg:?} is not checked by this scanner; the signature is not verified"),
            None,
        );
        "unsupported_alg"
    } else {
        let candidates: Vec<&Map<String, Value>> = match kid {
            Some(k) => keys.into_iter().filter(|j| j.get("kid").and_then(Value::as_str) == Some(k)).collect(),
            None => keys,
        };
        if candidates.is_empty() {
            if kid.is_some() && has_jwks {
                report.error(
                    c::SIGNING_KEY_NOT_FOUND,
                    format!("no key of the statement's own jwks has kid {kid:?} (section 3.1); a key in the JWS header is not trusted"),
                    at("/jwks"),
                );
            }
            "key_not_found"
        } else if candidates
            .iter()
            .any(|j| jws::verify(alg, j, jws.signing_input.as_bytes(), &jws.signature) == Check::Valid)
        {
            "valid"
        } else {
            report.error(
                c::INVALID_SIGNATURE,
                format!("the {alg} signature does not verify with the key the header names"),
                None,
            );
            "invalid"
        }
    };
    report.fact("signature", outcome);
}

/// `authority_hints`: a non-empty array of superiors' Entity Identifiers (section 3).
fn read_authority_hints(report: &mut Report, claims: &Map<String, Value>) {
    let Some(value) = claims.get("authority_hints") else {
        report.fact("authority_hint_count", 0);
        return;
    };
    let Some(items) = value.as_array().filter(|a| !a.is_empty()) else {
        report.error(
            "invalid_authority_hints",
            "authority_hints must be a non-empty array of Entity Identifiers (section 3)",
            at("/authority_hints"),
        );
        return;
    };
    report.fact("authority_hint_count", items.len());
    for (i, item) in items.iter().enumerate() {
        let ptr = pointer("/authority_hints", &i.to_string());
        let Some(id) = item.as_str() else {
            report.error("invalid_authority_hints", format!("item {i} is {}, not a string", type_name(item)), at(ptr));
            continue;
        };
        if let Some(url) = check_entity_id(report, id, &ptr) {
            origin_candidate(report, &url, id, "authority_hint", &ptr);
            if url.path() != "/" {
                let mut config = url.clone();
                config.set_path(&format!("{}/.well-known/{}", url.path().trim_end_matches('/'), crate::SUFFIX));
                report.follow_up(crate::PROBE_ID, config, "authority_hint");
            }
        }
    }
}

fn origin_candidate(report: &mut Report, url: &Url, id: &str, relation: &str, ptr: &str) {
    if let Ok(origin) = Origin::from_url(url) {
        report.candidate(
            Candidate::new(CandidateKind::Origin, relation, origin.ascii(), at(ptr)).with_hint("entity_id", id),
        );
    }
}

/// `trust_mark_issuers` (and the draft `trust_marks_issuers`): trust mark type → issuers' Entity
/// Identifiers.
fn read_trust_mark_issuers(report: &mut Report, claims: &Map<String, Value>) {
    for name in ["trust_mark_issuers", "trust_marks_issuers"] {
        let Some(value) = claims.get(name) else { continue };
        let base = pointer("", name);
        if name == "trust_marks_issuers" {
            report.warn(
                c::DRAFT_MEMBER_NAME,
                "trust_marks_issuers is a draft name: OpenID Federation 1.0 says trust_mark_issuers",
                at(base.clone()),
            );
        }
        let Some(map) = value.as_object() else {
            report.error(
                &format!("invalid_{name}"),
                format!("{name} must be an object, found {}", type_name(value)),
                at(base),
            );
            continue;
        };
        for (mark, issuers) in map {
            let mp = pointer(&base, mark);
            for (i, issuer) in issuers.as_array().into_iter().flatten().enumerate() {
                let ptr = pointer(&mp, &i.to_string());
                if let Some(id) = issuer.as_str()
                    && let Some(url) = check_entity_id(report, id, &ptr)
                {
                    origin_candidate(report, &url, id, "trust_mark_issuer", &ptr);
                }
            }
        }
    }
}

/// `metadata`: per entity type, URL members as candidates, `jwks_uri` followed, `jwks` keys, and the
/// Entity Identifier as an issuer for OpenID Provider / authorization server metadata.
fn read_metadata(report: &mut Report, claims: &Map<String, Value>, entity: Option<&str>) {
    let Some(value) = claims.get("metadata") else {
        report.fact("entity_types", Vec::<String>::new());
        return;
    };
    let Some(types) = value.as_object() else {
        report.error(
            "invalid_metadata",
            format!("metadata must be an object, found {}", type_name(value)),
            at("/metadata"),
        );
        return;
    };
    report.fact("entity_types", types.keys().cloned().collect::<Vec<_>>());
    for (etype, members) in types {
        let tp = pointer("/metadata", etype);
        let Some(members) = members.as_object() else {
            report.error("invalid_metadata", format!("metadata.{etype} must be an object"), at(tp));
            continue;
        };
        if matches!(etype.as_str(), "openid_provider" | "oauth_authorization_server")
            && let Some(id) = entity.filter(|e| e.starts_with("https://"))
        {
            report.candidate(Candidate::new(CandidateKind::Issuer, etype.as_str(), id, at(tp.clone())));
        }
        for (name, v) in members {
            let ptr = pointer(&tp, name);
            let relation = format!("metadata.{etype}.{name}");
            if name == "jwks" {
                read_jwks(report, Some(v), &ptr, &relation, false);
                continue;
            }
            let Some(url) = v
                .as_str()
                .and_then(|s| Url::parse(s).ok())
                .filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
            else {
                continue;
            };
            let endpoint = name.ends_with("_endpoint")
                || name.ends_with("_iframe")
                || name == "jwks_uri"
                || name == "signed_jwks_uri";
            let kind = if endpoint { CandidateKind::Endpoint } else { CandidateKind::Url };
            if name == "jwks_uri" {
                report.follow_up("jwks", url.clone(), "jwks_uri");
            }
            report.candidate(Candidate::new(kind, relation, url.as_str(), at(ptr)));
        }
    }
}

/// `endpoint_host` for each host of a URL, endpoint, issuer or origin candidate other than the
/// document's own.
fn host_candidates(report: &mut Report, meta: &FetchMeta) {
    let mut seen: Vec<String> = meta.url.host().map(|h| wellknown_core::Host::from(h).name()).into_iter().collect();
    let mut new = Vec::new();
    for cand in &report.candidates {
        if matches!(cand.kind(), CandidateKind::Key | CandidateKind::Host) {
            continue;
        }
        let Some(host) = Url::parse(cand.value()).ok().as_ref().and_then(host_name) else { continue };
        if !seen.contains(&host) {
            seen.push(host.clone());
            new.push(Candidate::new(CandidateKind::Host, "endpoint_host", host, cand.locator()));
        }
    }
    report.candidates.extend(new);
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
    use ring::rand::SystemRandom;
    use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
    use serde_json::json;
    use wellknown_core::Timestamp;

    const NOW: i64 = 1_800_000_000;

    /// A P-256 key pair and its public JWK (kid `k1`).
    fn key() -> (EcdsaKeyPair, Value) {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap();
        let public = pair.public_key().as_ref().to_vec();
        let jwk =
            json!({"kty":"EC","crv":"P-256","kid":"k1","x":B64.encode(&public[1..33]),"y":B64.encode(&public[33..65])});
        (pair, jwk)
    }

    fn sign(pair: &EcdsaKeyPair, header: &Value, claims: &Value) -> String {
        let input = format!("{}.{}", B64.encode(header.to_string()), B64.encode(claims.to_string()));
        let sig = pair.sign(&SystemRandom::new(), input.as_bytes()).unwrap();
        format!("{input}.{}", B64.encode(sig.as_ref()))
    }

    fn run_at(url: &str, body: &str) -> Report {
        let meta = FetchMeta::synthetic(
            Url::parse(url).unwrap(),
            Some("application/entity-statement+jwt"),
            Timestamp::from_second(NOW).unwrap(),
        );
        interpret(body.as_bytes(), &meta)
    }

    fn codes(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    fn header() -> Value {
        json!({"typ":"entity-statement+jwt","alg":"ES256","kid":"k1"})
    }

    fn claims(jwk: &Value) -> Value {
        json!({"iss":"https://op.example/fed","sub":"https://op.example/fed","iat":NOW - 10,"exp":NOW + 3600,
            "jwks":{"keys":[jwk]},"authority_hints":["https://ta.example","https://ia.example/eu"],
            "metadata":{"openid_provider":{"issuer":"https://op.example/fed","jwks_uri":"https://keys.example/jwks",
                "token_endpoint":"https://op.example/fed/token","policy_uri":"https://op.example/policy"}}})
    }

    const URL: &str = "https://op.example/fed/.well-known/openid-federation";

    #[test]
    fn a_signed_entity_configuration_is_valid_and_reveals_its_graph() {
        let (pair, jwk) = key();
        let r = run_at(URL, &format!("{}\n", sign(&pair, &header(), &claims(&jwk))));
        assert_eq!(codes(&r), Vec::<&str>::new());
        assert_eq!(r.facts["signature"], "valid");
        assert_eq!(r.facts["entity_id"], "https://op.example/fed");
        let of = |kind| {
            r.candidates
                .iter()
                .filter(move |c| c.kind() == kind)
                .map(|c| (c.relation().to_string(), c.value().to_string()))
        };
        assert_eq!(
            of(CandidateKind::Origin).collect::<Vec<_>>(),
            [
                ("authority_hint".into(), "https://ta.example".into()),
                ("authority_hint".into(), "https://ia.example".into())
            ]
        );
        assert_eq!(
            of(CandidateKind::Issuer).collect::<Vec<_>>(),
            [("openid_provider".into(), "https://op.example/fed".into())]
        );
        assert!(of(CandidateKind::Endpoint).any(|(rel, v)| rel == "metadata.openid_provider.token_endpoint" && v == "https://op.example/fed/token"));
        assert_eq!(of(CandidateKind::Key).count(), 1);
        let follow: Vec<(&str, &str)> = r.follow_ups.iter().map(|f| (f.probe.as_str(), f.url.as_str())).collect();
        assert_eq!(
            follow,
            [
                ("openid-federation", "https://ia.example/eu/.well-known/openid-federation"),
                ("jwks", "https://keys.example/jwks")
            ]
        );
        let hint = r.candidates.iter().find(|c| c.relation() == "authority_hint").unwrap();
        assert_eq!(hint.locator(), Some(wellknown_core::Locator::JsonPointer("/authority_hints/0".into())));
    }

    #[test]
    fn signature_key_and_header_failures() {
        let (pair, jwk) = key();
        let (_, other) = key();
        // Signed by a key the statement does not publish under that kid.
        let r = run_at(URL, &sign(&pair, &header(), &claims(&other)));
        assert_eq!(codes(&r), ["invalid_signature"]);
        assert_eq!(r.facts["signature"], "invalid");
        let r = run_at(URL, &sign(&pair, &json!({"typ":"JWT","alg":"ES256","kid":"k9"}), &claims(&jwk)));
        assert_eq!(codes(&r), ["invalid_typ", "signing_key_not_found"]);
        let r = run_at(URL, &sign(&pair, &json!({"typ":"entity-statement+jwt","alg":"none"}), &claims(&jwk)));
        assert_eq!(codes(&r), ["missing_kid", "alg_none"]);
        let r =
            run_at(URL, &sign(&pair, &json!({"typ":"entity-statement+jwt","alg":"HS256","kid":"k1"}), &claims(&jwk)));
        assert_eq!(codes(&r), ["unsupported_alg"]);
        assert_eq!(run_at(URL, "a.b").facts.get("signature"), None);
        assert_eq!(codes(&run_at(URL, "a.b")), ["invalid_jws"]);
        assert_eq!(codes(&run_at(URL, "e30.W10.AA")), ["invalid_jws"]);
    }

    #[test]
    fn times_identity_and_private_keys() {
        let (pair, jwk) = key();
        let mut c = claims(&jwk);
        c["iat"] = json!(NOW + 3600);
        c["exp"] = json!(NOW - 1);
        c["sub"] = json!("https://other.example");
        c["authority_hints"] = json!(["http://ta.example", 3]);
        let mut leaked = jwk.clone();
        leaked["d"] = json!("c2VjcmV0");
        c["metadata"]["openid_relying_party"] = json!({"jwks":{"keys":[leaked]}});
        let r = run_at(URL, &sign(&pair, &header(), &c));
        assert_eq!(
            codes(&r),
            [
                "iss_sub_mismatch",
                "expired",
                "iat_in_future",
                "exp_before_iat",
                "entity_id_not_https",
                "invalid_authority_hints",
                "private_key_material"
            ]
        );
        let r = run_at("https://op.example/.well-known/openid-federation", &sign(&pair, &header(), &claims(&jwk)));
        assert_eq!(codes(&r), ["entity_id_mismatch"]);
        let meta = FetchMeta::synthetic(
            Url::parse(URL).unwrap(),
            Some("application/jwt"),
            Timestamp::from_second(NOW).unwrap(),
        );
        assert_eq!(
            codes(&interpret(sign(&pair, &header(), &claims(&jwk)).as_bytes(), &meta)),
            ["invalid_content_type"]
        );
    }
}
