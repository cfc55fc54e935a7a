//! Reading issuer metadata: what OpenID Connect Discovery 1.0 and RFC 8414 share.
//!
//! [`read_metadata`] is a pure function `(bytes, fetch metadata, profile) -> Metadata` that does
//! everything both documents need: content type, BOM / HTML / malformed JSON, the top-level object,
//! the issuer (exact string equality with the issuer the URL was built from, https, no query or
//! fragment), the location's construction, member types, https endpoints, `none` in the endpoint
//! authentication algorithms, every candidate (issuer, endpoints, pages, other hosts) and the
//! follow-ups (`jwks_uri`, a different issuer). Each specification's own required members and rules
//! are added on top by its probe (`wellknown-oauth-authorization-server`, `wellknown-openid-configuration`).

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, media_type_diagnostics, read_document};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, FetchPolicy, Host, Report};

use crate::location::{Construction, expected_issuer_from};
use crate::members::{MemberType, NO_NONE_ALG, member_type};

/// The fetch policy of metadata documents: default caps, redirects followed (each recorded),
/// `Accept: application/json` (OIDC Discovery 1.0 section 4.2, RFC 8414 section 3.2).
pub fn metadata_policy() -> FetchPolicy {
    FetchPolicy { accept: Some("application/json".into()), ..FetchPolicy::default() }
}

use crate::codes as c;

/// How a metadata document is read as JSON: `application/json` (OIDC Discovery section 4.2, RFC 8414
/// section 3.2; `invalid_charset` for a charset other than utf-8), a JSON object.
pub const METADATA_JSON: JsonRules = JsonRules {
    wrong_media_type: |_, parsed| match parsed {
        Some(m) => format!("metadata must be served as application/json, not {}", m.essence),
        None => "metadata served without a usable Content-Type".to_string(),
    },
    wrong_top_level: |found| format!("the metadata must be a JSON object, found {found}"),
    ..JsonRules::JSON
};

/// Largest body interpreted in full (1 MiB, the default fetch cap); larger bodies are `too_large`.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// What distinguishes the two metadata documents when reading them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MetadataProfile {
    /// Probe id (`openid-configuration`, `oauth-authorization-server`): the report's probe and the
    /// probe an issuer follow-up is addressed to.
    pub probe: &'static str,
    /// Well-known suffix, for the location's construction.
    pub suffix: &'static str,
    /// The construction the specification defines: [`Construction::Appended`] for OpenID Connect,
    /// [`Construction::Inserted`] for RFC 8414.
    pub native: Construction,
    /// Specification name for messages.
    pub spec: &'static str,
    /// Members this document defines beyond [`crate::members::MEMBERS`] (looked up first), with
    /// their JSON types: `&[]` for OIDC Discovery and RFC 8414; UMA 2.0's `permission_endpoint`, say.
    pub extra_members: &'static [(&'static str, MemberType)],
}

impl MetadataProfile {
    /// The type of member `name` in this document: [`MetadataProfile::extra_members`] first, then
    /// the shared table ([`member_type`]); None for a member neither knows (tolerated).
    pub fn member_type(&self, name: &str) -> Option<MemberType> {
        self.extra_members.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).or_else(|| member_type(name))
    }
}

/// The outcome of [`read_metadata`]: the report so far plus what the specification-specific checks
/// need.
#[derive(Debug, Clone, PartialEq)]
pub struct Metadata {
    /// Diagnostics, candidates, follow-ups and facts found so far.
    pub report: Report,
    /// The top-level object, None when the body is not a JSON object.
    pub object: Option<Map<String, Value>>,
    /// The issuer the metadata URL was built from, and the construction, when the URL follows one.
    pub expected: Option<(String, Construction)>,
}

