//! The policy parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! RFC 8461 section 3.2: the body is `name: value` fields, one a line, lines ended by CRLF or LF
//! (ABNF `sts-policy-term = LF / CRLF`); `version`, `mode` and `max_age` once each, `mx` once or
//! more; unknown fields are extensions and are ignored. Names and the `STSv1`, `enforce`, `testing`
//! and `none` values are case-sensitive (`%s` in the ABNF).

use wellknown_core::diag::codes as shared;
use wellknown_core::media::{MediaType, looks_like_html};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Host, Locator, Report};

use crate::codes;

/// Fetch cap (bytes after content decoding): a policy is a few lines; larger bodies are truncated by
/// the fetcher and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

/// The largest `max_age`, in seconds (one year; RFC 8461 section 3.2).
pub const MAX_AGE_LIMIT: u64 = 31_557_600;

/// Below this `max_age` (seconds, one day) the policy gets `short_max_age`.
const SHORT_MAX_AGE_SECONDS: u64 = 86_400;

/// Relation of the `host` candidates of `mx` fields.
pub const MX_RELATION: &str = "mta_sts_mx";

/// Relation of the `host` candidate naming the Policy Domain the policy host serves.
pub const POLICY_DOMAIN_RELATION: &str = "mta_sts_policy_domain";

/// One `name: value` line.
struct Field<'a> {
    name: &'a str,
    value: &'a str,
    line: u32,
}

/// Interprets an MTA-STS policy fetched as described by `meta` (a 2xx answer).
///
/// Returns a report of kind `mta_sts_policy` (`invalid` for an HTML page) with:
/// * facts `policy_host` (the URL's host), `policy_domain` (it without `mta-sts.`, when it is a
///   Policy Host), `version`, `mode`, `max_age` (seconds, as a number when valid), `mx` (count),
///   `line_ends` (`crlf`, `lf`, `mixed` or `none`);
/// * a `host` candidate per `mx` value, relation [`MX_RELATION`], locator = line: the host name
///   (lower case, punycode), or for a wildcard the pattern `*.<domain>` flagged `pattern` (it matches
///   any one label in place of `*`, section 4.1, and names no host to scan); a value that breaks the
///   grammar is emitted as written (a trailing dot dropped) flagged `invalid`;
/// * a `host` candidate for the Policy Domain, relation [`POLICY_DOMAIN_RELATION`], no locator (it
///   comes from the URL, not the body);
/// * the codes of [`crate::codes`] and the shared `too_large`, `invalid_utf8`,
///   `invalid_content_type` (not `text/plain`, section 3.3), `insecure_transport` (not https,
///   section 3.3), `html_document`.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "mta_sts_policy");
    check_transport(&mut report, meta);
    let host = meta.url.host_str().unwrap_or_default().to_string();
    report.fact("policy_host", host);
    if let Some(domain) = crate::policy_domain(&meta.url) {
        report.fact("policy_domain", domain.clone());
        report.candidate(Candidate::new(CandidateKind::Host, POLICY_DOMAIN_RELATION, domain, None));
    }
    if looks_like_html(body) {
        report.error(shared::HTML_DOCUMENT, "an HTML page, not a policy (a soft 404 or a login page)", None);
        report.kind = "invalid".to_string();
        return report;
    }
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            report.error(shared::INVALID_UTF8, format!("not UTF-8 from byte {at}"), Some(Locator::Byte(at as u64)));
            body.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default()
        }
    };
    report.fact("line_ends", line_ends(text));
    let fields = fields(text, &mut report);
    if let Some(first) = fields.first()
        && first.name != "version"
        && fields.iter().any(|f| f.name == "version")
    {
        report.warn(
            codes::VERSION_NOT_FIRST,
            format!(
                "the first field is `{}`; the policy leads with `version: STSv1` (RFC 8461 section 3.2)",
                first.name
            ),
            Some(Locator::Line(first.line)),
        );
    }
    version(&fields, &mut report);
    let mode = mode(&fields, &mut report);
    max_age(&fields, &mut report);
    mx(&fields, mode, &mut report);
    report
}

