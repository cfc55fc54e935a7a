//! The parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! UMA 2.0 authorization server metadata (Kantara "User-Managed Access (UMA) 2.0 Grant for OAuth 2.0
//! Authorization", section 2, and "Federated Authorization for UMA 2.0", section 2): an RFC 8414
//! metadata document at the issuer with `/.well-known/uma2-configuration` appended ("formed by
//! concatenating the string /.well-known/uma2-configuration to the issuer"), plus the UMA endpoints.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, pointer};
use wellknown_core::{FetchMeta, Report};
use wellknown_oauth_metadata::location::Construction;
use wellknown_oauth_metadata::members::MemberType;
use wellknown_oauth_metadata::metadata::{MetadataProfile, read_metadata, require, string_array};

/// How UMA metadata is read by the shared reader: appended construction, this probe's id and suffix.
pub const PROFILE: MetadataProfile = MetadataProfile {
    probe: crate::PROBE_ID,
    suffix: crate::SUFFIX,
    native: Construction::Appended,
    spec: "UMA 2.0 Grant section 2",
    extra_members: &[
        ("claims_interaction_endpoint", MemberType::Endpoint),
        ("permission_endpoint", MemberType::Endpoint),
        ("resource_registration_endpoint", MemberType::Endpoint),
        ("uma_profiles_supported", MemberType::StringArray),
    ],
};

/// The grant types a server supports: the declared list, or RFC 8414 section 2's default
/// (`authorization_code`, `implicit`).
pub fn grant_types(object: &Map<String, Value>) -> Vec<&str> {
    match object.get("grant_types_supported") {
        None => vec!["authorization_code", "implicit"],
        Some(_) => string_array(object, "grant_types_supported").unwrap_or_default(),
    }
}

/// The UMA grant type (UMA 2.0 Grant section 3.3.1).
pub const UMA_TICKET_GRANT: &str = "urn:ietf:params:oauth:grant-type:uma-ticket";

/// The endpoint members UMA defines beyond RFC 8414: `claims_interaction_endpoint` (Grant section 2),
/// `permission_endpoint` and `resource_registration_endpoint` (Federated Authorization section 2).
pub const UMA_ENDPOINTS: &[&str] =
    &["claims_interaction_endpoint", "permission_endpoint", "resource_registration_endpoint"];

/// Interprets a `/.well-known/uma2-configuration` document fetched as `meta`. Pure, never panics.
///
/// The shared reader does the RFC 8414 work (content type, JSON, issuer equal to the one the URL was
/// built from with the appended construction, member types, https endpoints, candidates, `jwks_uri`
/// follow-up to the `jwks` probe, hosts); this adds RFC 8414 section 2's REQUIRED members
/// (`response_types_supported`, the authorization and token endpoints as the grant types need them),
/// the UMA endpoints' types (`invalid_<member>`, `insecure_endpoint`) and `uma_profiles_supported`
/// (a non-empty array of URI strings). Report kind `uma2-configuration`. Facts (besides the reader's
/// `issuer`, `construction`): `uma_grant_listed` (whether `grant_types_supported` names
/// [`UMA_TICKET_GRANT`]), `uma_endpoints` (how many of [`UMA_ENDPOINTS`] are declared).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let md = read_metadata(body, meta, &PROFILE);
    let mut report = md.report;
    if let Some(object) = &md.object {
        check_rfc8414_required(&mut report, object);
        check_uma(&mut report, object);
        let listed = string_array(object, "grant_types_supported").is_some_and(|g| g.contains(&UMA_TICKET_GRANT));
        report.fact("uma_grant_listed", listed);
        report.fact("uma_endpoints", UMA_ENDPOINTS.iter().filter(|m| object.contains_key(**m)).count());
    }
    report
}

/// RFC 8414 section 2: `response_types_supported`; `authorization_endpoint` unless no grant type uses
/// it; `token_endpoint` unless only the implicit grant is supported.
fn check_rfc8414_required(report: &mut Report, object: &Map<String, Value>) {
    require(report, object, "response_types_supported", "RFC 8414 section 2");
    let declared = object.contains_key("grant_types_supported");
    if declared && string_array(object, "grant_types_supported").is_none() {
        return;
    }
    let grants = grant_types(object);
    if grants.iter().any(|g| matches!(*g, "authorization_code" | "implicit")) {
        require(report, object, "authorization_endpoint", "RFC 8414 section 2: a supported grant type uses it");
    }
    if !grants.iter().all(|g| *g == "implicit") {
        require(report, object, "token_endpoint", "RFC 8414 section 2: a grant type other than implicit is supported");
    }
}

