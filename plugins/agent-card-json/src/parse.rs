//! The parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! An A2A Agent Card is a JSON object describing an agent: its name, description and version, how to
//! reach it (A2A 0.3: `url`, `preferredTransport`, `additionalInterfaces`; A2A 1.0:
//! `supportedInterfaces`), its provider, capabilities, skills and the security schemes a client must
//! satisfy (OpenAPI-style: OAuth 2.0 flows, OpenID Connect discovery URLs, API keys, mTLS). Both the
//! 0.3 shape (`{"type": "oauth2", ...}`) and the 1.0 shape (`{"oauth2SecurityScheme": {...}}`) of a
//! security scheme are read.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, media_type_diagnostics, read_document};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Report};
use wellknown_oauth_metadata::location::{Construction, expected_issuer_from};
use wellknown_oauth_metadata::metadata::host_name;

use crate::codes as c;

/// Fetch cap: 1 MiB (cards with many skills are tens of KiB); larger bodies are `too_large`.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// How an Agent Card is read as JSON: any JSON media type, a JSON object; repeated member names are
/// warnings (RFC 8259 section 4).
pub const AGENT_CARD_JSON: JsonRules = JsonRules {
    accepts: |m| m.is_json(),
    wrong_media_type: |raw, parsed| match parsed {
        Some(m) => format!("an Agent Card is JSON (application/json), not {}", m.essence),
        None => format!("an Agent Card is JSON (application/json), not {:?}", raw.unwrap_or("nothing")),
    },
    wrong_top_level: |found| format!("an Agent Card is a JSON object, found {found}"),
    ..JsonRules::JSON
};

/// The report kind of an Agent Card.
pub const KIND: &str = "agent_card";

/// Members `AgentCard` defines (A2A 0.3 and 1.0). Others are extensions: their http(s) URL strings
/// (any depth up to [`MAX_HARVEST_DEPTH`]) still become `url` candidates.
pub const KNOWN: &[&str] = &[
    "protocolVersion",
    "name",
    "description",
    "url",
    "preferredTransport",
    "additionalInterfaces",
    "supportedInterfaces",
    "iconUrl",
    "provider",
    "version",
    "documentationUrl",
    "capabilities",
    "securitySchemes",
    "security",
    "securityRequirements",
    "defaultInputModes",
    "defaultOutputModes",
    "skills",
    "supportsAuthenticatedExtendedCard",
    "signatures",
];

/// How deep extension members are searched for URLs.
pub const MAX_HARVEST_DEPTH: usize = 4;

/// Interprets an Agent Card fetched as `meta`. Pure, never panics.
///
/// Report kind [`KIND`] (`invalid` when not a JSON object). Facts: `name`, `version`,
/// `protocol_version` (or null), `shape` (`a2a-0.3` when `url` is used, `a2a-1.0` when
/// `supportedInterfaces` is), `skill_count`, `security_schemes` (their names), `signature_count`
/// (signatures are recorded, not verified).
///
/// Candidates: `url` `interface` for the agent's URL and each interface (hint `transport`; a relative
/// URL is resolved against the card and flagged `relative`); `url` for `iconUrl`, `documentationUrl`,
/// `provider.url`; for each security scheme `endpoint` `oauth2.<flow>.<member>` (authorization, token,
/// refresh, device URLs), `url` `oauth2_metadata_url` / `openid_connect_url`, and `issuer`
/// `oauth2_issuer` / `openid_connect_issuer` when the URL is a metadata URL the issuer can be read
/// from (RFC 8414 section 3.1 inserted, OpenID Connect Discovery section 4 appended); `url` for
/// extension members' URLs; `host` `endpoint_host` for other hosts.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, KIND);
    if let Some(d) = media_type_diagnostics(meta.content_type.as_deref(), &AGENT_CARD_JSON) {
        report.push(d);
    }
    if meta.truncated || body.len() as u64 > MAX_BODY_BYTES {
        report.error(shared::TOO_LARGE, format!("body exceeds {MAX_BODY_BYTES} bytes"), None);
    }
    let doc = read_document(body, &AGENT_CARD_JSON);
    for d in doc.diagnostics {
        report.push(d);
    }
    let Some(Value::Object(object)) = doc.value else {
        report.kind = "invalid".into();
        return report;
    };
    read_card(&mut report, &object, &meta.url);
    record_facts(&mut report, &object);
    for alternate in doc.alternates {
        if let Value::Object(alt) = alternate {
            let mut seen = Report::new(crate::PROBE_ID, &meta.url, KIND);
            read_card(&mut seen, &alt, &meta.url);
            merge_alternate(&mut report, seen);
        }
    }
    report
}