/// Reads an issuer metadata document (OIDC Discovery 1.0 sections 3-4, RFC 8414 sections 2-3). Pure,
/// never panics.
///
/// The expected issuer comes from the URL first requested (`meta.requested_url`, before any
/// redirect): both specifications bind the issuer to the URL "used to retrieve" the metadata
/// (OIDC Discovery section 4.3, RFC 8414 section 3.3). Facts recorded: `issuer` (expected, or null),
/// `construction` (`root`, `appended`, `inserted`, or null), `redirected_from` when redirected.
pub fn read_metadata(body: &[u8], meta: &FetchMeta, profile: &MetadataProfile) -> Metadata {
    let mut report = Report::new(profile.probe, &meta.url, profile.probe);
    if let Some(d) = media_type_diagnostics(meta.content_type.as_deref(), &METADATA_JSON) {
        report.push(d);
    }
    if meta.truncated || body.len() > MAX_BODY_BYTES {
        report.error(codes::TOO_LARGE, format!("body exceeds {MAX_BODY_BYTES} bytes"), None);
    }

    let expected = expected_issuer_from(&meta.requested_url, profile.suffix)
        .or_else(|| expected_issuer_from(&meta.url, profile.suffix));
    record_location(&mut report, meta, profile, expected.as_ref());

    let parsed = read_document(body, &METADATA_JSON);
    for d in parsed.diagnostics {
        report.push(d);
    }
    let Some(Value::Object(object)) = parsed.value else {
        report.kind = "invalid".into();
        return Metadata { report, object: None, expected };
    };

    read_object(&mut report, &object, expected.as_ref(), profile);
    // A repeated member name (`duplicate_member`): each earlier occurrence is checked as well, so an
    // `issuer` or `jwks_uri` a first-wins client would use is diagnosed and followed too.
    for alternate in parsed.alternates {
        if let Value::Object(alt) = alternate {
            let mut seen = Report::new(profile.probe, &meta.url, profile.probe);
            read_object(&mut seen, &alt, expected.as_ref(), profile);
            merge_alternate(&mut report, seen);
        }
    }
    Metadata { report, object: Some(object), expected }
}

/// The checks and candidates that depend on the top-level object: issuer, member types, hosts, the
/// `jwks_uri` follow-up.
fn read_object(
    report: &mut Report,
    object: &Map<String, Value>,
    expected: Option<&(String, Construction)>,
    profile: &MetadataProfile,
) {
    let issuer = check_issuer(report, object, expected, profile);
    let mut seen_hosts = Vec::new();
    for (name, value) in object {
        check_member(report, name, value, profile);
    }
    host_candidates(report, issuer.as_ref(), expected, &mut seen_hosts);
    extra_host_members(report, object, &mut seen_hosts, profile);
    if let Some(jwks) = object.get("jwks_uri").and_then(Value::as_str).and_then(http_url) {
        report.follow_up(crate::jwks::PROBE_ID, jwks, "jwks_uri");
    }
}

/// Facts about the location, and the construction diagnostics.
fn record_location(
    report: &mut Report,
    meta: &FetchMeta,
    profile: &MetadataProfile,
    expected: Option<&(String, Construction)>,
) {
    if meta.was_redirected() {
        report.fact("redirected_from", meta.requested_url.as_str());
    }
    let Some((issuer, construction)) = expected else {
        report.fact("issuer", Value::Null);
        report.fact("construction", Value::Null);
        report.error(
            c::WRONG_WELL_KNOWN_LOCATION,
            format!(
                "{} is not a /.well-known/{} location for any issuer, so the issuer cannot be checked",
                meta.requested_url, profile.suffix
            ),
            None,
        );
        return;
    };
    report.fact("issuer", issuer.as_str());
    report.fact("construction", construction.as_str());
    match (profile.native, construction) {
        (_, Construction::Root) => {}
        (native, found) if native == *found => {}
        (Construction::Appended, Construction::Inserted) => report.warn(
            c::RFC8414_STYLE_LOCATION,
            format!(
                "found at the RFC 8414 inserted form for issuer {issuer}; {} places it at {issuer}/.well-known/{} \
                 (RFC 8414 section 5 allows the inserted form, but clients that follow OIDC Discovery section 4 \
                 do not look there)",
                profile.spec, profile.suffix
            ),
            None,
        ),
        _ => report.error(
            c::WRONG_WELL_KNOWN_LOCATION,
            format!(
                "found at the {} form for issuer {issuer}; {} requires the {} form",
                construction.as_str(),
                profile.spec,
                profile.native.as_str()
            ),
            None,
        ),
    }
}

