//! OpenID Connect Discovery 1.0 provider metadata: the rules OIDC adds to RFC 8414's.

use serde_json::{Map, Value};
use wellknown_core::json::{at, pointer};
use wellknown_core::{FetchMeta, Report};
use wellknown_oauth_metadata::metadata::{recommend, require, string_array};
use wellknown_oauth_metadata::{Construction, MetadataProfile, OIDC_SUFFIX, read_metadata};

use crate::{PROBE_ID, codes};

/// How OpenID provider metadata is read.
pub const PROFILE: MetadataProfile = MetadataProfile {
    probe: PROBE_ID,
    suffix: OIDC_SUFFIX,
    native: Construction::Appended,
    spec: "OpenID Connect Discovery 1.0",
    extra_members: &[],
};

const S3: &str = "OpenID Connect Discovery 1.0 section 3";

/// Interprets an OpenID Provider configuration fetched as `meta`. Pure, never panics.
///
/// Adds to the shared reader: REQUIRED `authorization_endpoint`, `jwks_uri`,
/// `response_types_supported`, `subject_types_supported`, `id_token_signing_alg_values_supported`,
/// and `token_endpoint` unless every supported response type is implicit (none contains `code`);
/// `rs256_not_supported` when RS256 is not an ID token signing algorithm ("The algorithm RS256 MUST
/// be included", section 3; an error as the specification says, although FAPI profiles deliberately
/// offer only PS256/ES256, so consumers may downgrade it); `scopes_missing_openid`; warnings for the
/// RECOMMENDED `userinfo_endpoint`, `scopes_supported` and `claims_supported`.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let md = read_metadata(body, meta, &PROFILE);
    let mut report = md.report;
    if let Some(object) = &md.object {
        check_openid(&mut report, object);
    }
    report
}

/// True when a valid `response_types_supported` lists only implicit-flow response types (no `code`).
pub fn implicit_only(object: &Map<String, Value>) -> bool {
    string_array(object, "response_types_supported")
        .is_some_and(|types| types.iter().all(|t| !t.split_ascii_whitespace().any(|w| w == "code")))
}