fn record_facts(report: &mut Report, card: &Map<String, Value>) {
    let get = |k: &str| card.get(k).cloned().unwrap_or(Value::Null);
    report.fact("name", get("name"));
    report.fact("version", get("version"));
    report.fact("protocol_version", get("protocolVersion"));
    let shape = match (card.contains_key("supportedInterfaces"), card.contains_key("url")) {
        (true, _) => Value::from("a2a-1.0"),
        (false, true) => Value::from("a2a-0.3"),
        _ => Value::Null,
    };
    report.fact("shape", shape);
    report.fact("skill_count", card.get("skills").and_then(Value::as_array).map_or(0, Vec::len));
    let schemes: Vec<String> =
        card.get("securitySchemes").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
    report.fact("security_schemes", schemes);
    report.fact("signature_count", card.get("signatures").and_then(Value::as_array).map_or(0, Vec::len));
}

fn read_card(report: &mut Report, card: &Map<String, Value>, base: &Url) {
    for member in ["name", "description", "version"] {
        match card.get(member) {
            None => report.error(&code("missing", member), format!("{member} is REQUIRED in an AgentCard"), at("")),
            Some(v) if !v.is_string() => report.error(
                &code("invalid", member),
                format!("{member} must be a string, found {}", type_name(v)),
                at(pointer("", member)),
            ),
            Some(_) => {}
        }
    }
    for member in ["capabilities", "defaultInputModes", "defaultOutputModes", "skills"] {
        if !card.contains_key(member) {
            report.error(&code("missing", member), format!("{member} is REQUIRED in an AgentCard"), at(""));
        }
    }
    read_interfaces(report, card, base);
    read_provider(report, card.get("provider"));
    for member in ["iconUrl", "documentationUrl"] {
        if let Some(v) = card.get(member) {
            page(report, v, member, &pointer("", member));
        }
    }
    read_skills(report, card.get("skills"));
    if let Some(v) = card.get("securitySchemes") {
        match v.as_object() {
            Some(schemes) => {
                for (name, scheme) in schemes {
                    read_scheme(report, name, scheme, &pointer("/securitySchemes", name));
                }
            }
            None => report.error(
                "invalid_security_schemes",
                format!("securitySchemes must be an object of named schemes, found {}", type_name(v)),
                at("/securitySchemes"),
            ),
        }
    }
    for (name, value) in card {
        if !KNOWN.contains(&name.as_str()) {
            harvest(report, value, name, &pointer("", name), 0);
        }
    }
    host_candidates(report, base);
}