/// `uma_profiles_supported` holds profile URIs (UMA 2.0 Grant section 2): a string item that is not
/// an absolute URI is `invalid_uma_profiles_supported`. (Its type, the UMA endpoints' types and their
/// https scheme are checked by the shared reader, from [`PROFILE`]'s `extra_members`.)
fn check_uma(report: &mut Report, object: &Map<String, Value>) {
    let Some(items) = object.get("uma_profiles_supported").and_then(Value::as_array) else { return };
    for (i, item) in items.iter().enumerate() {
        if let Some(s) = item.as_str()
            && Url::parse(s).is_err()
        {
            report.error(
                "invalid_uma_profiles_supported",
                format!("uma_profiles_supported holds profile URIs, item {i} {s:?} is not one"),
                at(pointer("/uma_profiles_supported", &i.to_string())),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::{CandidateKind, Timestamp};

    fn run_at(url: &str, body: &str) -> Report {
        let meta = FetchMeta::synthetic(Url::parse(url).unwrap(), Some("application/json"), Timestamp::UNIX_EPOCH);
        interpret(body.as_bytes(), &meta)
    }

    fn codes(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    const BASE: &str = r#""response_types_supported":["code"],"authorization_endpoint":"https://as.example/r1/auth","token_endpoint":"https://as.example/r1/token""#;

    #[test]
    fn appended_issuer_and_uma_endpoints() {
        let r = run_at(
            "https://as.example/r1/.well-known/uma2-configuration",
            &format!(
                r#"{{"issuer":"https://as.example/r1",{BASE},"grant_types_supported":["authorization_code","{UMA_TICKET_GRANT}"],
                "permission_endpoint":"https://as.example/r1/perm","resource_registration_endpoint":"http://as.example/r1/rs",
                "claims_interaction_endpoint":7,"uma_profiles_supported":["https://profiles.example/p1", 3]}}"#
            ),
        );
        assert_eq!(
            codes(&r),
            ["invalid_claims_interaction_endpoint", "insecure_endpoint", "invalid_uma_profiles_supported"]
        );
        assert_eq!(r.facts["construction"], "appended");
        assert_eq!(r.facts["uma_grant_listed"], true);
        assert_eq!(r.facts["uma_endpoints"], 3);
        let endpoint =
            |rel: &str| r.candidates.iter().find(|c| c.relation() == rel).map(|c| (c.kind(), c.value().to_string()));
        assert_eq!(
            endpoint("permission_endpoint"),
            Some((CandidateKind::Endpoint, "https://as.example/r1/perm".into()))
        );
        assert_eq!(
            endpoint("resource_registration_endpoint"),
            Some((CandidateKind::Endpoint, "http://as.example/r1/rs".into()))
        );
        assert_eq!(r.values(CandidateKind::Issuer).collect::<Vec<_>>(), ["https://as.example/r1"]);
    }

    #[test]
    fn inserted_form_is_a_warning_and_rfc8414_requirements_apply() {
        let r = run_at("https://as.example/.well-known/uma2-configuration/r1", r#"{"issuer":"https://as.example/r1"}"#);
        assert_eq!(
            codes(&r),
            [
                "missing_response_types_supported",
                "missing_authorization_endpoint",
                "missing_token_endpoint",
                "rfc8414_style_location"
            ]
        );
        assert_eq!(r.facts["uma_grant_listed"], false);
        let r = run_at(
            "https://as.example/.well-known/uma2-configuration",
            &format!(r#"{{"issuer":"https://other.example",{BASE},"uma_profiles_supported":[]}}"#),
        );
        assert_eq!(codes(&r), ["issuer_mismatch", "invalid_uma_profiles_supported"]);
        assert_eq!(r.follow_ups.iter().filter(|f| f.probe == crate::PROBE_ID && f.role == "issuer").count(), 1);
    }
}
