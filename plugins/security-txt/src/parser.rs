//! The security.txt parser (RFC 9116): a pure function from bytes and fetch metadata to a [`Report`].
//!
//! Order of work: transport and media checks (`insecure_transport`, `legacy_location`,
//! `invalid_content_type`, `invalid_charset`, `too_large`), byte checks (`bom`, `invalid_utf8`), HTML
//! sniffing (`html_document`: nothing is read as fields), the OpenPGP cleartext framework
//! ([`crate::signed`]), the line grammar of RFC 9116 section 4, then each field's own rules and the
//! file-level rules (required fields, Canonical, signature).

use std::collections::HashSet;

use jiff::ToSpan;
use jiff::tz::TimeZone;
use serde_json::json;
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::media::{MediaType, decode_wide, detect_wide_encoding, looks_like_html, strip_bom};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Host, Locator, Report, Timestamp};

use crate::cap::Capped;
use crate::codes;
use crate::signed::{self, Line};
use crate::values::{DateTimeError, is_language_tag, is_uri, parse_rfc3339};
use crate::verify::{SignatureStatus, verify};

/// The probe id and report `probe` value.
pub const PROBE_ID: &str = "security.txt";

/// Bodies above this size draw a `too_large` warning (RFC 9116 section 5.4: readers "may choose not
/// to parse files larger than 32 KBs").
pub const RECOMMENDED_MAX_BYTES: usize = 32 * 1024;

/// Hard cap: bytes after this many are not read (the report says so with `too_large`).
pub const MAX_PARSE_BYTES: usize = 1024 * 1024;

/// Unknown fields listed in the `unknown_fields` fact at most (the first ones, in document order);
/// when there are more, the fact `unknown_fields_total` gives how many there were in all.
pub const MAX_UNKNOWN_FIELDS_LISTED: usize = 100;

/// A security.txt field as the parser recognises it (RFC 9116 section 2.5 and the IANA "security.txt
/// Fields" registry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FieldName {
    Acknowledgments,
    Canonical,
    Contact,
    Csaf,
    Encryption,
    Expires,
    Hiring,
    Policy,
    PreferredLanguages,
    Unknown,
}

impl FieldName {
    fn parse(name: &str) -> FieldName {
        match name.to_ascii_lowercase().as_str() {
            "acknowledgments" => FieldName::Acknowledgments,
            "canonical" => FieldName::Canonical,
            "contact" => FieldName::Contact,
            "csaf" => FieldName::Csaf,
            "encryption" => FieldName::Encryption,
            "expires" => FieldName::Expires,
            "hiring" => FieldName::Hiring,
            "policy" => FieldName::Policy,
            "preferred-languages" => FieldName::PreferredLanguages,
            _ => FieldName::Unknown,
        }
    }

    /// Relation name of URL candidates from this field.
    fn relation(self) -> &'static str {
        match self {
            FieldName::Acknowledgments => "acknowledgments",
            FieldName::Canonical => "canonical",
            FieldName::Contact => "contact",
            FieldName::Csaf => "csaf",
            FieldName::Encryption => "encryption",
            FieldName::Hiring => "hiring",
            FieldName::Policy => "policy",
            FieldName::Expires | FieldName::PreferredLanguages | FieldName::Unknown => "unknown",
        }
    }
}

/// One `name: value` line.
#[derive(Debug, Clone)]
struct Field {
    name: String,
    kind: FieldName,
    value: String,
    line: u32,
}

/// The probe that reads a provider-metadata.json a `CSAF` field points to (plugin `csaf`).
pub const CSAF_PROBE: &str = "csaf";

fn at(line: u32) -> Option<Locator> {
    Some(Locator::Line(line))
}

/// The flag on every candidate of a signed file whose signature was checked and does not verify
/// (`invalid_signature`, fact `signature: failed`; RFC 9116 section 2.3).
pub const SIGNATURE_FAILED: &str = "signature_failed";

