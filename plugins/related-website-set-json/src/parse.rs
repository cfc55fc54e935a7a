//! The set parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! Two forms: the primary serves the whole set (`primary`, `associatedSites`, `serviceSites`,
//! `ccTLDs`, `rationaleBySite`, `contact`); every other member serves `{"primary": "<its primary>"}`.
//! A site is a *schemeful site*: `https://` and a registrable domain (eTLD+1).

use std::collections::HashMap;

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, merge_alternate, pointer};
use wellknown_core::scope::registrable_domain;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report};

use crate::codes;
use wellknown_core::json_document::{JsonRules, read_object_into};

/// Fetch cap (bytes after content decoding).
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// Most associated sites a set may list.
pub const MAX_ASSOCIATED_SITES: usize = 5;

/// Relation of the primary's `origin` candidate.
pub const PRIMARY_RELATION: &str = "rws_primary";
/// Relation of the `origin` candidates of `associatedSites`.
pub const ASSOCIATED_RELATION: &str = "rws_associated_site";
/// Relation of the `origin` candidates of `serviceSites`.
pub const SERVICE_RELATION: &str = "rws_service_site";
/// Relation of the `origin` candidates of `ccTLDs` variants (hint `of`: the site they vary).
pub const CCTLD_RELATION: &str = "rws_cctld_variant";

/// A JSON object; any JSON media type (another one is a warning: the list's checks parse the body).
const JSON_RULES: JsonRules = JsonRules {
    accepts: |m| m.is_json(),
    wrong_media_type: |raw, parsed| match (raw, parsed) {
        (_, Some(m)) => format!("served as {}, not a JSON media type (the file is a JSON object)", m.essence),
        (Some(raw), None) => format!("Content-Type {raw:?} is not a media type"),
        (None, None) => "served without a Content-Type".to_string(),
    },
    wrong_media_type_severity: wellknown_core::Severity::Warning,
    ..JsonRules::JSON
};

const MEMBERS: [&str; 6] = ["primary", "associatedSites", "serviceSites", "ccTLDs", "rationaleBySite", "contact"];

/// Interprets a `/.well-known/related-website-set.json` body fetched as described by `meta`.
///
/// Report kind `related_website_set` (the primary's form) or `related_website_set_member` (only
/// `primary`), `invalid` when the body is not a JSON object or has neither `primary` nor a subset. Facts `primary`, `associated_sites`,
/// `service_sites`, `cctld_variants` (counts). `origin` candidates, located by JSON pointer: the
/// primary ([`PRIMARY_RELATION`]), associated sites ([`ASSOCIATED_RELATION`]), service sites
/// ([`SERVICE_RELATION`]), ccTLD variants ([`CCTLD_RELATION`], hint `of`); a site that is not an https
/// schemeful site is emitted as its origin (or as written) flagged `invalid`.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "related_website_set");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    let Some((object, alternates)) = read_object_into(&mut report, body, meta, &JSON_RULES) else {
        return report;
    };
    read(&object, meta, &mut report);
    for alternate in alternates {
        let Value::Object(object) = alternate else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "related_website_set");
        read(&object, meta, &mut scratch);
        merge_alternate(&mut report, scratch);
    }
    report
}

/// Walks one reading of the object.
struct Walk<'r> {
    report: &'r mut Report,
    /// Site -> pointer of its first listing (primary and subsets).
    seen: HashMap<String, String>,
    /// Misspelt members are read with their candidates flagged `invalid`.
    misspelt: bool,
}

