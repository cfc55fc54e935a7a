//! The provider metadata parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::json_document::{JsonRules, TopLevel, read_object_into};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Report, Severity};

use crate::codes;

/// Fetch cap (bytes after content decoding): provider metadata is a few KiB. Larger bodies are
/// truncated and diagnosed `too_large`.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// The roles a provider-metadata.json may declare (section 7.1.7, schema `role`).
pub const ROLES: [&str; 3] = ["csaf_publisher", "csaf_provider", "csaf_trusted_provider"];

const CATEGORIES: [&str; 6] = ["coordinator", "discoverer", "other", "translator", "user", "vendor"];
const TLP_LABELS: [&str; 5] = ["UNLABELED", "WHITE", "GREEN", "AMBER", "RED"];
const MAX_ITEMS: usize = 256;

/// The document as JSON: its media types and a top-level object.
const RULES: JsonRules = JsonRules {
    accepts: |m| m.essence == "application/json",
    wrong_media_type: |raw, _| format!("Content-Type {:?} is not application/json", raw.unwrap_or("")),
    top_level: TopLevel::Object,
    wrong_top_level: |found| format!("expected a JSON object, found {found}"),
    wrong_media_type_severity: Severity::Warning,
    charset_severity: Severity::Warning,
    ..JsonRules::JSON
};

/// Interprets a CSAF provider-metadata.json fetched as described by `meta`.
///
/// Returns a report of kind `csaf_provider_metadata` (`invalid` when not a JSON object) with `url`
/// candidates located by JSON pointer: `canonical_url`, `distribution_directory` (`directory_url`),
/// `rolie_feed` (hints `tlp_label`, `summary`), `rolie_service`, `rolie_category`,
/// `public_openpgp_key` (hint `fingerprint`) and `publisher_namespace`. Facts: `role`, `publisher`
/// (`name`, `category`, `namespace`), `metadata_version`, `last_updated`,
/// `list_on_CSAF_aggregators`, `mirror_on_CSAF_aggregators`, `distributions`. Diagnostics:
/// [`crate::codes::ALL`].
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "csaf_provider_metadata");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    if meta.url.scheme() != "https" {
        report.error(
            shared::INSECURE_TRANSPORT,
            "provider-metadata.json is served over TLS (CSAF 2.0 section 7.1.1)",
            None,
        );
    }
    // A wrong media type is a warning (`RULES`): section 7.1.7 names no media type requirement.
    let Some((obj, alternates)) = read_object_into(&mut report, body, meta, &RULES) else {
        return report;
    };
    read(&mut report, meta, &obj);
    for alternate in alternates {
        let Some(o) = alternate.as_object() else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "csaf_provider_metadata");
        read(&mut scratch, meta, o);
        merge_alternate(&mut report, scratch);
    }
    report
}

/// Reads the members in the schema's (alphabetical) order, so candidates come in that order.
fn read(report: &mut Report, meta: &FetchMeta, obj: &Map<String, Value>) {
    for name in [
        "canonical_url",
        "last_updated",
        "list_on_CSAF_aggregators",
        "metadata_version",
        "mirror_on_CSAF_aggregators",
        "publisher",
        "role",
    ] {
        if !obj.contains_key(name) {
            report.error(codes::MISSING_MEMBER, format!("no {name} member (CSAF 2.0 section 7.1.7)"), at(""));
        }
    }
    if let Some(url) = url_member(report, obj.get("canonical_url"), "/canonical_url", "canonical_url", true)
        && url != meta.url
    {
        report.warn(
            codes::CANONICAL_URL_MISMATCH,
            format!("canonical_url {url} is not the URL this document was fetched from ({})", meta.url),
            at("/canonical_url"),
        );
    }
    let role = obj.get("role").and_then(Value::as_str);
    match obj.get("role") {
        Some(Value::String(r)) if ROLES.contains(&r.as_str()) => report.fact("role", r.as_str()),
        Some(other) => invalid(report, "/role", "one of csaf_publisher, csaf_provider, csaf_trusted_provider", other),
        None => {}
    }
    match obj.get("metadata_version") {
        Some(Value::String(v)) if v == "2.0" => report.fact("metadata_version", "2.0"),
        Some(other) => invalid(report, "/metadata_version", "\"2.0\"", other),
        None => {}
    }
    if let Some(v) = obj.get("last_updated") {
        match v.as_str().map(|s| s.parse::<wellknown_core::Timestamp>()) {
            Some(Ok(_)) => report.fact("last_updated", v.clone()),
            _ => invalid(report, "/last_updated", "an RFC 3339 date-time", v),
        }
    }
    for name in ["list_on_CSAF_aggregators", "mirror_on_CSAF_aggregators"] {
        match obj.get(name) {
            Some(Value::Bool(b)) => report.fact(name, *b),
            Some(other) => invalid(report, &pointer("", name), "a boolean", other),
            None => {}
        }
    }
    let distributions = distributions(report, obj.get("distributions"));
    report.fact("distributions", distributions);
    if distributions == 0 && matches!(role, Some("csaf_provider" | "csaf_trusted_provider")) {
        report.warn(codes::NO_DISTRIBUTIONS, "a CSAF provider without a directory or ROLIE distribution", at(""));
    }
    let keys = keys(report, obj.get("public_openpgp_keys"));
    if keys == 0 && role == Some("csaf_trusted_provider") {
        report.warn(
            codes::NO_OPENPGP_KEYS,
            "a CSAF trusted provider without public OpenPGP keys (section 7.1.19)",
            at(""),
        );
    }
    publisher(report, obj.get("publisher"));
}

