//! Diagnostic codes of the OAuth metadata readers (this crate's [`crate::metadata::read_metadata`] and
//! [`crate::jwks::interpret`]), emitted by every probe built on them. Each is documented, with its
//! severity and spec reference, on the pages of the probes that emit it
//! (`docs/plugins/openid-configuration.md`, `docs/plugins/oauth-authorization-server.md`).
//!
//! Codes built at run time from a member name are listed as patterns: [`MISSING_MEMBER`],
//! [`INVALID_MEMBER`] (see `wellknown_core::probe::code_listed`).

/// `issuer` differs from the issuer the metadata URL was built from (error).
pub const ISSUER_MISMATCH: &str = "issuer_mismatch";
/// `issuer` does not use the https scheme (error).
pub const ISSUER_NOT_HTTPS: &str = "issuer_not_https";
/// `issuer` has a query or fragment component (error).
pub const ISSUER_HAS_QUERY_OR_FRAGMENT: &str = "issuer_has_query_or_fragment";
/// `issuer` differs from the expected issuer only by a trailing `/` (warning).
pub const ISSUER_TRAILING_SLASH: &str = "issuer_trailing_slash";
/// An endpoint URL that does not use https (error).
pub const INSECURE_ENDPOINT: &str = "insecure_endpoint";
/// `none` listed in an endpoint authentication signing algorithm list (error).
pub const NONE_ALG_NOT_ALLOWED: &str = "none_alg_not_allowed";
/// The document was found at a URL that is not the construction its specification defines for
/// its issuer (error).
pub const WRONG_WELL_KNOWN_LOCATION: &str = "wrong_well_known_location";
/// An OpenID configuration found at the RFC 8414 inserted form (warning).
pub const RFC8414_STYLE_LOCATION: &str = "rfc8414_style_location";
/// A JWK Set publishes private key parameters (error).
pub const PRIVATE_KEY_MATERIAL: &str = "private_key_material";
/// A JWK Set without its REQUIRED `keys` member (error; RFC 7517 section 5.1).
pub const MISSING_KEYS: &str = "missing_keys";
/// A JWK Set whose `keys` member is not an array (error; RFC 7517 section 5.1).
pub const INVALID_KEYS: &str = "invalid_keys";
/// A key that is not an object, lacks `kty`, or lacks a member its thumbprint needs (error; RFC 7517
/// section 4.1, RFC 7638 section 3.2).
pub const INVALID_JWK: &str = "invalid_jwk";
/// A key type without a defined thumbprint; the key is not recorded (warning).
pub const UNKNOWN_KTY: &str = "unknown_kty";
/// An `x5c` that is not a non-empty array of base64 DER certificates (error; RFC 7517 section 4.7).
pub const INVALID_X5C: &str = "invalid_x5c";

/// A REQUIRED member is absent (error) or a RECOMMENDED one (warning): `missing_issuer`,
/// `missing_jwks_uri`, ... (the pattern; the code names the member).
pub const MISSING_MEMBER: &str = "missing_<member>";
/// A known member with the wrong type, `null`, an empty array, a non-string array item, or an
/// endpoint that is not an absolute http(s) URL (error): `invalid_jwks_uri`, ... (the pattern).
pub const INVALID_MEMBER: &str = "invalid_<member>";

/// Every code [`crate::jwks::interpret`] can emit.
pub const JWKS: &[&str] = &[
    "invalid_content_type",
    "invalid_charset",
    "too_large",
    "bom",
    "not_utf8",
    "invalid_utf8",
    "html_document",
    "invalid_json",
    "duplicate_member",
    "not_json_object",
    MISSING_KEYS,
    INVALID_KEYS,
    INVALID_JWK,
    UNKNOWN_KTY,
    INVALID_X5C,
    PRIVATE_KEY_MATERIAL,
];