/// The agent's URL (0.3) and its interfaces (0.3 `additionalInterfaces`, 1.0 `supportedInterfaces`).
fn read_interfaces(report: &mut Report, card: &Map<String, Value>, base: &Url) {
    let mut any = false;
    if let Some(v) = card.get("url") {
        any = true;
        let transport = card.get("preferredTransport").and_then(Value::as_str);
        interface(report, v, transport, "/url", base);
    }
    for list in ["additionalInterfaces", "supportedInterfaces"] {
        let Some(v) = card.get(list) else { continue };
        let lp = pointer("", list);
        let Some(items) = v.as_array() else {
            report.error(
                &code("invalid", list),
                format!("{list} must be an array of AgentInterface, found {}", type_name(v)),
                at(lp),
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let ip = pointer(&lp, &i.to_string());
            let Some(obj) = item.as_object() else {
                report.error(
                    &code("invalid", list),
                    format!("{list} item {i} is {}, not an object", type_name(item)),
                    at(ip),
                );
                continue;
            };
            let transport = obj.get("protocolBinding").or_else(|| obj.get("transport")).and_then(Value::as_str);
            match obj.get("url") {
                Some(u) => {
                    any |= list == "supportedInterfaces";
                    interface(report, u, transport, &pointer(&ip, "url"), base);
                }
                None => report.error(&code("invalid", list), format!("{list} item {i} has no url"), at(ip)),
            }
        }
    }
    if !any {
        report.error(
            c::MISSING_INTERFACE,
            "neither url (A2A 0.3) nor supportedInterfaces (A2A 1.0): the agent cannot be reached",
            at(""),
        );
    }
}

fn interface(report: &mut Report, value: &Value, transport: Option<&str>, ptr: &str, base: &Url) {
    let Some(s) = value.as_str() else {
        report.error("invalid_url", format!("an interface url must be a string, found {}", type_name(value)), at(ptr));
        return;
    };
    let (url, relative) = match Url::parse(s) {
        Ok(u) => (u, false),
        Err(url::ParseError::RelativeUrlWithoutBase) => match base.join(s) {
            Ok(u) => {
                report.error(
                    c::RELATIVE_INTERFACE_URL,
                    format!("interface url {s:?} is relative; an AgentInterface url is absolute"),
                    at(ptr),
                );
                (u, true)
            }
            Err(_) => return report.error("invalid_url", format!("interface url {s:?} is not a URL"), at(ptr)),
        },
        Err(_) => return report.error("invalid_url", format!("interface url {s:?} is not a URL"), at(ptr)),
    };
    if !matches!(url.scheme(), "http" | "https") {
        // gRPC and other bindings may use other schemes: recorded as declared, no candidate URL.
        return;
    }
    if url.scheme() != "https" {
        report.warn(
            c::INSECURE_INTERFACE_URL,
            format!("interface url {s:?} is not https (A2A requires HTTPS in production)"),
            at(ptr),
        );
    }
    let mut cand = Candidate::new(CandidateKind::Url, "interface", url.as_str(), at(ptr));
    if let Some(t) = transport {
        cand = cand.with_hint("transport", t);
    }
    if relative {
        cand = cand.with_flag("relative");
    }
    report.candidate(cand);
}

fn read_provider(report: &mut Report, provider: Option<&Value>) {
    let Some(v) = provider else { return };
    let Some(p) = v.as_object() else {
        report.error(
            c::INVALID_PROVIDER,
            format!("provider must be an object, found {}", type_name(v)),
            at("/provider"),
        );
        return;
    };
    let missing: Vec<&str> =
        ["organization", "url"].into_iter().filter(|m| !p.get(*m).is_some_and(Value::is_string)).collect();
    if !missing.is_empty() {
        let extra = if p.contains_key("name") { " (it has name, which AgentProvider does not define)" } else { "" };
        report.error(
            c::INVALID_PROVIDER,
            format!("provider lacks {} (REQUIRED in AgentProvider){extra}", missing.join(" and ")),
            at("/provider"),
        );
    }
    if let Some(u) = p.get("url") {
        page(report, u, "provider.url", "/provider/url");
    }
}

fn read_skills(report: &mut Report, skills: Option<&Value>) {
    let Some(v) = skills else { return };
    let Some(items) = v.as_array() else {
        report.error(
            "invalid_skills",
            format!("skills must be an array of AgentSkill, found {}", type_name(v)),
            at("/skills"),
        );
        return;
    };
    for (i, skill) in items.iter().enumerate() {
        let sp = pointer("/skills", &i.to_string());
        let missing: Vec<&str> = match skill.as_object() {
            Some(s) => ["id", "name", "description", "tags"].into_iter().filter(|m| !s.contains_key(*m)).collect(),
            None => vec!["an object"],
        };
        if !missing.is_empty() {
            report.error(
                c::INVALID_SKILL,
                format!("skill {i} lacks {} (REQUIRED in AgentSkill)", missing.join(", ")),
                at(sp),
            );
        }
    }
}

/// A URL for people (`iconUrl`, `documentationUrl`, `provider.url`).
fn page(report: &mut Report, value: &Value, relation: &str, ptr: &str) {
    match value.as_str().and_then(http_url) {
        Some(u) => report.candidate(Candidate::new(CandidateKind::Url, relation, u.as_str(), at(ptr))),
        None => {
            let member = relation.rsplit('.').next().unwrap_or(relation);
            report.error(&code("invalid", member), format!("{relation} is not an absolute http(s) URL"), at(ptr));
        }
    }
}

/// A diagnostic code for a member: `prefix` + `_` + the member name in snake case
/// (`defaultInputModes` gives `missing_default_input_modes`): codes are `snake_case` (contract 7.1).
pub fn code(prefix: &str, member: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + member.len() + 4);
    out.push_str(prefix);
    out.push('_');
    for ch in member.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else if ch.is_ascii_alphanumeric() || ch == '_' {
            out.push(ch);
        } else {
            out.push('_');
        }
    }
    out
}

fn http_url(s: &str) -> Option<Url> {
    Url::parse(s).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
}