fn publisher(report: &mut Report, value: Option<&Value>) {
    let Some(value) = value else { return };
    let Some(p) = value.as_object() else {
        invalid(report, "/publisher", "an object", value);
        return;
    };
    let mut fact = Map::new();
    for name in ["category", "name", "namespace"] {
        if !p.contains_key(name) {
            report.error(codes::MISSING_MEMBER, format!("publisher has no {name}"), at("/publisher"));
        }
    }
    match p.get("category") {
        Some(Value::String(c)) if CATEGORIES.contains(&c.as_str()) => {
            fact.insert("category".into(), c.as_str().into());
        }
        Some(other) => invalid(report, "/publisher/category", "a publisher category", other),
        None => {}
    }
    match p.get("name") {
        Some(Value::String(n)) => {
            fact.insert("name".into(), n.as_str().into());
        }
        Some(other) => invalid(report, "/publisher/name", "a string", other),
        None => {}
    }
    if let Some(ns) = url_member(report, p.get("namespace"), "/publisher/namespace", "publisher_namespace", false) {
        fact.insert("namespace".into(), ns.as_str().into());
    }
    report.fact("publisher", Value::Object(fact));
}

/// Reads `distributions`; how many there are.
fn distributions(report: &mut Report, value: Option<&Value>) -> usize {
    let Some(value) = value else { return 0 };
    let Some(items) = value.as_array() else {
        invalid(report, "/distributions", "an array", value);
        return 0;
    };
    for (i, d) in items.iter().enumerate().take(MAX_ITEMS) {
        let p = pointer("/distributions", &i.to_string());
        let Some(d) = d.as_object() else {
            invalid(report, &p, "an object", d);
            continue;
        };
        if !d.contains_key("directory_url") && !d.contains_key("rolie") {
            report.error(codes::EMPTY_DISTRIBUTION, "a distribution with neither directory_url nor rolie", at(&p));
        }
        url_member(report, d.get("directory_url"), &pointer(&p, "directory_url"), "distribution_directory", true);
        let Some(rolie) = d.get("rolie") else { continue };
        let rp = pointer(&p, "rolie");
        let Some(rolie) = rolie.as_object() else {
            invalid(report, &rp, "an object", rolie);
            continue;
        };
        match rolie.get("feeds") {
            Some(Value::Array(feeds)) => {
                for (j, f) in feeds.iter().enumerate().take(MAX_ITEMS) {
                    let fp = pointer(&pointer(&rp, "feeds"), &j.to_string());
                    let Some(f) = f.as_object() else {
                        invalid(report, &fp, "an object", f);
                        continue;
                    };
                    let tlp = match f.get("tlp_label") {
                        Some(Value::String(t)) if TLP_LABELS.contains(&t.as_str()) => Some(t.as_str()),
                        Some(other) => {
                            invalid(report, &pointer(&fp, "tlp_label"), "a TLP label", other);
                            None
                        }
                        None => {
                            report.error(codes::MISSING_MEMBER, "a ROLIE feed without tlp_label", at(&fp));
                            None
                        }
                    };
                    let summary = f.get("summary").and_then(Value::as_str);
                    if !f.contains_key("url") {
                        report.error(codes::MISSING_MEMBER, "a ROLIE feed without url", at(&fp));
                    }
                    url_with(report, f.get("url"), &pointer(&fp, "url"), "rolie_feed", true, |c| {
                        let c = match tlp {
                            Some(t) => c.with_hint("tlp_label", t),
                            None => c,
                        };
                        match summary {
                            Some(s) => c.with_hint("summary", s),
                            None => c,
                        }
                    });
                }
            }
            Some(other) => invalid(report, &pointer(&rp, "feeds"), "an array", other),
            None => report.error(codes::MISSING_MEMBER, "rolie has no feeds", at(&rp)),
        }
        for (member, relation) in [("services", "rolie_service"), ("categories", "rolie_category")] {
            let Some(list) = rolie.get(member) else { continue };
            let lp = pointer(&rp, member);
            let Some(list) = list.as_array() else {
                invalid(report, &lp, "an array", list);
                continue;
            };
            for (j, item) in list.iter().enumerate().take(MAX_ITEMS) {
                let ip = pointer(&lp, &j.to_string());
                url_member(report, item.get("url"), &pointer(&ip, "url"), relation, true);
            }
        }
    }
    items.len()
}

