//! Diagnostic codes of the `openid-federation` probe (`docs/plugins/openid-federation.md`).
//! References are to OpenID Federation 1.0 unless stated. `missing_<claim>` and `invalid_<claim>`
//! are built from claim names.

/// Not served as `application/entity-statement+jwt` (error; section 9.2).
pub const INVALID_CONTENT_TYPE: &str = "invalid_content_type";
/// Not a compact JWS with a JSON object header and payload (error; RFC 7515 section 7.1, section 3).
pub const INVALID_JWS: &str = "invalid_jws";
/// The header's `typ` is not `entity-statement+jwt` (error; section 3).
pub const INVALID_TYP: &str = "invalid_typ";
/// The header has no `kid` (error; section 3: Entity Statements are signed with a key named by `kid`).
pub const MISSING_KID: &str = "missing_kid";
/// `alg` is `none` (error; section 3: Entity Statements MUST be signed).
pub const ALG_NONE: &str = "alg_none";
/// An `alg` the checker does not implement: the signature is not checked (warning).
pub const UNSUPPORTED_ALG: &str = "unsupported_alg";
/// No key of the statement's own `jwks` has the header's `kid` (error; section 3.1).
pub const SIGNING_KEY_NOT_FOUND: &str = "signing_key_not_found";
/// The signature does not verify with the key the header names (error; section 3.1).
pub const INVALID_SIGNATURE: &str = "invalid_signature";
/// `iss` and `sub` differ: an Entity Configuration is issued by the entity about itself (error; section 3).
pub const ISS_SUB_MISMATCH: &str = "iss_sub_mismatch";
/// `iss` is not the Entity Identifier the URL was built from (error; section 9).
pub const ENTITY_ID_MISMATCH: &str = "entity_id_mismatch";
/// `iss` differs from the expected Entity Identifier only by a trailing `/` (warning; section 9).
pub const ENTITY_ID_TRAILING_SLASH: &str = "entity_id_trailing_slash";
/// An Entity Identifier (`iss`, an authority hint, a trust mark issuer) that is not an https URL
/// (error; section 1.2, "Entity Identifier").
pub const ENTITY_ID_NOT_HTTPS: &str = "entity_id_not_https";
/// The document was fetched at a URL that is not the appended construction (error; section 9).
pub const WRONG_WELL_KNOWN_LOCATION: &str = "wrong_well_known_location";
/// `exp` is before the fetch time (error; section 3, RFC 7519 section 4.1.4).
pub const EXPIRED: &str = "expired";
/// `iat` is more than 60 s after the fetch time (error; section 3).
pub const IAT_IN_FUTURE: &str = "iat_in_future";
/// `exp` is not after `iat` (error; section 3).
pub const EXP_BEFORE_IAT: &str = "exp_before_iat";
/// A key of a published JWK Set carries private members (error; RFC 7518 section 6).
pub const PRIVATE_KEY_MATERIAL: &str = "private_key_material";
/// A claim under a draft name (`trust_marks_issuers` for `trust_mark_issuers`) (warning; section 3).
pub const DRAFT_MEMBER_NAME: &str = "draft_member_name";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    INVALID_CONTENT_TYPE,
    INVALID_JWS,
    INVALID_TYP,
    MISSING_KID,
    ALG_NONE,
    UNSUPPORTED_ALG,
    SIGNING_KEY_NOT_FOUND,
    INVALID_SIGNATURE,
    ISS_SUB_MISMATCH,
    ENTITY_ID_MISMATCH,
    ENTITY_ID_TRAILING_SLASH,
    ENTITY_ID_NOT_HTTPS,
    WRONG_WELL_KNOWN_LOCATION,
    EXPIRED,
    IAT_IN_FUTURE,
    EXP_BEFORE_IAT,
    PRIVATE_KEY_MATERIAL,
    DRAFT_MEMBER_NAME,
    "missing_<claim>",
    "invalid_<claim>",
    "invalid_utf8",
    "too_large",
];
