//! Diagnostic codes of the `csaf` probe (`docs/plugins/csaf.md`). Section numbers are those of OASIS
//! CSAF 2.0 (and its `provider_json_schema.json`).
//!
//! Shared codes (`too_large`, `invalid_content_type`, `insecure_transport`, `invalid_json`, ...) come
//! from [`wellknown_core::diag::codes`].

/// A member the provider metadata schema requires is missing (`canonical_url`, `last_updated`,
/// `list_on_CSAF_aggregators`, `metadata_version`, `mirror_on_CSAF_aggregators`, `publisher` with
/// `category`, `name`, `namespace`, `role`; section 7.1.7). Error.
pub const MISSING_MEMBER: &str = "missing_member";
/// A member of the wrong type or outside its enumeration (`role`, `publisher.category`,
/// `tlp_label`, `metadata_version` other than `2.0`, a boolean that is not one). Error.
pub const INVALID_MEMBER: &str = "invalid_member";
/// A URL member (`canonical_url`, `directory_url`, feed, service and category URLs, key URLs,
/// `publisher.namespace`) that is not an absolute URL, or not https where the schema requires it.
/// Error; a URL that parses is still recorded, flagged `invalid`.
pub const INVALID_URL: &str = "invalid_url";
/// `canonical_url` is not the URL the document was fetched from (section 7.1.7: the
/// provider-metadata.json is reachable at its canonical URL). Warning.
pub const CANONICAL_URL_MISMATCH: &str = "canonical_url_mismatch";
/// A `csaf_provider` or `csaf_trusted_provider` without a distribution (sections 7.1.13-7.1.16
/// directory or ROLIE distribution; section 7.2.2 role requirements). Warning.
pub const NO_DISTRIBUTIONS: &str = "no_distributions";
/// A distribution with neither `directory_url` nor `rolie` (schema: at least one). Error.
pub const EMPTY_DISTRIBUTION: &str = "empty_distribution";
/// A `fingerprint` that is not at least 40 hexadecimal digits (schema pattern `^[0-9a-fA-F]{40,}$`).
/// Error.
pub const INVALID_FINGERPRINT: &str = "invalid_fingerprint";
/// A public key's URL names a key id (16 or 40 hex digits in its file name) that is not the end of
/// its `fingerprint`. Warning: the file may hold another key than the one declared.
pub const FINGERPRINT_URL_MISMATCH: &str = "fingerprint_url_mismatch";
/// A `csaf_trusted_provider` without `public_openpgp_keys` (section 7.1.19 and the role's
/// requirements, section 7.2.3). Warning.
pub const NO_OPENPGP_KEYS: &str = "no_openpgp_keys";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_MEMBER,
    INVALID_MEMBER,
    INVALID_URL,
    CANONICAL_URL_MISMATCH,
    NO_DISTRIBUTIONS,
    EMPTY_DISTRIBUTION,
    INVALID_FINGERPRINT,
    FINGERPRINT_URL_MISMATCH,
    NO_OPENPGP_KEYS,
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