/// Checks `issuer` (OIDC Discovery sections 3 and 4.3, RFC 8414 sections 2 and 3.3) and adds the
/// issuer candidate and, when it names another issuer, the follow-up. Returns the parsed issuer URL.
fn check_issuer(
    report: &mut Report,
    object: &Map<String, Value>,
    expected: Option<&(String, Construction)>,
    profile: &MetadataProfile,
) -> Option<Url> {
    let loc = at("/issuer");
    let value = match object.get("issuer") {
        None => {
            report.error("missing_issuer", format!("issuer is REQUIRED ({})", profile.spec), at(""));
            return None;
        }
        Some(Value::String(s)) => s,
        Some(other) => {
            report.error("invalid_issuer", format!("issuer must be a string URL, found {}", type_name(other)), loc);
            return None;
        }
    };
    let url = match Url::parse(value) {
        Ok(u) if u.has_host() => u,
        _ => {
            report.error("invalid_issuer", format!("issuer {value:?} is not an absolute URL"), loc);
            return None;
        }
    };
    let templated = value.contains('{') && value.contains('}');
    let mut cand = Candidate::new(CandidateKind::Issuer, "issuer", value.as_str(), loc.clone());
    if templated {
        cand = cand.with_flag("templated");
    }
    report.candidate(cand);
    if url.scheme() != "https" {
        report.error(c::ISSUER_NOT_HTTPS, format!("issuer {value:?} must use the https scheme"), loc.clone());
    }
    if url.query().is_some() || url.fragment().is_some() || value.contains('?') || value.contains('#') {
        report.error(
            c::ISSUER_HAS_QUERY_OR_FRAGMENT,
            format!("issuer {value:?} must have no query or fragment component"),
            loc.clone(),
        );
    }
    let mut follow = false;
    if let Some((exp, _)) = expected {
        if value == exp {
        } else if value.trim_end_matches('/') == exp.trim_end_matches('/') {
            report.warn(
                c::ISSUER_TRAILING_SLASH,
                format!(
                    "issuer {value:?} differs from {exp:?}, the issuer this document's URL was built from, only by \
                     a trailing slash; clients compare issuers as exact strings"
                ),
                loc.clone(),
            );
        } else {
            let note = if templated {
                " (a templated issuer: clients must substitute the tenant before comparing, outside the specification)"
            } else {
                ""
            };
            report.error(
                c::ISSUER_MISMATCH,
                format!(
                    "issuer {value:?} is not identical to {exp:?}, the issuer this document's URL was built from{note}"
                ),
                loc.clone(),
            );
            follow = true;
        }
    }
    if let Some((_, construction)) = expected
        && *construction == Construction::Appended
        && profile.native == Construction::Inserted
    {
        follow = true;
    }
    let clean = url.scheme() == "https" && url.query().is_none() && url.fragment().is_none();
    if follow && clean && !templated {
        report.follow_up(profile.probe, url.clone(), "issuer");
    }
    Some(url)
}

/// An absolute http(s) URL, or None.
fn http_url(s: &str) -> Option<Url> {
    Url::parse(s).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
}