fn read(object: &Map<String, Value>, meta: &FetchMeta, report: &mut Report) {
    let mut walk = Walk { report, seen: HashMap::new(), misspelt: false };
    let mut members: HashMap<&str, (&str, &Value)> = HashMap::new();
    for (key, value) in object {
        if MEMBERS.contains(&key.as_str()) {
            if let Some(m) = MEMBERS.iter().find(|m| **m == key) {
                members.insert(m, (key.as_str(), value));
            }
            continue;
        }
        let near = MEMBERS.iter().find(|m| m.eq_ignore_ascii_case(key)).copied();
        let msg = match near {
            Some(m) => format!(
                "`{key}` is not a member of the format (`{m}` is; Chrome ignores this one, read here for candidates, flagged invalid)"
            ),
            None => format!(
                "`{key}` is not a member of the format (primary, associatedSites, serviceSites, ccTLDs, rationaleBySite, contact)"
            ),
        };
        walk.report.warn(codes::UNKNOWN_MEMBER, msg, at(pointer("", key)));
        if let Some(m) = near
            && !object.contains_key(m)
        {
            members.insert(m, (key.as_str(), value));
        }
    }
    let primary = match members.get("primary") {
        Some((key, Value::String(s))) => {
            walk.misspelt = *key != "primary";
            walk.report.fact("primary", s.as_str());
            walk.site(s, &pointer("", key), PRIMARY_RELATION, None)
        }
        Some((key, _)) => {
            walk.report.error(codes::MISSING_PRIMARY, "`primary` is not a string", at(pointer("", key)));
            None
        }
        None => {
            walk.report.error(codes::MISSING_PRIMARY, "no `primary`: every set file names the set's primary", at(""));
            None
        }
    };
    let full = ["associatedSites", "serviceSites", "ccTLDs", "rationaleBySite"].iter().any(|m| members.contains_key(m));
    if !full {
        let kind = if members.contains_key("primary") { "related_website_set_member" } else { "invalid" };
        walk.report.kind = kind.to_string();
        return;
    }
    if let Some(primary) = &primary
        && let Some(served) = site_of(&meta.url)
        && &served != primary
    {
        walk.report.error(
            codes::NOT_SERVED_BY_PRIMARY,
            format!("the whole set is served by {served}, not by its primary {primary}: members serve {{\"primary\": ...}} only"),
            at("/primary"),
        );
    }
    let rationale = walk.rationales(members.get("rationaleBySite").copied());
    let mut counts = [0usize; 3];
    for (i, (name, relation)) in
        [("associatedSites", ASSOCIATED_RELATION), ("serviceSites", SERVICE_RELATION)].into_iter().enumerate()
    {
        if let Some((key, value)) = members.get(name).copied() {
            counts[i] = walk.subset(key, value, relation, rationale.as_ref());
        }
    }
    if counts[0] > MAX_ASSOCIATED_SITES {
        walk.report.error(
            codes::TOO_MANY_ASSOCIATED_SITES,
            format!("{} associated sites: the guidelines allow at most {MAX_ASSOCIATED_SITES}", counts[0]),
            at("/associatedSites"),
        );
    }
    if let Some((key, value)) = members.get("ccTLDs").copied() {
        counts[2] = walk.cctlds(key, value);
    }
    walk.report.fact("associated_sites", counts[0]);
    walk.report.fact("service_sites", counts[1]);
    walk.report.fact("cctld_variants", counts[2]);
}

