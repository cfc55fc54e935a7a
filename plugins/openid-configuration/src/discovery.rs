//! OpenID Connect Discovery 1.0 provider metadata: the rules OIDC adds to RFC 8414's.

use serde_json::{Map, Value};
use wellknown_core::json::{at, pointer};
use wellknown_core::{FetchMeta, Report};
use wellknown_oauth_authorization_server::location::{Construction, OIDC_SUFFIX};
use wellknown_oauth_authorization_server::metadata::{
    MetadataProfile, codes_md, read_metadata, recommend, require, string_array,
};

/// The probe id and report kind.
pub const PROBE_ID: &str = "openid-configuration";

/// How OpenID provider metadata is read.
pub const PROFILE: MetadataProfile = MetadataProfile {
    probe: PROBE_ID,
    suffix: OIDC_SUFFIX,
    native: Construction::Appended,
    spec: "OpenID Connect Discovery 1.0",
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
            codes_md::RS256_NOT_SUPPORTED,
            "id_token_signing_alg_values_supported must include RS256 (section 3); FAPI deployments omit it on purpose",
            at("/id_token_signing_alg_values_supported"),
        );
    }
    if let Some(scopes) = string_array(object, "scopes_supported")
        && !scopes.contains(&"openid")
    {
        report.error(
            codes_md::SCOPES_MISSING_OPENID,
            "scopes_supported must include openid (\"The server MUST support the openid scope value\", section 3)",
            at(pointer("", "scopes_supported")),
        );
    }
    recommend(report, object, "userinfo_endpoint", S3);
    recommend(report, object, "scopes_supported", S3);
    recommend(report, object, "claims_supported", S3);
}
