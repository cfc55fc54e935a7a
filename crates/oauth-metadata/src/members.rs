//! The metadata members both specifications (and their registered extensions) define, with their
//! JSON types. A member has the same type in OpenID Connect Discovery 1.0 section 3 and RFC 8414
//! section 2 (the IANA "OAuth Authorization Server Metadata" registry holds both), so one table
//! serves both probes. Members not in the table are tolerated, never a parse failure.

/// The JSON type a metadata member must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberType {
    /// The issuer identifier (checked separately: https, no query or fragment, equality).
    Issuer,
    /// A protocol endpoint URL (candidate kind `endpoint`; `insecure_endpoint` unless https).
    Endpoint,
    /// A human-readable page URL (candidate kind `url`).
    PageUrl,
    /// A non-empty JSON array of strings ("Claims with zero elements MUST be omitted",
    /// OIDC Discovery section 4.2, RFC 8414 section 3.2).
    StringArray,
    /// A JSON boolean.
    Bool,
    /// A JSON string (e.g. `signed_metadata`, a JWT).
    String,
    /// RFC 8705 section 5 `mtls_endpoint_aliases`: an object whose members are endpoint URLs.
    EndpointAliases,
}

/// `(member, type)` for every member the probes know. Sources: OIDC Discovery 1.0 section 3,
/// RFC 8414 section 2, RFC 7009/7662 (revocation, introspection), RFC 8628 (device), RFC 9126 (PAR),
/// RFC 8705 (mTLS), RFC 9207 (iss parameter), RFC 9449 (DPoP), OIDC Session/Front-/Back-Channel
/// Logout and RP-Initiated Logout, OpenID CIBA.
pub const MEMBERS: &[(&str, MemberType)] = &[
    ("issuer", MemberType::Issuer),
    ("authorization_endpoint", MemberType::Endpoint),
    ("token_endpoint", MemberType::Endpoint),
    ("userinfo_endpoint", MemberType::Endpoint),
    ("jwks_uri", MemberType::Endpoint),
    ("registration_endpoint", MemberType::Endpoint),
    ("revocation_endpoint", MemberType::Endpoint),
    ("introspection_endpoint", MemberType::Endpoint),
    ("end_session_endpoint", MemberType::Endpoint),
    ("check_session_iframe", MemberType::Endpoint),
    ("device_authorization_endpoint", MemberType::Endpoint),
    ("pushed_authorization_request_endpoint", MemberType::Endpoint),
    ("backchannel_authentication_endpoint", MemberType::Endpoint),
    ("service_documentation", MemberType::PageUrl),
    ("op_policy_uri", MemberType::PageUrl),
    ("op_tos_uri", MemberType::PageUrl),
    ("scopes_supported", MemberType::StringArray),
    ("response_types_supported", MemberType::StringArray),
    ("response_modes_supported", MemberType::StringArray),
    ("grant_types_supported", MemberType::StringArray),
    ("acr_values_supported", MemberType::StringArray),
    ("subject_types_supported", MemberType::StringArray),
    ("id_token_signing_alg_values_supported", MemberType::StringArray),
    ("id_token_encryption_alg_values_supported", MemberType::StringArray),
    ("id_token_encryption_enc_values_supported", MemberType::StringArray),
    ("userinfo_signing_alg_values_supported", MemberType::StringArray),
    ("userinfo_encryption_alg_values_supported", MemberType::StringArray),
    ("userinfo_encryption_enc_values_supported", MemberType::StringArray),
    ("request_object_signing_alg_values_supported", MemberType::StringArray),
    ("request_object_encryption_alg_values_supported", MemberType::StringArray),
    ("request_object_encryption_enc_values_supported", MemberType::StringArray),
    ("token_endpoint_auth_methods_supported", MemberType::StringArray),
    ("token_endpoint_auth_signing_alg_values_supported", MemberType::StringArray),
    ("revocation_endpoint_auth_methods_supported", MemberType::StringArray),
    ("revocation_endpoint_auth_signing_alg_values_supported", MemberType::StringArray),
    ("introspection_endpoint_auth_methods_supported", MemberType::StringArray),
    ("introspection_endpoint_auth_signing_alg_values_supported", MemberType::StringArray),
    ("display_values_supported", MemberType::StringArray),
    ("claim_types_supported", MemberType::StringArray),
    ("claims_supported", MemberType::StringArray),
    ("claims_locales_supported", MemberType::StringArray),
    ("ui_locales_supported", MemberType::StringArray),
    ("code_challenge_methods_supported", MemberType::StringArray),
    ("dpop_signing_alg_values_supported", MemberType::StringArray),
    ("backchannel_token_delivery_modes_supported", MemberType::StringArray),
    ("backchannel_authentication_request_signing_alg_values_supported", MemberType::StringArray),
    ("claims_parameter_supported", MemberType::Bool),
    ("request_parameter_supported", MemberType::Bool),
    ("request_uri_parameter_supported", MemberType::Bool),
    ("require_request_uri_registration", MemberType::Bool),
    ("frontchannel_logout_supported", MemberType::Bool),
    ("frontchannel_logout_session_supported", MemberType::Bool),
    ("backchannel_logout_supported", MemberType::Bool),
    ("backchannel_logout_session_supported", MemberType::Bool),
    ("backchannel_user_code_parameter_supported", MemberType::Bool),
    ("tls_client_certificate_bound_access_tokens", MemberType::Bool),
    ("require_pushed_authorization_requests", MemberType::Bool),
    ("authorization_response_iss_parameter_supported", MemberType::Bool),
    ("signed_metadata", MemberType::String),
    ("mtls_endpoint_aliases", MemberType::EndpointAliases),
];

/// Members whose algorithm lists must not contain `none` (RFC 8414 section 2 for
/// `token_endpoint_auth_signing_alg_values_supported`, and the same text for the revocation and
/// introspection variants; OIDC Discovery section 3 for the token endpoint).
pub const NO_NONE_ALG: &[&str] = &[
    "token_endpoint_auth_signing_alg_values_supported",
    "revocation_endpoint_auth_signing_alg_values_supported",
    "introspection_endpoint_auth_signing_alg_values_supported",
];

/// The type of a known member, None for members outside the table (tolerated).
pub fn member_type(name: &str) -> Option<MemberType> {
    MEMBERS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup() {
        assert_eq!(member_type("jwks_uri"), Some(MemberType::Endpoint));
        assert_eq!(member_type("claims_supported"), Some(MemberType::StringArray));
        assert_eq!(member_type("tenant_region_scope"), None);
        let mut names: Vec<&str> = MEMBERS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), MEMBERS.len(), "no duplicate member");
    }
}