/// Type-checks one member and adds its candidates.
fn check_member(report: &mut Report, name: &str, value: &Value, profile: &MetadataProfile) {
    let ptr = pointer("", name);
    let Some(ty) = profile.member_type(name) else {
        harvest_unknown(report, name, value, &ptr);
        return;
    };
    let invalid = |report: &mut Report, why: String| report.error(&format!("invalid_{name}"), why, at(ptr.clone()));
    match ty {
        MemberType::Issuer => {}
        MemberType::Endpoint | MemberType::PageUrl => {
            let Some(s) = value.as_str() else {
                invalid(report, format!("{name} must be a string URL, found {}", type_name(value)));
                return;
            };
            url_candidate(report, name, s, ty == MemberType::Endpoint, &ptr, true);
        }
        MemberType::StringArray => match value {
            Value::Array(items) if items.is_empty() => {
                invalid(report, format!("{name} is an empty array; members with zero elements MUST be omitted"))
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        let p = pointer(&ptr, &i.to_string());
                        report.error(
                            &format!("invalid_{name}"),
                            format!("{name} must hold strings, item {i} is {}", type_name(item)),
                            at(p),
                        );
                    }
                }
                if NO_NONE_ALG.contains(&name) {
                    for (i, item) in items.iter().enumerate() {
                        if item.as_str() == Some("none") {
                            report.error(
                                c::NONE_ALG_NOT_ALLOWED,
                                format!("{name} must not list \"none\" (RFC 8414 section 2)"),
                                at(pointer(&ptr, &i.to_string())),
                            );
                        }
                    }
                }
            }
            _ => invalid(report, format!("{name} must be a JSON array of strings, found {}", type_name(value))),
        },
        MemberType::Bool => {
            if !value.is_boolean() {
                invalid(report, format!("{name} must be a boolean, found {}", type_name(value)));
            }
        }
        MemberType::String => {
            if !value.is_string() {
                invalid(report, format!("{name} must be a string, found {}", type_name(value)));
            }
        }
        MemberType::EndpointAliases => {
            let Some(aliases) = value.as_object() else {
                invalid(report, format!("{name} must be a JSON object of endpoint URLs, found {}", type_name(value)));
                return;
            };
            for (alias, v) in aliases {
                let p = pointer(&ptr, alias);
                let relation = format!("{name}.{alias}");
                match v.as_str() {
                    Some(s) => url_candidate(report, &relation, s, true, &p, true),
                    None => report.error(
                        &format!("invalid_{name}"),
                        format!("{relation} must be a string URL, found {}", type_name(v)),
                        at(p),
                    ),
                }
            }
        }
    }
}

/// Adds a URL candidate for `s` (kind `endpoint` or `url`, relation `relation`). With `strict`, a
/// value that is not an absolute http(s) URL is `invalid_<relation's member>` and an http endpoint is
/// `insecure_endpoint`.
fn url_candidate(report: &mut Report, relation: &str, s: &str, endpoint: bool, ptr: &str, strict: bool) {
    let member = relation.split('.').next().unwrap_or(relation);
    let Some(url) = http_url(s) else {
        if strict {
            report.error(
                &format!("invalid_{member}"),
                format!("{relation} {s:?} is not an absolute http(s) URL"),
                at(ptr),
            );
        }
        return;
    };
    if strict && endpoint && url.scheme() != "https" {
        report.error(c::INSECURE_ENDPOINT, format!("{relation} {s:?} must use https"), at(ptr));
    }
    let kind = if endpoint { CandidateKind::Endpoint } else { CandidateKind::Url };
    report.candidate(Candidate::new(kind, relation, url.as_str(), at(ptr)));
}

/// Unknown members are tolerated; string values that are absolute http(s) URLs still become
/// candidates (kind `endpoint` when the name ends in `_endpoint` or `_iframe`, else `url`), so
/// provider extensions (`kerberos_endpoint`, `rbac_url`, `token_revocation_endpoint`) reach the
/// inventory.
fn harvest_unknown(report: &mut Report, name: &str, value: &Value, ptr: &str) {
    if let Some(s) = value.as_str() {
        let endpoint = name.ends_with("_endpoint") || name.ends_with("_iframe");
        url_candidate(report, name, s, endpoint, ptr, false);
    }
}

/// The normalised host of a URL as the host inventory names it (`example.com`, `10.0.0.1`, `::1`).
pub fn host_name(url: &Url) -> Option<String> {
    url.host().map(|h| Host::from(h).name())
}

/// `endpoint_host` candidates: the hosts of endpoint and page URLs that differ from the issuer's host
/// (the declared issuer, else the expected one), once each, located at their first member.
fn host_candidates(
    report: &mut Report,
    issuer: Option<&Url>,
    expected: Option<&(String, Construction)>,
    seen: &mut Vec<String>,
) {
    let issuer_host = issuer
        .and_then(host_name)
        .or_else(|| expected.and_then(|(e, _)| Url::parse(e).ok()).as_ref().and_then(host_name));
    if let Some(h) = &issuer_host {
        seen.push(h.clone());
    }
    let mut new = Vec::new();
    for cand in &report.candidates {
        if !matches!(cand.kind(), CandidateKind::Endpoint | CandidateKind::Url) {
            continue;
        }
        let Some(host) = Url::parse(cand.value()).ok().as_ref().and_then(host_name) else { continue };
        if seen.contains(&host) {
            continue;
        }
        seen.push(host.clone());
        new.push(Candidate::new(CandidateKind::Host, "endpoint_host", host, cand.locator()));
    }
    report.candidates.extend(new);
}

