//! RFC 8414 authorization server metadata: the checks specific to RFC 8414 section 2, on top of
//! the shared reader [`wellknown_oauth_metadata::read_metadata`].

use serde_json::{Map, Value};
use wellknown_core::{FetchMeta, Report};

use wellknown_oauth_metadata::metadata::{require, string_array};
use wellknown_oauth_metadata::{Construction, MetadataProfile, RFC8414_SUFFIX, read_metadata};

use crate::PROBE_ID;

/// How RFC 8414 metadata is read.
pub const PROFILE: MetadataProfile = MetadataProfile {
    probe: PROBE_ID,
    suffix: RFC8414_SUFFIX,
    native: Construction::Inserted,
    spec: "RFC 8414",
    extra_members: &[],
};

/// Interprets an RFC 8414 metadata document fetched as `meta`. Pure, never panics.
///
/// Adds to [`read_metadata`]: `missing_response_types_supported`; `missing_authorization_endpoint`
/// unless no supported grant type uses the authorization endpoint; `missing_token_endpoint` unless
/// only the implicit grant is supported (RFC 8414 section 2; `grant_types_supported` defaults to
/// `["authorization_code", "implicit"]`).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let md = read_metadata(body, meta, &PROFILE);
    let mut report = md.report;
    if let Some(object) = &md.object {
        check_required(&mut report, object);
    }
    report
}

/// The grant types a server supports: the declared list, or RFC 8414's default.
pub fn grant_types(object: &Map<String, Value>) -> Vec<&str> {
    match object.get("grant_types_supported") {
        None => vec!["authorization_code", "implicit"],
        Some(_) => string_array(object, "grant_types_supported").unwrap_or_default(),
    }
}

fn check_required(report: &mut Report, object: &Map<String, Value>) {
    require(report, object, "response_types_supported", "RFC 8414 section 2");
    let grants = grant_types(object);
    let declared = object.get("grant_types_supported").is_some();
    let valid_grants = !declared || string_array(object, "grant_types_supported").is_some();
    if valid_grants {
        if grants.iter().any(|g| matches!(*g, "authorization_code" | "implicit")) {
            require(
                report,
                object,
                "authorization_endpoint",
                "RFC 8414 section 2: a supported grant type uses the authorization endpoint",
            );
        }
        if !grants.iter().all(|g| *g == "implicit") {
            require(
                report,
                object,
                "token_endpoint",
                "RFC 8414 section 2: a grant type other than implicit is supported",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::Timestamp;

    fn run(body: &str) -> Report {
        let url = Url::parse("https://as.example/.well-known/oauth-authorization-server").unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
    }

    fn codes(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn defaults_require_both_endpoints() {
        let r = run(r#"{"issuer":"https://as.example","response_types_supported":["code"]}"#);
        assert_eq!(codes(&r), vec!["missing_authorization_endpoint", "missing_token_endpoint"]);
    }

    #[test]
    fn client_credentials_only_needs_no_authorization_endpoint() {
        let r = run(r#"{"issuer":"https://as.example","response_types_supported":["code"],
                "grant_types_supported":["client_credentials"],"token_endpoint":"https://as.example/t"}"#);
        assert!(r.valid(), "{:?}", r.errors);
        let r = run(r#"{"issuer":"https://as.example","response_types_supported":["token"],
                "grant_types_supported":["implicit"],"authorization_endpoint":"https://as.example/a"}"#);
        assert!(r.valid(), "{:?}", r.errors);
    }
}