/// A non-2xx answer. A redirect is `redirected` (error): senders MUST NOT follow redirects when
/// fetching a policy (RFC 8461 section 3.3), so the domain has no usable policy there; the engine
/// records the redirect's target. Other statuses: nothing to say (None).
pub fn interpret_unavailable(meta: &FetchMeta) -> Option<Report> {
    let status = meta.status?;
    if !(300..400).contains(&status) {
        return None;
    }
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "invalid");
    let target = meta.unfollowed_location.as_ref().map(|u| format!(" to {u}")).unwrap_or_default();
    report.error(
        shared::REDIRECTED,
        format!(
            "HTTP {status} redirect{target}: senders MUST NOT follow redirects for a policy (RFC 8461 section 3.3)"
        ),
        None,
    );
    Some(report)
}

/// `insecure_transport`, `too_large`, `invalid_content_type`.
fn check_transport(report: &mut Report, meta: &FetchMeta) {
    if meta.url.scheme() != "https" {
        report.error(shared::INSECURE_TRANSPORT, "a policy is only fetched over HTTPS (RFC 8461 section 3.3)", None);
    }
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    let media = meta.content_type.as_deref().and_then(MediaType::parse);
    if media.as_ref().is_none_or(|m| m.essence != "text/plain") {
        let found = meta.content_type.as_deref().unwrap_or("none");
        report.error(
            shared::INVALID_CONTENT_TYPE,
            format!("Content-Type {found:?} is not text/plain (RFC 8461 section 3.3: senders SHOULD check it)"),
            None,
        );
    }
}

fn line_ends(text: &str) -> &'static str {
    let lf = text.matches('\n').count();
    let crlf = text.matches("\r\n").count();
    match (lf, crlf) {
        (0, _) => "none",
        (l, c) if l == c => "crlf",
        (_, 0) => "lf",
        _ => "mixed",
    }
}

/// The `name: value` lines, in order; other non-blank lines are `invalid_line`.
fn fields<'a>(text: &'a str, report: &mut Report) -> Vec<Field<'a>> {
    let mut out = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let trimmed = raw.strip_suffix('\r').unwrap_or(raw).trim_matches([' ', '\t']);
        if trimmed.is_empty() {
            continue;
        }
        match trimmed.split_once(':') {
            Some((name, value)) if is_field_name(name) => {
                out.push(Field { name, value: value.trim_matches([' ', '\t']), line });
            }
            _ => report.warn(
                codes::INVALID_LINE,
                "not a `name: value` field (RFC 8461 section 3.2); ignored",
                Some(Locator::Line(line)),
            ),
        }
    }
    out
}

/// `sts-policy-ext-name = (ALPHA / DIGIT) *31(ALPHA / DIGIT / "_" / "-" / ".")`, which also covers
/// the four defined names.
fn is_field_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.first().is_some_and(u8::is_ascii_alphanumeric)
        && b.len() <= 32
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// The first field called `name`; later ones are `duplicate_field`.
fn single<'a, 'f>(fields: &'f [Field<'a>], name: &str, report: &mut Report) -> Option<&'f Field<'a>> {
    let mut found = fields.iter().filter(|f| f.name == name);
    let first = found.next();
    for extra in found {
        report.warn(
            codes::DUPLICATE_FIELD,
            format!("`{name}` is given again; this probe keeps the first one (RFC 8461 section 3.2 allows one)"),
            Some(Locator::Line(extra.line)),
        );
    }
    first
}

fn version(fields: &[Field<'_>], report: &mut Report) {
    let Some(f) = single(fields, "version", report) else {
        report.error(codes::MISSING_VERSION, "no `version` field (RFC 8461 section 3.2)", None);
        return;
    };
    report.fact("version", f.value);
    if f.value != "STSv1" {
        report.error(
            codes::INVALID_VERSION,
            format!("version {:?} is not STSv1, the only version (RFC 8461 section 3.2)", f.value),
            Some(Locator::Line(f.line)),
        );
    }
}

fn mode<'a>(fields: &[Field<'a>], report: &mut Report) -> Option<&'a str> {
    let Some(f) = single(fields, "mode", report) else {
        report.error(codes::MISSING_MODE, "no `mode` field (RFC 8461 section 3.2)", None);
        return None;
    };
    report.fact("mode", f.value);
    if matches!(f.value, "enforce" | "testing" | "none") {
        Some(f.value)
    } else {
        report.error(
            codes::INVALID_MODE,
            format!("mode {:?} is not enforce, testing or none (RFC 8461 section 3.2)", f.value),
            Some(Locator::Line(f.line)),
        );
        None
    }
}