/// Provider members that name hosts (`msgraph_host`, `cloud_graph_host_name`): host candidates with
/// the member name as relation, when the host is not already known.
fn extra_host_members(
    report: &mut Report,
    object: &Map<String, Value>,
    seen: &mut Vec<String>,
    profile: &MetadataProfile,
) {
    for (name, value) in object {
        if profile.member_type(name).is_some() || !(name.ends_with("_host") || name.ends_with("_host_name")) {
            continue;
        }
        let Some(s) = value.as_str() else { continue };
        let Ok(host) = Host::parse(s) else { continue };
        let host = host.name();
        if !host.contains('.') || seen.contains(&host) {
            continue;
        }
        seen.push(host.clone());
        report.candidate(Candidate::new(CandidateKind::Host, name.as_str(), host, at(pointer("", name))));
    }
}

/// `missing_<member>` (error) when `member` is absent. A member present with the wrong type (even
/// null) is reported `invalid_<member>` by [`read_metadata`], not missing. Returns true when present.
pub fn require(report: &mut Report, object: &Map<String, Value>, member: &str, why: &str) -> bool {
    if object.contains_key(member) {
        return true;
    }
    report.error(&format!("missing_{member}"), format!("{member} is REQUIRED ({why})"), at(""));
    false
}

/// A warning `missing_<member>` when a RECOMMENDED `member` is absent.
pub fn recommend(report: &mut Report, object: &Map<String, Value>, member: &str, why: &str) {
    if !object.contains_key(member) {
        report.warn(&format!("missing_{member}"), format!("{member} is RECOMMENDED ({why})"), at(""));
    }
}