/// Parses a security.txt body fetched as `meta` (RFC 9116). Pure: expiry is judged against
/// `meta.fetched_at`, never the wall clock. A signed file's signature is reported `not_checked`
/// (no key is supplied); see [`parse_with_key`].
///
/// The report has kind `security.txt` (or `html` when an HTML page was served), every diagnostic
/// with its line (at most [`MAX_DIAGNOSTICS_PER_CODE`](crate::MAX_DIAGNOSTICS_PER_CODE) per code,
/// the rest counted in the fact `suppressed_diagnostics`), candidates (`contact`, `url`, `host`,
/// `key`) and facts `covers_host`, `signed`, `signature` (when signed), `expires`,
/// `preferred_languages`, `unknown_fields`.
pub fn parse(body: &[u8], meta: &FetchMeta) -> Report {
    parse_with_key(body, meta, None)
}

/// As [`parse`], verifying the OpenPGP signature of a signed file with `public_key` (armored or
/// binary OpenPGP public key bytes) when given. The `signature` fact becomes `verified`, `failed`
/// (with an `invalid_signature` error, and every candidate flagged [`SIGNATURE_FAILED`]) or
/// `not_checked` (the key is unreadable or is not the key that signed).
pub fn parse_with_key(body: &[u8], meta: &FetchMeta, public_key: Option<&[u8]>) -> Report {
    let mut report = Capped::new(Report::new(PROBE_ID, &meta.url, PROBE_ID));
    let covered = meta.requested_url.host().map(|h| Host::from(h).name());
    report.fact("covers_host", covered.map_or(serde_json::Value::Null, serde_json::Value::from));
    transport_checks(&mut report, meta, body.len());

    let body = body.get(..MAX_PARSE_BYTES).unwrap_or(body);
    // A UTF-16 or UTF-32 file (by BOM or byte pattern): named, then decoded and read, so the report
    // is about its fields rather than a BOM and missing fields.
    let decoded;
    let body = match detect_wide_encoding(body) {
        Some((encoding, bom_len)) => {
            let (text, replaced) = decode_wide(body.get(bom_len..).unwrap_or_default(), encoding);
            let bom = if bom_len > 0 { "with a byte-order mark" } else { "without a byte-order mark" };
            let lossy = if replaced { "; invalid code units were replaced by U+FFFD" } else { "" };
            report.error(
                shared::NOT_UTF8,
                format!(
                    "the file is {} ({bom}), not UTF-8: RFC 9116 section 4 requires UTF-8; read after decoding{lossy}",
                    encoding.name()
                ),
                Some(Locator::Byte(0)),
            );
            decoded = text;
            decoded.as_bytes()
        }
        None => body,
    };
    let (bom, body) = strip_bom(body);
    if bom.is_some() {
        report.error(
            shared::BOM,
            "the file starts with a byte-order mark; RFC 9116 section 4 requires UTF-8 in Net-Unicode form (RFC 5198)",
            Some(Locator::Byte(0)),
        );
    }
    if looks_like_html(body) {
        report.kind = "html".into();
        report.error(
            shared::HTML_DOCUMENT,
            "an HTML page was served instead of a security.txt file; it was not read as fields",
            at(1),
        );
        report.fact("signed", false);
        return report.finish();
    }
    let text = match std::str::from_utf8(body) {
        Ok(t) => std::borrow::Cow::Borrowed(t),
        Err(e) => {
            report.error(shared::INVALID_UTF8, format!("the file is not valid UTF-8 (RFC 9116 section 4): {e}"), None);
            String::from_utf8_lossy(body)
        }
    };
    if let Some((first, count)) = signed::lone_cr_endings(&text) {
        report.error(
            codes::CR_LINE_ENDING,
            format!(
                "{count} line(s) end with a lone CR (CR-only line endings), first line {first}; RFC 9116 section 4 \
                 allows only CRLF or LF (eol = *WSP [CR] LF): each CR was read as a line break"
            ),
            at(first),
        );
    }
    let (lines, terminated) = signed::split_lines(&text);
    if !terminated {
        let last = lines.last().map_or(1, |l| l.number);
        report.error(
            codes::MISSING_FINAL_NEWLINE,
            "the last line has no line ending (RFC 9116 section 2.2: every line MUST end with CRLF or LF)",
            at(last),
        );
    }
    let envelope = signed::split(lines);
    for d in envelope.diagnostics {
        report.push(d);
    }
    let fields = read_fields(&mut report, &envelope.lines);
    check_fields(&mut report, meta, &fields);

    match &envelope.signed {
        None => {
            report.fact("signed", false);
            report.warn(
                codes::NOT_SIGNED,
                "the file is not OpenPGP-signed (RFC 9116 section 2.3 RECOMMENDS a cleartext signature)",
                None,
            );
        }
        Some(doc) => {
            report.fact("signed", true);
            if !fields.iter().any(|f| f.kind == FieldName::Canonical) {
                report.warn(codes::SIGNED_WITHOUT_CANONICAL, "signed, but without a Canonical field: the signature does not bind the file to a location (RFC 9116 section 2.3)", at(doc.first_line));
            }
            let status = match public_key {
                Some(key) => verify(doc, key),
                None => SignatureStatus::NotChecked { reason: "no public key was supplied".into() },
            };
            if let SignatureStatus::Failed { reason } = &status {
                report.error(
                    codes::INVALID_SIGNATURE,
                    format!("the OpenPGP signature does not verify: {reason}"),
                    at(doc.first_line),
                );
                // The signed text was altered or signed by someone else: every value read from it
                // says so, for users of the candidates alone (`wellknown candidates`).
                for i in 0..report.candidates.len() {
                    report.candidates.add_flag(i, SIGNATURE_FAILED);
                }
            }
            report.fact("signature", status.as_str());
            report.fact("signature_detail", status.detail());
            report.fact("hash_headers", doc.hash_headers.clone());
        }
    }
    report.finish()
}

