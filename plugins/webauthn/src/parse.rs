//! The related-origins parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no
//! panics.
//!
//! WebAuthn Level 3 section 5.11.1: a client fetches `https://<RP ID>/.well-known/webauthn` (no
//! credentials, https only, every redirect https too), requires status 200 and `application/json`,
//! reads `origins` (an array of strings), then walks it: an entry that is not a URL, or whose host
//! has no registrable domain label (the eTLD+1 without its public suffix), is skipped; labels are
//! counted, and once `maxLabels` distinct labels are seen (at least 5) entries with a new label are
//! skipped.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer};
use wellknown_core::scope::registrable_domain;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report};

use crate::codes;
use wellknown_core::json_document::{JsonRules, read_object_into};

/// Fetch cap (bytes after content decoding).
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// The smallest number of distinct labels a client must honour (5.11.1: clients SHOULD support at
/// least five).
pub const MAX_LABELS: usize = 5;

/// Relation of the `origin` candidates.
pub const RELATION: &str = "webauthn_related_origin";

/// A JSON object served as `application/json` (section 5.11.1: clients refuse another type).
const JSON_RULES: JsonRules = JsonRules {
    wrong_media_type: |raw, parsed| match (raw, parsed) {
        (_, Some(m)) => format!("served as {}, not application/json: clients refuse it (section 5.11.1)", m.essence),
        (Some(raw), None) => format!("Content-Type {raw:?} is not a media type: clients refuse it (section 5.11.1)"),
        (None, None) => "served without a Content-Type: clients require application/json (section 5.11.1)".to_string(),
    },
    ..JsonRules::JSON
};

/// Interprets a `/.well-known/webauthn` body fetched as described by `meta`.
///
/// Report kind `webauthn_related_origins` (`invalid` when the body is not a JSON object), facts
/// `rp_id` (the host it was served from), `origins` (entries), `labels` (the distinct registrable
/// domain labels in order). One `origin` candidate per entry, relation [`RELATION`], locator
/// `/origins/<i>`, hint `label`: the entry's origin (`scheme://host[:port]`), or the entry as
/// written flagged `invalid` when clients skip it, `beyond_label_limit` when past the fifth label.
/// Codes: [`crate::codes`], the shared JSON ones, `insecure_transport` (served over http) and
/// `redirected` (a redirect hop over http; clients require every hop to be https).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "webauthn_related_origins");
    report.fact("rp_id", meta.url.host_str().unwrap_or_default());
    if meta.url.scheme() != "https" {
        report.error(shared::INSECURE_TRANSPORT, "clients fetch the document over https only (section 5.11.1)", None);
    }
    if let Some(hop) = meta.redirect_chain.iter().find(|h| h.url.scheme() != "https") {
        report.error(
            shared::REDIRECTED,
            format!(
                "redirect hop {} is not https: clients require every redirect to use https (section 5.11.1)",
                hop.url
            ),
            None,
        );
    }
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    let Some((object, alternates)) = read_object_into(&mut report, body, meta, &JSON_RULES) else {
        return report;
    };
    read(&object, &mut report);
    for alternate in alternates {
        let Value::Object(object) = alternate else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "webauthn_related_origins");
        read(&object, &mut scratch);
        merge_alternate(&mut report, scratch);
    }
    report
}

fn read(object: &Map<String, Value>, report: &mut Report) {
    let Some(origins) = object.get("origins") else {
        let others: Vec<&str> = object.keys().map(String::as_str).collect();
        report.error(
            codes::MISSING_ORIGINS,
            format!("no `origins` member (found {others:?}): clients find no related origin (section 5.11.1)"),
            at(""),
        );
        return;
    };
    let Some(items) = origins.as_array() else {
        report.error(
            codes::INVALID_ORIGINS,
            "`origins` is not an array: clients refuse the document (section 5.11.1)",
            at("/origins"),
        );
        return;
    };
    if items.iter().any(|v| !v.is_string()) {
        report.error(
            codes::INVALID_ORIGINS,
            "`origins` holds a value that is not a string: clients refuse the document (section 5.11.1)",
            at("/origins"),
        );
    }
    report.fact("origins", items.len());
    let mut labels: Vec<String> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(text) = item.as_str() else { continue };
        let p = pointer("/origins", &i.to_string());
        entry(text, &p, &mut labels, report);
    }
    report.fact("labels", labels);
}

