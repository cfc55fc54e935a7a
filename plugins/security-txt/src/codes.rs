//! Diagnostic codes the security.txt probe emits (design.md, "Diagnostic codes"; documented with
//! severities and RFC 9116 sections in `docs/plugins/security-txt.md`).
//!
//! Shared codes (`invalid_content_type`, `invalid_charset`, `invalid_utf8`, `bom`, `too_large`,
//! `insecure_transport`, `legacy_location`, `html_document`) come from
//! [`wellknown_core::diag::codes`].

use wellknown_core::diag::codes as shared;

/// No `Contact` field (RFC 9116 section 2.5.3: MUST always be present). Error.
pub const MISSING_CONTACT: &str = "missing_contact";
/// No `Expires` field (section 2.5.5: MUST always be present). Error.
pub const MISSING_EXPIRES: &str = "missing_expires";
/// `Expires` appears more than once (section 2.5.5: MUST NOT appear more than once). Error.
pub const MULTIPLE_EXPIRES: &str = "multiple_expires";
/// `Expires` is not an RFC 3339 `date-time` (section 2.5.5). Error.
pub const INVALID_EXPIRES: &str = "invalid_expires";
/// `Expires` is before the fetch instant: the file is stale (sections 2.5.5 and 5.3). Error.
pub const EXPIRED: &str = "expired";
/// `Expires` is more than a year after the fetch instant (section 2.5.5 RECOMMENDS less). Warning.
pub const LONG_EXPIRY: &str = "long_expiry";
/// `Preferred-Languages` appears more than once (section 2.5.8). Error.
pub const MULTIPLE_PREFERRED_LANGUAGES: &str = "multiple_preferred_languages";
/// A `Preferred-Languages` value is not an RFC 5646 language tag (section 2.5.8). Error.
pub const INVALID_LANGUAGE_TAG: &str = "invalid_language_tag";
/// A URI-valued field is not an RFC 3986 URI (sections 2.5.x and 4, `uri`). Error.
pub const NOT_A_URI: &str = "not_a_uri";
/// A web URI uses `http:` where RFC 9116 requires `https://` (sections 2.5.x and 5.7). Error.
pub const INSECURE_URI: &str = "insecure_uri";
/// Whitespace between a field name and its colon (section 4: `field-name fs SP`). Error; the field
/// is still read.
pub const WHITESPACE_BEFORE_COLON: &str = "whitespace_before_colon";
/// No single space after the colon (section 4: `fs SP`). Error; the field is still read.
pub const MISSING_SPACE_AFTER_COLON: &str = "missing_space_after_colon";
/// The last line has no line ending (section 2.2: every line MUST end with CRLF or LF). Error.
pub const MISSING_FINAL_NEWLINE: &str = "missing_final_newline";
/// A line ends with a lone CR (section 4: `eol = *WSP [CR] LF`). Error; the CR is read as a line
/// break so fields are not glued together.
pub const CR_LINE_ENDING: &str = "cr_line_ending";
/// A line that is neither blank, a comment nor a `name: value` field (section 4, `line`). Error.
pub const INVALID_LINE: &str = "invalid_line";
/// `Canonical` fields are present but none is the URL the file was retrieved from (section
/// 2.5.2). Error.
pub const CANONICAL_MISMATCH: &str = "canonical_mismatch";
/// Text after `-----END PGP SIGNATURE-----` (section 4 `signed`; RFC 4880 section 7). Error; the
/// trailing text is not read.
pub const DATA_AFTER_SIGNATURE: &str = "data_after_signature";
/// The OpenPGP cleartext-signature framework is broken (RFC 4880 section 7: header, dash-escaping,
/// signature armor). Error.
pub const INVALID_SIGNATURE_FORMAT: &str = "invalid_signature_format";
/// The signature was checked against the key the file's `Encryption` field points to and does not
/// verify (section 2.3). Error.
pub const INVALID_SIGNATURE: &str = "invalid_signature";
/// A `CSAF` field that does not point to a `provider-metadata.json` (CSAF 2.0 section 7.1.8). Error.
pub const CSAF_NOT_PROVIDER_METADATA: &str = "csaf_not_provider_metadata";
/// The file is not OpenPGP-signed (section 2.3 RECOMMENDS a signature). Warning.
pub const NOT_SIGNED: &str = "not_signed";
/// A `mailto:` contact without an `Encryption` field (section 2.5.3 RECOMMENDS encryption for email
/// contacts). Warning.
pub const MISSING_ENCRYPTION: &str = "missing_encryption";
/// Signed but without a `Canonical` field (section 2.3 RECOMMENDS one). Warning.
pub const SIGNED_WITHOUT_CANONICAL: &str = "signed_without_canonical";
/// A field this parser does not know (section 2.4: ignored, kept in the report's facts). Warning.
pub const UNKNOWN_FIELD: &str = "unknown_field";

/// Every code the probe can emit, shared ones included (contract rule 7.3).
pub const ALL: &[&str] = &[
    MISSING_CONTACT,
    MISSING_EXPIRES,
    MULTIPLE_EXPIRES,
    INVALID_EXPIRES,
    EXPIRED,
    LONG_EXPIRY,
    MULTIPLE_PREFERRED_LANGUAGES,
    INVALID_LANGUAGE_TAG,
    NOT_A_URI,
    INSECURE_URI,
    WHITESPACE_BEFORE_COLON,
    MISSING_SPACE_AFTER_COLON,
    MISSING_FINAL_NEWLINE,
    CR_LINE_ENDING,
    INVALID_LINE,
    CANONICAL_MISMATCH,
    DATA_AFTER_SIGNATURE,
    INVALID_SIGNATURE_FORMAT,
    INVALID_SIGNATURE,
    CSAF_NOT_PROVIDER_METADATA,
    NOT_SIGNED,
    MISSING_ENCRYPTION,
    SIGNED_WITHOUT_CANONICAL,
    UNKNOWN_FIELD,
    shared::NOT_UTF8,
    shared::BOM,
    shared::HTML_DOCUMENT,
    shared::INVALID_UTF8,
    shared::INSECURE_TRANSPORT,
    shared::LEGACY_LOCATION,
    shared::INVALID_CHARSET,
    shared::INVALID_CONTENT_TYPE,
    shared::TOO_LARGE,
];