/// `insecure_transport`, `legacy_location`, media type, charset and size.
fn transport_checks(report: &mut Capped, meta: &FetchMeta, len: usize) {
    if meta.url.scheme() == "http" {
        report.error(shared::INSECURE_TRANSPORT, "fetched over plain http; RFC 9116 section 3 requires https", None);
    }
    if meta.url.path() == "/security.txt" {
        report.warn(
            shared::LEGACY_LOCATION,
            "served at the legacy /security.txt; RFC 9116 section 3 requires /.well-known/security.txt",
            None,
        );
    }
    if let Some(ct) = &meta.content_type {
        match MediaType::parse(ct) {
            Some(m) if m.essence == "text/plain" => {
                if let Some(cs) = m.charset.filter(|c| c != "utf-8") {
                    report.error(
                        shared::INVALID_CHARSET,
                        format!("charset {cs:?}; RFC 9116 section 3 requires utf-8"),
                        None,
                    );
                }
            }
            _ => report.error(
                shared::INVALID_CONTENT_TYPE,
                format!("Content-Type {ct:?}; RFC 9116 section 3 requires text/plain"),
                None,
            ),
        }
    }
    if meta.truncated || len > MAX_PARSE_BYTES {
        report.warn(
            shared::TOO_LARGE,
            format!("the body was cut at {MAX_PARSE_BYTES} bytes or at the fetch cap; the rest was not read"),
            None,
        );
    } else if len > RECOMMENDED_MAX_BYTES {
        report.warn(
            shared::TOO_LARGE,
            format!("{len} bytes; RFC 9116 section 5.4 lets readers refuse files over 32 KB"),
            None,
        );
    }
}