/// One security scheme, in the 0.3 shape (`type`) or the 1.0 shape (one wrapper member).
fn read_scheme(report: &mut Report, name: &str, scheme: &Value, ptr: &str) {
    let Some(obj) = scheme.as_object() else {
        report.error("invalid_security_schemes", format!("security scheme {name:?} is not an object"), at(ptr));
        return;
    };
    let (kind, body, bp) = match obj.get("type").and_then(Value::as_str) {
        Some(t) => (t.to_string(), obj, ptr.to_string()),
        None => match obj.iter().next().filter(|_| obj.len() == 1) {
            Some((wrapper, Value::Object(inner))) => {
                let kind = match wrapper.as_str() {
                    "oauth2SecurityScheme" => "oauth2",
                    "openIdConnectSecurityScheme" => "openIdConnect",
                    "apiKeySecurityScheme" => "apiKey",
                    "httpAuthSecurityScheme" => "http",
                    "mtlsSecurityScheme" => "mutualTLS",
                    other => other,
                };
                (kind.to_string(), inner, pointer(ptr, wrapper))
            }
            _ => (String::new(), obj, ptr.to_string()),
        },
    };
    match kind.as_str() {
        "oauth2" => {
            if let Some(u) = body.get("oauth2MetadataUrl") {
                metadata_url(
                    report,
                    u,
                    &pointer(&bp, "oauth2MetadataUrl"),
                    "oauth2_metadata_url",
                    "oauth2_issuer",
                    "oauth-authorization-server",
                );
            }
            let Some(flows) = body.get("flows").and_then(Value::as_object) else {
                report.error("invalid_flows", format!("OAuth 2.0 scheme {name:?} has no flows object"), at(bp));
                return;
            };
            for (flow, f) in flows {
                let fp = pointer(&pointer(&bp, "flows"), flow);
                for (member, v) in f.as_object().into_iter().flatten() {
                    if !member.ends_with("Url") {
                        continue;
                    }
                    let mp = pointer(&fp, member);
                    match v.as_str().and_then(http_url) {
                        Some(u) => {
                            if u.scheme() != "https" {
                                report.error(
                                    c::INSECURE_ENDPOINT,
                                    format!("{flow}.{member} {u} must use https (RFC 6749 section 3.1)"),
                                    at(mp.clone()),
                                );
                            }
                            report.candidate(Candidate::new(
                                CandidateKind::Endpoint,
                                format!("oauth2.{flow}.{member}"),
                                u.as_str(),
                                at(mp),
                            ));
                        }
                        None => report.error(
                            &code("invalid", member),
                            format!("{flow}.{member} is not an absolute http(s) URL"),
                            at(mp),
                        ),
                    }
                }
            }
        }
        "openIdConnect" => match body.get("openIdConnectUrl") {
            Some(u) => metadata_url(
                report,
                u,
                &pointer(&bp, "openIdConnectUrl"),
                "openid_connect_url",
                "openid_connect_issuer",
                "openid-configuration",
            ),
            None => report.error(
                "missing_open_id_connect_url",
                format!("OpenID Connect scheme {name:?} has no openIdConnectUrl"),
                at(bp),
            ),
        },
        "apiKey" | "http" | "mutualTLS" => {}
        other => report.warn(
            c::UNKNOWN_SECURITY_SCHEME,
            format!("security scheme {name:?} has unknown type {other:?}"),
            at(ptr),
        ),
    }
}

/// An OAuth / OpenID metadata URL: a `url` candidate, and the issuer it was built from as an `issuer`
/// candidate (RFC 8414 section 3.1 inserted form, or OpenID Connect Discovery section 4 appended).
fn metadata_url(report: &mut Report, value: &Value, ptr: &str, relation: &str, issuer_relation: &str, suffix: &str) {
    let Some(url) = value.as_str().and_then(http_url) else {
        let member = ptr.rsplit('/').next().unwrap_or(relation);
        report.error(&code("invalid", member), format!("{relation} is not an absolute http(s) URL"), at(ptr));
        return;
    };
    if url.scheme() != "https" {
        report.error(c::INSECURE_ENDPOINT, format!("{relation} {url} must use https"), at(ptr));
    }
    report.candidate(Candidate::new(CandidateKind::Url, relation, url.as_str(), at(ptr)));
    // Either suffix may carry either construction in the wild (RFC 8414 section 5).
    let issuer = expected_issuer_from(&url, suffix).or_else(|| {
        expected_issuer_from(
            &url,
            if suffix == "openid-configuration" { "oauth-authorization-server" } else { "openid-configuration" },
        )
    });
    match issuer {
        Some((issuer, construction)) => {
            let mut cand = Candidate::new(CandidateKind::Issuer, issuer_relation, issuer, at(ptr));
            if construction != Construction::Root {
                cand = cand.with_hint("construction", construction.as_str());
            }
            report.candidate(cand);
        }
        None => report.warn(
            c::NOT_A_DISCOVERY_URL,
            format!("{relation} {url} is not a well-known metadata URL: no issuer can be read from it"),
            at(ptr),
        ),
    }
}