fn check_openid(report: &mut Report, object: &Map<String, Value>) {
    require(report, object, "authorization_endpoint", S3);
    if !implicit_only(object) {
        require(
            report,
            object,
            "token_endpoint",
            "OpenID Connect Discovery 1.0 section 3, unless only the Implicit Flow is used",
        );
    }
    for member in
        ["jwks_uri", "response_types_supported", "subject_types_supported", "id_token_signing_alg_values_supported"]
    {
        require(report, object, member, S3);
    }
    if let Some(algs) = string_array(object, "id_token_signing_alg_values_supported")
        && !algs.contains(&"RS256")
    {
        report.error(
            codes::RS256_NOT_SUPPORTED,
            "id_token_signing_alg_values_supported must include RS256 (section 3); FAPI deployments omit it on purpose",
            at("/id_token_signing_alg_values_supported"),
        );
    }
    if let Some(scopes) = string_array(object, "scopes_supported")
        && !scopes.contains(&"openid")
    {
        report.error(
            codes::SCOPES_MISSING_OPENID,
            "scopes_supported must include openid (\"The server MUST support the openid scope value\", section 3)",
            at(pointer("", "scopes_supported")),
        );
    }
    recommend(report, object, "userinfo_endpoint", S3);
    recommend(report, object, "scopes_supported", S3);
    recommend(report, object, "claims_supported", S3);
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::{Locator, Timestamp};

    const BASE: &str = r#""authorization_endpoint":"https://op.example/a","token_endpoint":"https://op.example/t",
        "jwks_uri":"https://op.example/k","response_types_supported":["code"],"subject_types_supported":["public"],
        "id_token_signing_alg_values_supported":["RS256"],"userinfo_endpoint":"https://op.example/u",
        "scopes_supported":["openid"],"claims_supported":["sub"]"#;

    fn run_at(url: &str, content_type: Option<&str>, body: &str) -> Report {
        let meta = FetchMeta::synthetic(Url::parse(url).unwrap(), content_type, Timestamp::UNIX_EPOCH);
        interpret(body.as_bytes(), &meta)
    }

    fn run(body: &str) -> Report {
        run_at("https://op.example/.well-known/openid-configuration", Some("application/json; charset=utf-8"), body)
    }

    fn codes(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn base_is_clean() {
        let r = run(&format!(r#"{{"issuer":"https://op.example",{BASE}}}"#));
        assert!(codes(&r).is_empty(), "{:?}", codes(&r));
        assert_eq!(r.kind, "openid-configuration");
    }

    #[test]
    fn issuer_scheme_query_and_trailing_slash() {
        let r = run_at(
            "http://op.example/.well-known/openid-configuration",
            Some("application/json"),
            &format!(r#"{{"issuer":"http://op.example",{BASE}}}"#),
        );
        assert_eq!(codes(&r), vec!["issuer_not_https"]);
        let r = run(&format!(r#"{{"issuer":"https://op.example?x=1",{BASE}}}"#));
        assert_eq!(codes(&r), vec!["issuer_has_query_or_fragment", "issuer_mismatch"]);
        let r = run(&format!(r#"{{"issuer":"https://op.example/",{BASE}}}"#));
        assert_eq!(codes(&r), vec!["issuer_trailing_slash"]);
        assert_eq!(r.warnings[0].locator, Some(Locator::JsonPointer("/issuer".into())));
        let r = run(&format!(r#"{{"issuer":42,{BASE}}}"#));
        assert_eq!(codes(&r), vec!["invalid_issuer"]);
        let r = run(&format!(r#"{{{BASE}}}"#));
        assert_eq!(codes(&r), vec!["missing_issuer"]);
    }

    #[test]
    fn mismatched_issuer_is_followed_up() {
        let r = run(&format!(r#"{{"issuer":"https://idp.example/t",{BASE}}}"#));
        assert_eq!(codes(&r), vec!["issuer_mismatch"]);
        let f: Vec<_> = r.follow_ups.iter().map(|f| (f.probe.as_str(), f.url.as_str(), f.role.as_str())).collect();
        assert_eq!(
            f,
            vec![
                ("openid-configuration", "https://idp.example/t", "issuer"),
                ("jwks", "https://op.example/k", "jwks_uri")
            ]
        );
    }

    #[test]
    fn insecure_endpoint_and_none_alg() {
        let body = format!(
            r#"{{"issuer":"https://op.example",{BASE},"end_session_endpoint":"http://op.example/logout",
            "token_endpoint_auth_signing_alg_values_supported":["none"]}}"#
        );
        let r = run(&body);
        assert_eq!(codes(&r), vec!["insecure_endpoint", "none_alg_not_allowed"]);
        assert_eq!(r.errors[0].locator, Some(Locator::JsonPointer("/end_session_endpoint".into())));
    }

    #[test]
    fn implicit_only_needs_no_token_endpoint() {
        let body = r#"{"issuer":"https://op.example","authorization_endpoint":"https://op.example/a",
            "jwks_uri":"https://op.example/k","response_types_supported":["id_token","id_token token"],
            "subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"]}"#;
        let r = run(body);
        assert!(r.valid(), "{:?}", codes(&r));
        let code_flow = body.replace(r#"["id_token","id_token token"]"#, r#"["code id_token"]"#);
        assert!(run(&code_flow).has_code("missing_token_endpoint"));
    }

    #[test]
    fn latin1_charset_is_invalid_charset() {
        let body = format!(r#"{{"issuer":"https://op.example",{BASE}}}"#);
        let url = "https://op.example/.well-known/openid-configuration";
        let r = run_at(url, Some("application/json; charset=iso-8859-1"), &body);
        assert_eq!(codes(&r), vec!["invalid_charset"]);
        assert_eq!(r.errors[0].message, "charset \"iso-8859-1\": JSON is UTF-8 (RFC 8259 section 8.1)");
        assert_eq!(codes(&run(&body)), Vec::<&str>::new());
    }

    #[test]
    fn html_login_page_and_wrong_type() {
        let r = run_at(
            "https://op.example/.well-known/openid-configuration",
            Some("text/html"),
            "<!DOCTYPE html><html><body>Sign in</body></html>",
        );
        assert_eq!(codes(&r), vec!["invalid_content_type", "html_document"]);
        assert_eq!(r.kind, "invalid");
        assert!(r.candidates.is_empty());
        let r = run_at("https://op.example/.well-known/openid-configuration", None, "{}");
        assert!(r.has_code("invalid_content_type") && r.has_code("missing_issuer"));
    }

    #[test]
    fn wrong_types_and_array_items() {
        let body = format!(
            r#"{{"issuer":"https://op.example",{BASE},"claims_parameter_supported":"yes",
            "ui_locales_supported":["en",7],"op_tos_uri":"tos.html"}}"#
        );
        let r = run(&body);
        let mut found = codes(&r);
        found.sort_unstable();
        assert_eq!(
            found,
            vec!["invalid_claims_parameter_supported", "invalid_op_tos_uri", "invalid_ui_locales_supported"]
        );
        let items = r.errors.iter().find(|d| d.code == "invalid_ui_locales_supported").unwrap();
        assert_eq!(items.locator, Some(Locator::JsonPointer("/ui_locales_supported/1".into())));
    }

    #[test]
    fn too_large_and_truncated() {
        let mut meta = FetchMeta::synthetic(
            Url::parse("https://op.example/.well-known/openid-configuration").unwrap(),
            Some("application/json"),
            Timestamp::UNIX_EPOCH,
        );
        meta.truncated = true;
        let r = interpret(br#"{"issuer":"https://op.exa"#, &meta);
        assert_eq!(codes(&r), vec!["too_large", "invalid_json"]);
    }
}