/// Reads every line by the grammar of RFC 9116 section 4 and returns the fields.
fn read_fields(report: &mut Capped, lines: &[Line]) -> Vec<Field> {
    let mut fields = Vec::new();
    for l in lines {
        let text = l.text.trim_end_matches([' ', '\t']);
        let trimmed = text.trim_start_matches([' ', '\t']);
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.len() != text.len() {
            report.error(
                codes::INVALID_LINE,
                "a line starting with whitespace is not a field (RFC 9116 section 4 has no continuation lines); not read",
                at(l.number),
            );
            continue;
        }
        let Some((raw_name, raw_value)) = trimmed.split_once(':') else {
            report.error(
                codes::INVALID_LINE,
                "neither a comment nor a `Name: value` field (RFC 9116 section 4)",
                at(l.number),
            );
            continue;
        };
        if raw_value.starts_with("//") {
            report.error(
                codes::INVALID_LINE,
                "a bare URL is not a `Name: value` field (RFC 9116 section 4); not read",
                at(l.number),
            );
            continue;
        }
        let name = raw_name.trim_end_matches([' ', '\t']);
        if name.is_empty() || !name.bytes().all(|c| (0x21..=0x7e).contains(&c)) {
            report.error(
                codes::INVALID_LINE,
                "not a `Name: value` field: the name must be visible ASCII without spaces (RFC 5322 field-name)",
                at(l.number),
            );
            continue;
        }
        if name.len() != raw_name.len() {
            report.error(
                codes::WHITESPACE_BEFORE_COLON,
                format!("whitespace between {name:?} and its colon (RFC 9116 section 4)"),
                at(l.number),
            );
        }
        if !raw_value.is_empty() && !raw_value.starts_with(' ') {
            report.error(
                codes::MISSING_SPACE_AFTER_COLON,
                format!("no space after the colon of {name:?} (RFC 9116 section 4: `fs SP`)"),
                at(l.number),
            );
        }
        let value = raw_value.trim_matches([' ', '\t']).to_string();
        fields.push(Field { name: name.to_string(), kind: FieldName::parse(name), value, line: l.number });
    }
    fields
}