fn max_age(fields: &[Field<'_>], report: &mut Report) {
    let Some(f) = single(fields, "max_age", report) else {
        report.error(codes::MISSING_MAX_AGE, "no `max_age` field (RFC 8461 section 3.2)", None);
        return;
    };
    let digits = !f.value.is_empty() && f.value.len() <= 10 && f.value.bytes().all(|b| b.is_ascii_digit());
    let seconds = if digits { f.value.parse::<u64>().ok() } else { None };
    match seconds {
        Some(s) if s <= MAX_AGE_LIMIT => {
            report.fact("max_age", s);
            if s < SHORT_MAX_AGE_SECONDS {
                report.warn(
                    codes::SHORT_MAX_AGE,
                    format!(
                        "max_age {s} s is under a day; RFC 8461 section 3.2 expects weeks or more, so that \
                         an attacker at refresh time has little to gain"
                    ),
                    Some(Locator::Line(f.line)),
                );
            }
        }
        _ => {
            report.fact("max_age", f.value);
            report.error(
                codes::INVALID_MAX_AGE,
                format!("max_age {:?} is not an integer from 0 to {MAX_AGE_LIMIT} (RFC 8461 section 3.2)", f.value),
                Some(Locator::Line(f.line)),
            );
        }
    }
}

fn mx(fields: &[Field<'_>], mode: Option<&str>, report: &mut Report) {
    let mut count = 0usize;
    for f in fields.iter().filter(|f| f.name == "mx") {
        count += 1;
        let line = Some(Locator::Line(f.line));
        match mx_pattern(f.value) {
            Ok((value, wildcard)) => {
                let c = Candidate::new(CandidateKind::Host, MX_RELATION, value, line);
                report.candidate(if wildcard { c.with_flag("pattern") } else { c });
            }
            Err(why) => {
                report.error(
                    codes::INVALID_MX,
                    format!("mx {:?}: {why} (RFC 8461 section 3.2)", f.value),
                    line.clone(),
                );
                let kept = f.value.trim_end_matches('.').to_ascii_lowercase();
                if !kept.is_empty() {
                    let c = Candidate::new(CandidateKind::Host, MX_RELATION, kept, line).with_flag("invalid");
                    report.candidate(if f.value.starts_with("*.") { c.with_flag("pattern") } else { c });
                }
            }
        }
    }
    report.fact("mx", count);
    if count == 0 {
        let msg = "no `mx` field: a policy lists the MX hosts allowed for the domain (RFC 8461 section 3.2)";
        if mode == Some("none") {
            report.warn(codes::MISSING_MX, msg, None);
        } else {
            report.error(codes::MISSING_MX, msg, None);
        }
    }
}

/// `["*."] Domain` (RFC 5321 `Domain`: dot-separated labels of letters, digits and inner hyphens;
/// IDNs as A-labels): the normalised host (or `*.`-pattern) and whether it is a wildcard.
fn mx_pattern(value: &str) -> Result<(String, bool), &'static str> {
    let (wildcard, domain) = match value.strip_prefix("*.") {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    if domain.is_empty() {
        return Err("empty");
    }
    if domain.ends_with('.') {
        return Err("a trailing dot is not part of the Domain grammar; MX names are compared without it");
    }
    let labels_ok = domain.split('.').all(|l| {
        let b = l.as_bytes();
        !b.is_empty()
            && b.len() <= 63
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && b.first() != Some(&b'-')
            && b.last() != Some(&b'-')
    });
    if !labels_ok {
        return Err(
            "not a domain name (letters, digits and inner hyphens, dot-separated; `*` only as a whole first label)",
        );
    }
    match Host::parse(domain) {
        Ok(Host::Domain(d)) => Ok((if wildcard { format!("*.{d}") } else { d }, wildcard)),
        Ok(_) => Err("an IP address, not a domain name"),
        Err(_) => Err("not a domain name"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::Timestamp;

    fn parse(body: &str) -> Report {
        let url = Url::parse("https://mta-sts.example.com/.well-known/mta-sts.txt").unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("text/plain"), Timestamp::UNIX_EPOCH))
    }

    fn codes_of(ds: &[wellknown_core::Diagnostic]) -> Vec<(&str, Option<&Locator>)> {
        ds.iter().map(|d| (d.code.as_str(), d.locator.as_ref())).collect()
    }

    #[test]
    fn rfc_example_with_wildcard() {
        // RFC 8461 section 3.2's example policy.
        let r = parse(
            "version: STSv1\nmode: enforce\nmx: mail.example.com\nmx: *.example.net\nmx: backupmx.example.com\nmax_age: 604800\n",
        );
        assert!(r.valid(), "{:?}", r.errors);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let mx: Vec<(String, Vec<String>, Option<Locator>)> = r
            .candidates
            .iter()
            .filter(|c| c.relation() == MX_RELATION)
            .map(|c| (c.value().to_string(), c.to_candidate().flags, c.locator()))
            .collect();
        assert_eq!(
            mx,
            [
                ("mail.example.com".to_string(), vec![], Some(Locator::Line(3))),
                ("*.example.net".to_string(), vec!["pattern".to_string()], Some(Locator::Line(4))),
                ("backupmx.example.com".to_string(), vec![], Some(Locator::Line(5))),
            ]
        );
        assert_eq!(r.values(CandidateKind::Host).next(), Some("example.com"));
        assert_eq!(r.facts["mode"], "enforce");
        assert_eq!(r.facts["max_age"], 604800);
        assert_eq!(r.facts["policy_domain"], "example.com");
        assert_eq!(r.facts["line_ends"], "lf");
    }

    #[test]
    fn bounds_and_required_fields() {
        let r = parse("mode: Enforce\nversion: STSv2\nmax_age: 31557601\n");
        assert_eq!(
            codes_of(&r.errors),
            [
                ("invalid_version", Some(&Locator::Line(2))),
                ("invalid_mode", Some(&Locator::Line(1))),
                ("invalid_max_age", Some(&Locator::Line(3))),
                ("missing_mx", None),
            ]
        );
        assert_eq!(codes_of(&r.warnings), [("version_not_first", Some(&Locator::Line(1)))]);
        let r = parse("version: STSv1\r\nmode: testing\r\nmax_age: 31557600\r\nmx: a.example\r\n");
        assert!(r.valid(), "{:?}", r.errors);
        assert_eq!(r.facts["line_ends"], "crlf");
        assert_eq!(r.facts["max_age"], 31557600);
        let r = parse("");
        let errs: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(errs, ["missing_version", "missing_mode", "missing_max_age", "missing_mx"]);
        let r = parse("version: STSv1\nmode: none\nmax_age: 12345678901\nmax_age: 5\n");
        assert_eq!(codes_of(&r.errors), [("invalid_max_age", Some(&Locator::Line(3)))]);
        assert_eq!(codes_of(&r.warnings), [("duplicate_field", Some(&Locator::Line(4))), ("missing_mx", None)]);
    }

    #[test]
    fn invalid_mx_values_are_kept_flagged() {
        let r = parse(
            "version: STSv1\nmode: enforce\nmax_age: 86400\nmx: Mail.Example.DE.\nmx: 192.0.2.1\nmx: a.*.example\nnonsense line\n",
        );
        let errs: Vec<_> = codes_of(&r.errors);
        assert_eq!(
            errs,
            [
                ("invalid_mx", Some(&Locator::Line(4))),
                ("invalid_mx", Some(&Locator::Line(5))),
                ("invalid_mx", Some(&Locator::Line(6))),
            ]
        );
        assert_eq!(codes_of(&r.warnings), [("invalid_line", Some(&Locator::Line(7)))]);
        let first = r.candidates.iter().find(|c| c.relation() == MX_RELATION).unwrap();
        assert_eq!((first.value(), first.has_flag("invalid")), ("mail.example.de", true));
    }

    #[test]
    fn media_type_transport_and_html() {
        let url = Url::parse("http://mta-sts.example.com/.well-known/mta-sts.txt").unwrap();
        let meta = FetchMeta::synthetic(url, Some("text/html"), Timestamp::UNIX_EPOCH);
        let r = interpret(b"<!doctype html><html><body>hi</body></html>", &meta);
        let errs: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(errs, ["insecure_transport", "invalid_content_type", "html_document"]);
        assert_eq!(r.kind, "invalid");
    }

    #[test]
    fn redirect_is_diagnosed() {
        let url = Url::parse("https://mta-sts.example.com/.well-known/mta-sts.txt").unwrap();
        let mut meta = FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH);
        meta.status = Some(301);
        let r = interpret_unavailable(&meta).expect("a report");
        assert_eq!(r.errors[0].code, "redirected");
        meta.status = Some(404);
        assert!(interpret_unavailable(&meta).is_none());
    }
}
