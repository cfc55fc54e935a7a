//! Diagnostic codes of the `did-configuration.json` probe (`docs/plugins/did-configuration-json.md`).
//!
//! Shared codes (`too_large`, `invalid_content_type`, `insecure_transport`, `invalid_json`, ...) come
//! from [`wellknown_core::diag::codes`].

/// No `linked_dids` array (DIF Well Known DID Configuration section 3.2: it MUST be present). Error.
pub const MISSING_LINKED_DIDS: &str = "missing_linked_dids";
/// `@context` is missing or not `https://identity.foundation/.well-known/did-configuration/v1`
/// (section 3.2); the pre-1.0 `did-configuration-v0.0.jsonld` context included. Warning.
pub const CONTEXT: &str = "did_configuration_context";
/// A `linked_dids` entry that is neither a compact JWT string nor a JSON-LD credential object
/// (section 3.2). Error.
pub const INVALID_LINKED_DID: &str = "invalid_linked_did";
/// A JWT entry that is not three base64url parts with a JSON header and payload, or lacks the
/// `vc` claim (section 3.3.2 "JWT Domain Linkage Credential"; RFC 7519). Error.
pub const INVALID_JWT: &str = "invalid_jwt";
/// A JWT entry with `alg` `none` or no `alg`: unsigned (section 3.3.2; RFC 7515 section 4.1.1). Error.
pub const UNSIGNED_JWT: &str = "unsigned_jwt";
/// A credential whose `type` does not include `DomainLinkageCredential` (sections 3.3.1, 3.3.2).
/// Error.
pub const NOT_DOMAIN_LINKAGE: &str = "not_domain_linkage_credential";
/// A credential without `credentialSubject.origin` (sections 3.3.1, 3.3.2). Error.
pub const MISSING_ORIGIN: &str = "missing_origin";
/// `credentialSubject.origin` is not the origin the configuration was fetched from (section 3.3.1,
/// 3.3.2 and the verification steps of section 4: it MUST match). Error; the origin is still
/// recorded, flagged `invalid`.
pub const ORIGIN_MISMATCH: &str = "origin_mismatch";
/// The issuer is not the subject: JSON-LD `issuer` differs from `credentialSubject.id`, or JWT `iss`,
/// `sub` and `credentialSubject.id` differ, or the JWT header's `kid` is not a DID URL of `iss`
/// (sections 3.3.1, 3.3.2). Error.
pub const DID_MISMATCH: &str = "did_mismatch";
/// The credential expired before the document was fetched (`exp`, `expirationDate`; section 4:
/// verifiers MUST reject it). Error.
pub const EXPIRED: &str = "expired";
/// The credential is not yet valid when fetched (`nbf`, `issuanceDate` in the future). Error.
pub const NOT_YET_VALID: &str = "not_yet_valid";
/// `issuanceDate` or `expirationDate` is not an RFC 3339 date-time, or a JWT time claim is not a
/// number (VC Data Model 1.1 section 4.6-4.7; RFC 7519 section 4.1). Error.
pub const INVALID_DATE: &str = "invalid_date";
/// A JSON-LD credential without a `proof` (section 3.3.1). Error.
pub const MISSING_PROOF: &str = "missing_proof";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_LINKED_DIDS,
    CONTEXT,
    INVALID_LINKED_DID,
    INVALID_JWT,
    UNSIGNED_JWT,
    NOT_DOMAIN_LINKAGE,
    MISSING_ORIGIN,
    ORIGIN_MISMATCH,
    DID_MISMATCH,
    EXPIRED,
    NOT_YET_VALID,
    INVALID_DATE,
    MISSING_PROOF,
    "too_large",
    "invalid_content_type",
    "invalid_charset",
    "insecure_transport",
    "invalid_utf8",
    "not_utf8",
    "bom",
    "invalid_json",
    "html_document",
    "duplicate_member",
    "not_json_object",
];