/// Per-field rules, candidates and the file-level rules.
fn check_fields(report: &mut Capped, meta: &FetchMeta, fields: &[Field]) {
    let mut seen: HashSet<(CandidateKind, String, String)> = HashSet::new();
    let mut add = |report: &mut Report, kind: CandidateKind, relation: &str, value: String, line: u32| {
        if seen.insert((kind, relation.to_string(), value.clone())) {
            report.candidate(Candidate::new(kind, relation, value, at(line)));
        }
    };
    let mut expires: Option<Timestamp> = None;
    let mut expires_seen = false;
    let mut languages_seen = false;
    let mut canonicals: Vec<(Url, u32)> = Vec::new();
    let mut unknown = Vec::new();
    let mut unknown_total: usize = 0;
    let mut mailto_contact = false;
    for f in fields {
        match f.kind {
            FieldName::Expires => {
                if expires_seen {
                    report.error(
                        codes::MULTIPLE_EXPIRES,
                        "Expires appears more than once (RFC 9116 section 2.5.5)",
                        at(f.line),
                    );
                    continue;
                }
                expires_seen = true;
                match parse_rfc3339(&f.value) {
                    Ok(ts) => {
                        expires = Some(ts);
                        // A clamped far-future value is recorded as written, not as the range's end.
                        let text = if ts == Timestamp::MAX { f.value.clone() } else { ts.to_string() };
                        report.fact("expires", text);
                    }
                    Err(DateTimeError::Syntax) => report.error(codes::INVALID_EXPIRES, format!("Expires {:?} is not an RFC 3339 date-time such as 2027-01-31T12:00:00Z (RFC 9116 section 2.5.5)", f.value), at(f.line)),
                    Err(DateTimeError::Range) => report.error(codes::INVALID_EXPIRES, format!("Expires {:?} names a date or time that does not exist", f.value), at(f.line)),
                }
            }
            FieldName::PreferredLanguages => {
                if languages_seen {
                    report.error(
                        codes::MULTIPLE_PREFERRED_LANGUAGES,
                        "Preferred-Languages appears more than once (RFC 9116 section 2.5.8)",
                        at(f.line),
                    );
                    continue;
                }
                languages_seen = true;
                let tags: Vec<&str> = f.value.split(',').map(|t| t.trim_matches([' ', '\t'])).collect();
                let bad: Vec<&str> = tags.iter().copied().filter(|t| !is_language_tag(t)).collect();
                if !bad.is_empty() {
                    report.error(
                        codes::INVALID_LANGUAGE_TAG,
                        format!("not RFC 5646 language tags: {bad:?} (RFC 9116 section 2.5.8)"),
                        at(f.line),
                    );
                }
                let good: Vec<&str> = tags.into_iter().filter(|t| is_language_tag(t)).collect();
                report.fact("preferred_languages", good);
            }
            FieldName::Unknown => {
                let hint = if f.name.eq_ignore_ascii_case("acknowledgements") {
                    " (the registered spelling is Acknowledgments)"
                } else {
                    ""
                };
                report.warn(
                    codes::UNKNOWN_FIELD,
                    format!("unknown field {:?}{hint}; kept, not interpreted (RFC 9116 section 2.4)", f.name),
                    at(f.line),
                );
                unknown_total += 1;
                if unknown.len() < MAX_UNKNOWN_FIELDS_LISTED {
                    unknown.push(json!({"name": f.name, "value": f.value, "line": f.line}));
                }
                // Lenient extraction: the common misspelling still names an acknowledgments page.
                if !hint.is_empty()
                    && let Ok(u) = Url::parse(&f.value)
                    && matches!(u.scheme(), "http" | "https")
                {
                    web_candidates(&mut add, report, &u, "acknowledgments", f.line);
                }
            }
            kind => {
                let url = uri_value(report, f);
                let relation = kind.relation();
                if kind == FieldName::Contact {
                    mailto_contact |= f.value.to_ascii_lowercase().starts_with("mailto:");
                    let value = url.as_ref().map_or_else(|| f.value.clone(), |u| u.to_string());
                    if !value.is_empty() {
                        add(report, CandidateKind::Contact, "contact", value, f.line);
                    }
                }
                let Some(u) = url else { continue };
                if kind == FieldName::Encryption {
                    add(report, CandidateKind::Key, "encryption", u.to_string(), f.line);
                }
                if kind == FieldName::Canonical {
                    canonicals.push((u.clone(), f.line));
                }
                if kind == FieldName::Csaf
                    && u.path().ends_with("/provider-metadata.json")
                    && matches!(u.scheme(), "http" | "https")
                {
                    // The provider metadata is another probe's document (CSAF 2.0 section 7.1.8):
                    // a follow-up, which the engine applies scope and its visited set to.
                    report.follow_up(CSAF_PROBE, u.clone(), "csaf");
                }
                if kind == FieldName::Csaf && !u.path().ends_with("/provider-metadata.json") {
                    report.error(
                        codes::CSAF_NOT_PROVIDER_METADATA,
                        format!(
                            "CSAF {:?} does not point to a provider-metadata.json (CSAF 2.0 section 7.1.8)",
                            f.value
                        ),
                        at(f.line),
                    );
                }
                if matches!(u.scheme(), "http" | "https") {
                    web_candidates(&mut add, report, &u, relation, f.line);
                }
            }
        }
    }
    if !fields.iter().any(|f| f.kind == FieldName::Contact) {
        report.error(codes::MISSING_CONTACT, "no Contact field (RFC 9116 section 2.5.3: MUST always be present)", None);
    }
    match (expires_seen, expires) {
        (false, _) => report.error(
            codes::MISSING_EXPIRES,
            "no Expires field (RFC 9116 section 2.5.5: MUST always be present)",
            None,
        ),
        (true, Some(ts)) => check_expiry(report, meta.fetched_at, ts, fields),
        (true, None) => {}
    }
    if mailto_contact && !fields.iter().any(|f| f.kind == FieldName::Encryption) {
        let line = fields
            .iter()
            .find(|f| f.kind == FieldName::Contact && f.value.to_ascii_lowercase().starts_with("mailto:"))
            .map(|f| f.line);
        report.warn(
            codes::MISSING_ENCRYPTION,
            "an email contact without an Encryption field (RFC 9116 section 2.5.3 RECOMMENDS encryption)",
            line.and_then(at),
        );
    }
    if let Some((_, first_line)) = canonicals.first()
        && !canonicals.iter().any(|(u, _)| same_url(u, &meta.url))
    {
        report.error(
            codes::CANONICAL_MISMATCH,
            format!(
                "the file was retrieved from {} but no Canonical field lists that URL (RFC 9116 section 2.5.2)",
                meta.url
            ),
            at(*first_line),
        );
    }
    if !unknown.is_empty() {
        report.fact("unknown_fields", unknown);
    }
    if unknown_total > MAX_UNKNOWN_FIELDS_LISTED {
        report.fact("unknown_fields_total", unknown_total);
    }
}

