//! Diagnostic codes of the `did.json` probe (`docs/plugins/did-json.md`).
//!
//! Shared codes (`too_large`, `invalid_content_type`, `insecure_transport`, `invalid_json`, ...) come
//! from [`wellknown_core::diag::codes`].

/// The DID document has no `id` string (DID Core 1.0 section 5.1.1: `id` is required). Error.
pub const MISSING_ID: &str = "missing_id";
/// `id` is not a did:web DID (did:web Method Specification section 3.1; a document at
/// `/.well-known/did.json` is a did:web document). Error.
pub const NOT_DID_WEB: &str = "not_did_web";
/// `id` is a did:web DID of another host, port or path than the document's URL (did:web Method
/// Specification section 3.2, "Read": the resolved document's `id` must be the DID resolved). Error.
pub const ID_MISMATCH: &str = "id_mismatch";
/// `service` is not an array of objects with `id`, `type` and `serviceEndpoint` (DID Core 1.0
/// section 5.4). Error; what can be read is kept.
pub const INVALID_SERVICE: &str = "invalid_service";
/// A `serviceEndpoint` that is not a URI string, a map or an array of them, or a URI that does not
/// parse (DID Core 1.0 section 5.4). Error.
pub const INVALID_SERVICE_ENDPOINT: &str = "invalid_service_endpoint";
/// `verificationMethod` is not an array of objects with `id`, `type` and `controller` (DID Core 1.0
/// section 5.2). Error.
pub const INVALID_VERIFICATION_METHOD: &str = "invalid_verification_method";
/// `alsoKnownAs` is not an array of URI strings (DID Core 1.0 section 5.1.3). Error.
pub const INVALID_ALSO_KNOWN_AS: &str = "invalid_also_known_as";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_ID,
    NOT_DID_WEB,
    ID_MISMATCH,
    INVALID_SERVICE,
    INVALID_SERVICE_ENDPOINT,
    INVALID_VERIFICATION_METHOD,
    INVALID_ALSO_KNOWN_AS,
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