impl Walk<'_> {
    /// Emits the candidate of one site at `p`; returns its normalised origin when it is valid.
    fn site(&mut self, text: &str, p: &str, relation: &str, of: Option<&str>) -> Option<String> {
        let parsed = Url::parse(text).ok();
        let origin = parsed.as_ref().and_then(|u| Origin::from_url(u).ok()).map(|o| o.ascii());
        let problem = match &parsed {
            None => Some("not a URL"),
            Some(u) if u.scheme() != "https" => Some("not https"),
            Some(u) if u.port().is_some() => Some("a site has no port"),
            Some(u) if u.path() != "/" || u.query().is_some() || u.fragment().is_some() => {
                Some("a site has no path, query or fragment")
            }
            Some(u) => match u.host_str() {
                Some(h) if registrable_domain(h).as_deref() == Some(h) && h.contains('.') => None,
                _ => Some("the host is not a registrable domain (eTLD+1)"),
            },
        };
        let value = origin.clone().unwrap_or_else(|| text.to_string());
        let mut c = Candidate::new(CandidateKind::Origin, relation, value.clone(), at(p));
        if let Some(of) = of {
            c = c.with_hint("of", of);
        }
        if let Some(why) = problem {
            self.report.error(
                codes::INVALID_SITE,
                format!("{text:?}: {why}; a set lists https schemeful sites"),
                at(p),
            );
            c = c.with_flag("invalid");
        } else if self.misspelt {
            c = c.with_flag("invalid");
        }
        if !value.is_empty() {
            self.report.candidate(c);
        }
        if of.is_none() {
            if let Some(first) = self.seen.get(&value) {
                self.report.error(
                    codes::DUPLICATE_SITE,
                    format!("{value} is already listed at {first}: a site belongs to one subset"),
                    at(p),
                );
            } else {
                self.seen.insert(value.clone(), p.to_string());
            }
        }
        problem.is_none().then_some(value)
    }

    /// `rationaleBySite`: site -> rationale; returns the normalised sites that have one.
    fn rationales(&mut self, member: Option<(&str, &Value)>) -> Option<Vec<String>> {
        let (key, value) = member?;
        let Some(map) = value.as_object() else {
            self.report.error(
                codes::INVALID_SUBSET,
                "`rationaleBySite` is not an object of site -> rationale",
                at(pointer("", key)),
            );
            return None;
        };
        Some(
            map.iter()
                .filter(|(_, v)| v.as_str().is_some_and(|s| !s.trim().is_empty()))
                .filter_map(|(site, _)| {
                    Url::parse(site).ok().and_then(|u| Origin::from_url(&u).ok()).map(|o| o.ascii())
                })
                .collect(),
        )
    }

    /// An array of sites; returns how many strings it holds.
    fn subset(&mut self, key: &str, value: &Value, relation: &str, rationale: Option<&Vec<String>>) -> usize {
        let kp = pointer("", key);
        self.misspelt = !MEMBERS.contains(&key);
        let Some(items) = value.as_array() else {
            self.report.error(codes::INVALID_SUBSET, format!("`{key}` is not an array of sites"), at(kp));
            return 0;
        };
        let mut count = 0;
        for (i, item) in items.iter().enumerate() {
            let p = pointer(&kp, &i.to_string());
            let Some(text) = item.as_str() else {
                self.report.error(codes::INVALID_SUBSET, format!("`{key}` holds a value that is not a string"), at(p));
                continue;
            };
            count += 1;
            let site = self.site(text, &p, relation, None);
            let origin = site.unwrap_or_else(|| text.to_string());
            if !rationale.is_some_and(|r| r.contains(&origin)) {
                self.report.warn(
                    codes::MISSING_RATIONALE,
                    format!("{text:?} has no entry in `rationaleBySite`"),
                    at(p),
                );
            }
        }
        count
    }

    /// `ccTLDs`: set site -> its ccTLD variants; returns how many variants it lists.
    fn cctlds(&mut self, key: &str, value: &Value) -> usize {
        let kp = pointer("", key);
        self.misspelt = !MEMBERS.contains(&key);
        let Some(map) = value.as_object() else {
            self.report.error(codes::INVALID_SUBSET, format!("`{key}` is not an object of site -> variants"), at(kp));
            return 0;
        };
        let mut count = 0;
        for (site, variants) in map {
            let sp = pointer(&kp, site);
            let Some(items) = variants.as_array() else {
                self.report.error(
                    codes::INVALID_SUBSET,
                    format!("the variants of {site:?} are not an array of sites"),
                    at(sp),
                );
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let p = pointer(&sp, &i.to_string());
                match item.as_str() {
                    Some(text) => {
                        count += 1;
                        self.site(text, &p, CCTLD_RELATION, Some(site));
                    }
                    None => self.report.error(codes::INVALID_SUBSET, "a ccTLD variant is not a string", at(p)),
                }
            }
        }
        count
    }
}