/// Reads `public_openpgp_keys`; how many there are.
fn keys(report: &mut Report, value: Option<&Value>) -> usize {
    let Some(value) = value else { return 0 };
    let Some(items) = value.as_array() else {
        invalid(report, "/public_openpgp_keys", "an array", value);
        return 0;
    };
    for (i, k) in items.iter().enumerate().take(MAX_ITEMS) {
        let p = pointer("/public_openpgp_keys", &i.to_string());
        let Some(k) = k.as_object() else {
            invalid(report, &p, "an object", k);
            continue;
        };
        let fingerprint = match k.get("fingerprint") {
            None => None,
            Some(Value::String(f)) if f.len() >= 40 && f.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Some(f.to_ascii_uppercase())
            }
            Some(other) => {
                report.error(
                    codes::INVALID_FINGERPRINT,
                    format!("fingerprint {other} is not 40 or more hex digits"),
                    at(pointer(&p, "fingerprint")),
                );
                None
            }
        };
        if !k.contains_key("url") {
            report.error(codes::MISSING_MEMBER, "a public OpenPGP key without url", at(&p));
        }
        let url =
            url_with(report, k.get("url"), &pointer(&p, "url"), "public_openpgp_key", true, |c| match &fingerprint {
                Some(f) => c.with_hint("fingerprint", f.as_str()),
                None => c,
            });
        if let (Some(url), Some(f)) = (url, &fingerprint)
            && let Some(id) = key_id_in(&url)
            && !f.ends_with(&id)
        {
            report.warn(
                codes::FINGERPRINT_URL_MISMATCH,
                format!("the key URL names key id {id}, which is not the end of fingerprint {f}"),
                at(pointer(&p, "url")),
            );
        }
    }
    items.len()
}

/// A key id in the URL's file name: 16 or 40 hex digits before the extension, upper-cased.
fn key_id_in(url: &Url) -> Option<String> {
    let name = url.path_segments()?.next_back()?;
    let stem = name.split('.').next()?;
    ((stem.len() == 16 || stem.len() == 40) && stem.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| stem.to_ascii_uppercase())
}

fn url_member(report: &mut Report, value: Option<&Value>, p: &str, relation: &'static str, https: bool) -> Option<Url> {
    url_with(report, value, p, relation, https, |c| c)
}

/// A URL member as a `url` candidate (relation `relation`, decorated by `hints`); `invalid_url` when
/// it is not an absolute URL, or not https where `https` (kept, flagged `invalid`).
fn url_with(
    report: &mut Report,
    value: Option<&Value>,
    p: &str,
    relation: &'static str,
    https: bool,
    hints: impl FnOnce(Candidate) -> Candidate,
) -> Option<Url> {
    let value = value?;
    let Some(s) = value.as_str() else {
        invalid(report, p, "a URL string", value);
        return None;
    };
    let url = match Url::parse(s.trim()) {
        Ok(u) => u,
        Err(e) => {
            report.error(codes::INVALID_URL, format!("{s:?} is not an absolute URL: {e}"), at(p));
            return None;
        }
    };
    let mut c = hints(Candidate::new(CandidateKind::Url, relation, url.as_str(), at(p)));
    if (https && url.scheme() != "https") || !matches!(url.scheme(), "http" | "https") {
        report.error(codes::INVALID_URL, format!("{s:?} is not an https URL"), at(p));
        c = c.with_flag("invalid");
    }
    report.candidate(c);
    Some(url)
}

fn invalid(report: &mut Report, p: &str, want: &str, found: &Value) {
    report.error(codes::INVALID_MEMBER, format!("{p} must be {want}, found {}", type_name(found)), at(p));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_ids_in_urls() {
        let u = Url::parse("https://a.example/openpgp/4005788070EAA8A5.txt").unwrap();
        assert_eq!(key_id_in(&u).as_deref(), Some("4005788070EAA8A5"));
        let u = Url::parse("https://a.example/openpgp/key.asc").unwrap();
        assert_eq!(key_id_in(&u), None);
    }
}