/// The strings of a well-typed, non-empty string-array member, None when absent or ill-typed.
pub fn string_array<'a>(object: &'a Map<String, Value>, member: &str) -> Option<Vec<&'a str>> {
    let items = object.get(member)?.as_array()?;
    if items.is_empty() {
        return None;
    }
    items.iter().map(Value::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    const OAUTH: MetadataProfile = MetadataProfile {
        probe: "oauth-authorization-server",
        suffix: "oauth-authorization-server",
        native: Construction::Inserted,
        spec: "RFC 8414",
        extra_members: &[],
    };

    fn meta(url: &str) -> FetchMeta {
        FetchMeta::synthetic(Url::parse(url).unwrap(), Some("application/json"), Timestamp::UNIX_EPOCH)
    }

    fn codes_of(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn non_utf8_charset_is_invalid_charset() {
        let body = br#"{"issuer":"https://a.example","response_types_supported":["code"]}"#;
        let url = Url::parse("https://a.example/.well-known/oauth-authorization-server").unwrap();
        let latin1 =
            FetchMeta::synthetic(url.clone(), Some("application/json; charset=ISO-8859-1"), Timestamp::UNIX_EPOCH);
        let m = read_metadata(body, &latin1, &OAUTH);
        assert_eq!(codes_of(&m.report), vec!["invalid_charset"]);
        assert_eq!(m.report.errors[0].message, "charset \"iso-8859-1\": JSON is UTF-8 (RFC 8259 section 8.1)");
        for ok in ["application/json; charset=utf-8", "application/json; charset=\"UTF8\"", "application/json"] {
            let m = read_metadata(body, &FetchMeta::synthetic(url.clone(), Some(ok), Timestamp::UNIX_EPOCH), &OAUTH);
            assert_eq!(codes_of(&m.report), Vec::<&str>::new(), "{ok}");
        }
    }

    #[test]
    fn appended_oauth_is_wrong_location_and_followed() {
        let body = br#"{"issuer":"https://a.example/t","response_types_supported":["code"]}"#;
        let m = read_metadata(body, &meta("https://a.example/t/.well-known/oauth-authorization-server"), &OAUTH);
        assert_eq!(codes_of(&m.report), vec!["wrong_well_known_location"]);
        assert_eq!(m.report.follow_ups[0].url.as_str(), "https://a.example/t");
        assert_eq!(m.report.facts["construction"], "appended");
    }

    #[test]
    fn endpoint_types_hosts_and_aliases() {
        let body = br#"{"issuer":"https://a.example","token_endpoint":"http://b.example/t","jwks_uri":7,
            "mtls_endpoint_aliases":{"token_endpoint":"https://mtls.a.example/t","x":1},
            "token_endpoint_auth_signing_alg_values_supported":["RS256","none"],
            "msgraph_host":"graph.c.example","tenant_region_scope":null,"rbac_url":"https://d.example"}"#;
        let m = read_metadata(body, &meta("https://a.example/.well-known/oauth-authorization-server"), &OAUTH);
        let r = &m.report;
        let mut codes = codes_of(r);
        codes.sort_unstable();
        assert_eq!(
            codes,
            vec!["insecure_endpoint", "invalid_jwks_uri", "invalid_mtls_endpoint_aliases", "none_alg_not_allowed"]
        );
        let none = r.errors.iter().find(|d| d.code == "none_alg_not_allowed").unwrap();
        assert_eq!(
            none.locator,
            Some(wellknown_core::Locator::JsonPointer("/token_endpoint_auth_signing_alg_values_supported/1".into()))
        );
        let mut hosts: Vec<(&str, &str)> = r
            .candidates
            .iter()
            .filter(|c| c.kind() == CandidateKind::Host)
            .map(|c| (c.relation(), c.value()))
            .collect();
        hosts.sort_unstable();
        assert_eq!(
            hosts,
            vec![
                ("endpoint_host", "b.example"),
                ("endpoint_host", "d.example"),
                ("endpoint_host", "mtls.a.example"),
                ("msgraph_host", "graph.c.example")
            ]
        );
        assert!(r.candidates.iter().any(|c| c.relation() == "mtls_endpoint_aliases.token_endpoint"));
    }

    #[test]
    fn duplicate_issuer_shows_the_hidden_one() {
        let body = br#"{"issuer":"https://evil.other.test","issuer":"https://a.example",
            "jwks_uri":"https://keys.other.test/j","jwks_uri":"https://a.example/j","response_types_supported":["code"]}"#;
        let m = read_metadata(body, &meta("https://a.example/.well-known/oauth-authorization-server"), &OAUTH);
        let r = &m.report;
        // `duplicate_member` is a warning here (RFC 8259 section 4: SHOULD; RFC 8414 and OIDC
        // Discovery add no uniqueness rule); the hidden issuer's mismatch is the error.
        assert_eq!(codes_of(r), vec!["issuer_mismatch", "duplicate_member", "duplicate_member"]);
        assert_eq!(r.errors.len(), 1);
        let dups: Vec<_> =
            r.warnings.iter().filter(|d| d.code == "duplicate_member").map(|d| d.locator.clone()).collect();
        assert_eq!(dups, vec![at("/issuer"), at("/jwks_uri")]);
        assert!(r.errors.iter().any(|d| d.message.contains("https://evil.other.test")));
        let issuers: Vec<&str> = r.values(CandidateKind::Issuer).collect();
        assert_eq!(issuers, vec!["https://a.example", "https://evil.other.test"]);
        let follow: Vec<(&str, &str)> = r.follow_ups.iter().map(|f| (f.probe.as_str(), f.url.as_str())).collect();
        assert!(follow.contains(&("jwks", "https://a.example/j")), "{follow:?}");
        assert!(follow.contains(&("jwks", "https://keys.other.test/j")), "{follow:?}");
        // The object kept for the specification checks is the last-wins reading.
        assert_eq!(m.object.unwrap()["issuer"], "https://a.example");
    }

    #[test]
    fn not_at_a_well_known_location() {
        let m = read_metadata(br#"{"issuer":"https://a.example"}"#, &meta("https://a.example/config.json"), &OAUTH);
        assert_eq!(codes_of(&m.report), vec!["wrong_well_known_location"]);
        assert_eq!(m.report.facts["issuer"], Value::Null);
    }
}