/// URL and host candidates for a web URI.
fn web_candidates(
    add: &mut impl FnMut(&mut Report, CandidateKind, &str, String, u32),
    report: &mut Report,
    u: &Url,
    relation: &str,
    line: u32,
) {
    add(report, CandidateKind::Url, relation, u.to_string(), line);
    if let Some(h) = u.host() {
        add(report, CandidateKind::Host, &format!("{relation}_host"), Host::from(h).name(), line);
    }
}

/// Checks a URI-valued field: `not_a_uri` unless it is an RFC 3986 URI the `url` crate reads,
/// `insecure_uri` for `http:`. Returns the parsed URL when the `url` crate reads it (even when it is
/// not a strict URI, so candidates are still extracted).
fn uri_value(report: &mut Capped, f: &Field) -> Option<Url> {
    let parsed = Url::parse(&f.value).ok();
    if f.value.is_empty() {
        report.error(
            codes::NOT_A_URI,
            format!("{} has no value; it must be a URI (RFC 9116 section 4)", f.name),
            at(f.line),
        );
    } else if parsed.is_none() || !is_uri(&f.value) {
        report.error(
            codes::NOT_A_URI,
            format!(
                "{} value {:?} is not a URI (RFC 3986 section 3; email addresses need mailto:, phone numbers tel:)",
                f.name, f.value
            ),
            at(f.line),
        );
    }
    if parsed.as_ref().is_some_and(|u| u.scheme() == "http") {
        report.error(
            codes::INSECURE_URI,
            format!("{} {:?} uses http; web URIs MUST begin with https:// (RFC 9116 section 2.5)", f.name, f.value),
            at(f.line),
        );
    }
    parsed
}

/// `expired` before the fetch instant, `long_expiry` more than one calendar year after it.
fn check_expiry(report: &mut Capped, now: Timestamp, expires: Timestamp, fields: &[Field]) {
    let field = fields.iter().find(|f| f.kind == FieldName::Expires);
    let line = field.map(|f| f.line);
    // The value as written (a date past the timestamp range is clamped to its end for comparing).
    let written = field.map_or_else(|| expires.to_string(), |f| f.value.trim().to_string());
    if expires < now {
        report.error(
            codes::EXPIRED,
            format!("expired at {written}, before the fetch at {now} (RFC 9116 section 2.5.5)"),
            line.and_then(at),
        );
        return;
    }
    let year_ahead = now.to_zoned(TimeZone::UTC).checked_add(1.year()).map(|z| z.timestamp());
    if let Ok(limit) = year_ahead
        && expires > limit
    {
        report.warn(
            codes::LONG_EXPIRY,
            format!(
                "expires at {written}, more than a year after {now} (RFC 9116 section 2.5.5 RECOMMENDS less than a year)"
            ),
            line.and_then(at),
        );
    }
}

/// URL equality for Canonical: both parsed by the `url` crate (case of scheme and host, default
/// port, percent-encoding normalised), fragments ignored.
fn same_url(a: &Url, b: &Url) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    a.set_fragment(None);
    b.set_fragment(None);
    a == b
}