/// http(s) URL strings of extension members, to [`MAX_HARVEST_DEPTH`].
fn harvest(report: &mut Report, value: &Value, name: &str, ptr: &str, depth: usize) {
    match value {
        Value::String(s) => {
            if let Some(u) = http_url(s) {
                report.candidate(Candidate::new(CandidateKind::Url, name, u.as_str(), at(ptr)));
            }
        }
        Value::Object(m) if depth < MAX_HARVEST_DEPTH => {
            for (k, v) in m {
                harvest(report, v, k, &pointer(ptr, k), depth + 1);
            }
        }
        Value::Array(a) if depth < MAX_HARVEST_DEPTH => {
            for (i, v) in a.iter().enumerate() {
                harvest(report, v, name, &pointer(ptr, &i.to_string()), depth + 1);
            }
        }
        _ => {}
    }
}

fn host_candidates(report: &mut Report, base: &Url) {
    let mut seen: Vec<String> = host_name(base).into_iter().collect();
    let mut new = Vec::new();
    for cand in &report.candidates {
        if !matches!(cand.kind(), CandidateKind::Url | CandidateKind::Endpoint | CandidateKind::Issuer) {
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
    use wellknown_core::Timestamp;

    fn run(body: &str) -> Report {
        let url = Url::parse("https://agent.example/.well-known/agent-card.json").unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
    }

    fn codes(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    const BASE: &str = r#""name":"A","description":"d","version":"1","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[]"#;

    #[test]
    fn a2a_0_3_oauth2_flows_and_metadata_url() {
        let r = run(&format!(
            r#"{{{BASE},"url":"http://agent.example/a2a","preferredTransport":"JSONRPC","skills":[{{"id":"s","name":"n","description":"d"}}],
            "additionalInterfaces":[{{"url":"grpc://agent.example:50051","transport":"GRPC"}}],
            "securitySchemes":{{"o":{{"type":"oauth2","oauth2MetadataUrl":"https://as.example/.well-known/oauth-authorization-server/t1",
              "flows":{{"authorizationCode":{{"authorizationUrl":"https://as.example/t1/authorize","tokenUrl":"http://as.example/t1/token","scopes":{{}}}}}}}},
              "k":{{"type":"apiKey","in":"header","name":"X"}},"w":{{"type":"magic"}},"i":{{"type":"openIdConnect","openIdConnectUrl":"https://id.example/config"}}}}}}"#
        ));
        assert_eq!(
            codes(&r),
            [
                "invalid_skill",
                "insecure_endpoint",
                "insecure_interface_url",
                "not_a_discovery_url",
                "unknown_security_scheme"
            ]
        );
        let issuers: Vec<(&str, &str, Option<&str>)> = r
            .candidates
            .iter()
            .filter(|c| c.kind() == CandidateKind::Issuer)
            .map(|c| (c.relation(), c.value(), c.hint("construction")))
            .collect();
        assert_eq!(issuers, [("oauth2_issuer", "https://as.example/t1", Some("inserted"))]);
        let token = r.candidates.iter().find(|c| c.relation() == "oauth2.authorizationCode.tokenUrl").unwrap();
        assert_eq!((token.kind(), token.value()), (CandidateKind::Endpoint, "http://as.example/t1/token"));
        let agent = r.candidates.iter().find(|c| c.relation() == "interface").unwrap();
        assert_eq!((agent.value(), agent.hint("transport")), ("http://agent.example/a2a", Some("JSONRPC")));
        assert_eq!(r.facts["shape"], "a2a-0.3");
    }

    #[test]
    fn required_members_and_interfaces() {
        let r = run(r#"{"name":1,"additionalInterfaces":[{"url":"https://agent.example/x"}]}"#);
        assert_eq!(
            codes(&r),
            [
                "invalid_name",
                "missing_description",
                "missing_version",
                "missing_capabilities",
                "missing_default_input_modes",
                "missing_default_output_modes",
                "missing_skills",
                "missing_interface"
            ]
        );
        assert_eq!(codes(&run("[]")), ["not_json_object"]);
    }
}