fn entry(text: &str, p: &str, labels: &mut Vec<String>, report: &mut Report) {
    let skipped = |report: &mut Report, why: &str| {
        report.warn(codes::INVALID_ORIGIN, format!("{text:?}: {why}; clients skip it (section 5.11.1 step 5)"), at(p));
        report.candidate(Candidate::new(CandidateKind::Origin, RELATION, text, at(p)).with_flag("invalid"));
    };
    let Ok(url) = Url::parse(text) else { return skipped(report, "not a URL") };
    let Some(host) = url.host_str().filter(|h| !h.is_empty()) else { return skipped(report, "no host") };
    let label = registrable_domain(host).and_then(|d| {
        let label = d.split('.').next().unwrap_or_default().to_string();
        (d.contains('.') && !label.is_empty()).then_some(label)
    });
    let Some(label) = label else { return skipped(report, "its host has no registrable domain label") };
    let Ok(origin) = Origin::from_url(&url) else {
        return skipped(report, "not a web origin (the scheme is neither http nor https)");
    };
    let mut c =
        Candidate::new(CandidateKind::Origin, RELATION, origin.ascii(), at(p)).with_hint("label", label.clone());
    if url.scheme() != "https" {
        report.warn(
            codes::INSECURE_ORIGIN,
            format!("{text:?} is not https: WebAuthn runs in secure contexts, so it is never a caller"),
            at(p),
        );
        c = c.with_flag("insecure");
    }
    if !labels.contains(&label) {
        if labels.len() >= MAX_LABELS {
            report.warn(
                codes::BEYOND_LABEL_LIMIT,
                format!(
                    "label {label:?} is past the first {MAX_LABELS} distinct labels ({}): a client with the minimum \
                     limit skips this origin (section 5.11.1, maxLabels)",
                    labels.join(", ")
                ),
                at(p),
            );
            c = c.with_flag("beyond_label_limit");
        } else {
            labels.push(label);
        }
    }
    report.candidate(c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::{Locator, Timestamp};

    fn parse(body: &str) -> Report {
        let url = Url::parse("https://example.com/.well-known/webauthn").unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
    }

    fn codes_at(ds: &[wellknown_core::Diagnostic]) -> Vec<(&str, Option<Locator>)> {
        ds.iter().map(|d| (d.code.as_str(), d.locator.clone())).collect()
    }

    #[test]
    fn spec_example_and_labels() {
        // The shape of section 5.11's example: origins of one organisation on several domains.
        let r = parse(
            r#"{"origins": ["https://example.co.uk", "https://example.de", "https://example-rewards.com", "https://login.example.com:8443/"]}"#,
        );
        assert!(r.valid() && r.warnings.is_empty(), "{:?} {:?}", r.errors, r.warnings);
        assert_eq!(
            r.values(CandidateKind::Origin).collect::<Vec<_>>(),
            [
                "https://example.co.uk",
                "https://example.de",
                "https://example-rewards.com",
                "https://login.example.com:8443"
            ]
        );
        assert_eq!(r.facts["labels"], serde_json::json!(["example", "example-rewards"]));
        assert_eq!(r.candidates.iter().next().unwrap().hint("label"), Some("example"));
        assert_eq!(r.candidates.iter().next().unwrap().locator(), at("/origins/0"));
    }

    #[test]
    fn sixth_label_is_beyond_the_limit() {
        let r = parse(
            r#"{"origins": ["https://a.com", "https://b.com", "https://c.com", "https://d.com", "https://www.a.com", "https://e.com", "https://f.com"]}"#,
        );
        assert_eq!(codes_at(&r.warnings), [("beyond_label_limit", at("/origins/6"))]);
        let last = r.candidates.iter().next_back().unwrap();
        assert!(last.has_flag("beyond_label_limit"));
    }

    #[test]
    fn skipped_and_insecure_entries() {
        let r =
            parse(r#"{"origins": ["app://local", "http://localhost:8093", "not a url", "http://shop.example.net"]}"#);
        assert!(r.valid(), "{:?}", r.errors);
        assert_eq!(
            codes_at(&r.warnings),
            [
                ("invalid_origin", at("/origins/0")),
                ("invalid_origin", at("/origins/1")),
                ("invalid_origin", at("/origins/2")),
                ("insecure_origin", at("/origins/3")),
            ]
        );
        let flagged: Vec<(&str, bool)> = r.candidates.iter().map(|c| (c.value(), c.has_flag("invalid"))).collect();
        assert_eq!(
            flagged,
            [
                ("app://local", true),
                ("http://localhost:8093", true),
                ("not a url", true),
                ("http://shop.example.net", false)
            ]
        );
    }

    #[test]
    fn document_errors() {
        assert_eq!(codes_at(&parse(r#"{"rpId": "a.example"}"#).errors), [("missing_origins", at(""))]);
        assert_eq!(
            codes_at(&parse(r#"{"origins": "https://a.example"}"#).errors),
            [("invalid_origins", at("/origins"))]
        );
        assert_eq!(
            codes_at(&parse(r#"{"origins": ["https://a.example", 7]}"#).errors),
            [("invalid_origins", at("/origins"))]
        );
        let url = Url::parse("https://example.com/.well-known/webauthn").unwrap();
        let mut meta = FetchMeta::synthetic(url, Some("text/plain"), Timestamp::UNIX_EPOCH);
        meta.redirect_chain = vec![wellknown_core::fetch::RedirectHop {
            url: Url::parse("http://example.com/.well-known/webauthn").unwrap(),
            status: 301,
        }];
        let r = interpret(br#"{"origins": []}"#, &meta);
        let errs: Vec<&str> = r.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(errs, ["redirected", "invalid_content_type"]);
    }
}