/// The https schemeful site of a URL (`https://<registrable domain>`).
fn site_of(url: &Url) -> Option<String> {
    let domain = registrable_domain(url.host_str()?)?;
    Some(format!("https://{domain}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn parse_at(host: &str, body: &str) -> Report {
        let url = Url::parse(&format!("https://{host}/.well-known/related-website-set.json")).unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
    }

    fn codes_at(ds: &[wellknown_core::Diagnostic]) -> Vec<(&str, Option<wellknown_core::Locator>)> {
        ds.iter().map(|d| (d.code.as_str(), d.locator.clone())).collect()
    }

    #[test]
    fn full_set_with_every_subset() {
        let r = parse_at(
            "primary.example",
            r#"{"primary": "https://primary.example", "associatedSites": ["https://assoc.example"],
                "serviceSites": ["https://service.example"], "ccTLDs": {"https://primary.example": ["https://primary.co.uk"]},
                "rationaleBySite": {"https://assoc.example": "brand", "https://service.example": "cdn"}, "contact": "rws@primary.example"}"#,
        );
        assert!(r.valid() && r.warnings.is_empty(), "{:?} {:?}", r.errors, r.warnings);
        let got: Vec<(String, String)> =
            r.candidates.iter().map(|c| (c.relation().to_string(), c.value().to_string())).collect();
        assert_eq!(
            got,
            [
                ("rws_primary".to_string(), "https://primary.example".to_string()),
                ("rws_associated_site".to_string(), "https://assoc.example".to_string()),
                ("rws_service_site".to_string(), "https://service.example".to_string()),
                ("rws_cctld_variant".to_string(), "https://primary.co.uk".to_string()),
            ]
        );
        let variant = r.candidates.iter().next_back().unwrap();
        assert_eq!(variant.hint("of"), Some("https://primary.example"));
        assert_eq!(variant.locator(), at("/ccTLDs/https:~1~1primary.example/0"));
        assert_eq!(r.kind, "related_website_set");
    }

    #[test]
    fn member_form_and_rule_breaks() {
        let r = parse_at("member.example", r#"{"primary": "https://primary.example"}"#);
        assert!(r.valid(), "{:?}", r.errors);
        assert_eq!(r.kind, "related_website_set_member");
        let r = parse_at(
            "other.example",
            r#"{"primary": "https://primary.example", "associatedSites": ["https://a.example", "https://www.b.example", "http://c.example", "https://a.example", "https://d.example:8443", "https://e.example"],
                "rationaleBySite": {"https://a.example": "x"}}"#,
        );
        assert_eq!(
            codes_at(&r.errors),
            [
                ("not_served_by_primary", at("/primary")),
                ("invalid_site", at("/associatedSites/1")),
                ("invalid_site", at("/associatedSites/2")),
                ("duplicate_site", at("/associatedSites/3")),
                ("invalid_site", at("/associatedSites/4")),
                ("too_many_associated_sites", at("/associatedSites")),
            ]
        );
        assert_eq!(r.warnings.iter().filter(|d| d.code == "missing_rationale").count(), 4);
    }

    #[test]
    fn misspelt_and_unknown_members() {
        let r = parse_at("p.example", r#"{"members": [], "owner": "p.example"}"#);
        assert_eq!(codes_at(&r.errors), [("missing_primary", at(""))]);
        assert_eq!(codes_at(&r.warnings), [("unknown_member", at("/members")), ("unknown_member", at("/owner"))]);
        let r = parse_at(
            "p.example",
            r#"{"primary": "https://p.example", "ccTLDS": {"https://p.example": ["https://p.example.de"]}}"#,
        );
        assert_eq!(codes_at(&r.warnings), [("unknown_member", at("/ccTLDS"))]);
        let variant = r.candidates.iter().next_back().unwrap();
        assert_eq!((variant.value(), variant.has_flag("invalid")), ("https://p.example.de", true));
    }
}
