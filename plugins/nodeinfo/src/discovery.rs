//! The discovery document `/.well-known/nodeinfo`: `interpret(body, meta) -> Report`. Pure.
//!
//! A JRD whose `links` name NodeInfo documents by schema version (NodeInfo protocol, "Discovery"):
//! `{"links": [{"rel": "http://nodeinfo.diaspora.software/ns/schema/2.1", "href": "https://host/nodeinfo/2.1"}]}`.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, merge_alternate, pointer, type_name};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Host, Locator, Report};

use crate::codes;
use crate::json_doc::open;

/// The schema URI prefix of a NodeInfo link's `rel`.
pub const SCHEMA_PREFIX: &str = "http://nodeinfo.diaspora.software/ns/schema/";

/// The schema versions this probe knows, oldest first.
pub const VERSIONS: [&str; 5] = ["1.0", "1.1", "2.0", "2.1", "2.2"];

/// Relation of a NodeInfo document URL (`url` candidate, hint `schema`).
pub const REL_NODEINFO: &str = "nodeinfo";

/// Role of the follow-up to the NodeInfo document.
pub const FOLLOW_UP_ROLE: &str = "nodeinfo";

/// Interprets a `/.well-known/nodeinfo` discovery document fetched as described by `meta`.
///
/// Returns a report of kind `nodeinfo_discovery` (`invalid` when not a JSON object) with, per link
/// (locator `/links/<i>`, or `/links` for a single link object): a `url` candidate (relation
/// `nodeinfo`, hint `schema` = the version, or `rel` for another relation) and a `host` candidate
/// (`nodeinfo_host`) when on another host; and one follow-up, role `nodeinfo`, to the probe
/// `nodeinfo-document` for the link of the highest known schema version (the protocol: a client
/// follows the highest version it supports). Facts: `schemas` (the versions linked, in document order).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "nodeinfo_discovery");
    let Some((obj, alternates)) = open(&mut report, body, meta) else { return report };
    let best = read(&mut report, meta, &obj);
    for alternate in alternates {
        let Some(o) = alternate.as_object() else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "nodeinfo_discovery");
        let _ = read(&mut scratch, meta, o);
        merge_alternate(&mut report, scratch);
    }
    if let Some((_, url)) = best {
        report.follow_up(crate::DOCUMENT_PROBE_ID, url, FOLLOW_UP_ROLE);
    }
    report
}

/// Reads the links; the best (highest version) NodeInfo document URL.
fn read(report: &mut Report, meta: &FetchMeta, obj: &Map<String, Value>) -> Option<(usize, Url)> {
    let links: Vec<(String, &Value)> = match obj.get("links") {
        Some(Value::Array(items)) => {
            items.iter().enumerate().map(|(i, v)| (pointer("/links", &i.to_string()), v)).collect()
        }
        Some(single @ Value::Object(_)) => {
            report.error(
                codes::INVALID_LINKS,
                "links is a single object, not an array of link objects (read as one link)",
                at("/links"),
            );
            vec![("/links".to_string(), single)]
        }
        Some(other) => {
            report.error(
                codes::INVALID_LINKS,
                format!("links must be an array, found {}", type_name(other)),
                at("/links"),
            );
            Vec::new()
        }
        None => {
            report.error(codes::INVALID_LINKS, "no links member", at(""));
            Vec::new()
        }
    };
    let mut best: Option<(usize, Url)> = None;
    let mut schemas = Vec::new();
    for (p, link) in links {
        let Some(lo) = link.as_object() else {
            report.error(codes::INVALID_LINKS, format!("a link must be an object, found {}", type_name(link)), at(&p));
            continue;
        };
        let rel = lo.get("rel").and_then(Value::as_str).unwrap_or_default();
        let version = schema_version(rel);
        if version.is_none() {
            report.warn(
                codes::UNKNOWN_SCHEMA,
                format!("rel {rel:?} is not a NodeInfo schema URI ({SCHEMA_PREFIX}<version>)"),
                at(pointer(&p, "rel")),
            );
        }
        let Some(href) = lo.get("href").and_then(Value::as_str) else {
            report.error(codes::MISSING_HREF, "a link without an href string", at(&p));
            continue;
        };
        let loc = Some(Locator::JsonPointer(p.clone()));
        let url = match meta.url.join(href.trim()) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => u,
            Ok(u) => {
                report.error(
                    codes::INVALID_HREF,
                    format!("href {href:?} is not an http(s) URL"),
                    at(pointer(&p, "href")),
                );
                report
                    .candidate(Candidate::new(CandidateKind::Url, REL_NODEINFO, u.as_str(), loc).with_flag("invalid"));
                continue;
            }
            Err(e) => {
                report.error(codes::INVALID_HREF, format!("href {href:?}: {e}"), at(pointer(&p, "href")));
                continue;
            }
        };
        let c = Candidate::new(CandidateKind::Url, REL_NODEINFO, url.as_str(), loc.clone());
        report.candidate(match version {
            Some(v) => c.with_hint("schema", VERSIONS.get(v).copied().unwrap_or_default()),
            None => c.with_hint("rel", rel),
        });
        if let Some(h) = url.host().map(Host::from)
            && meta.url.host().map(Host::from).as_ref() != Some(&h)
        {
            report.candidate(Candidate::new(CandidateKind::Host, "nodeinfo_host", h.name(), loc));
        }
        if let Some(v) = version {
            schemas.push(VERSIONS.get(v).copied().unwrap_or_default());
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, url));
            }
        }
    }
    if best.is_none() {
        report.error(codes::NO_SCHEMA_LINK, "no link names a NodeInfo schema", at("/links"));
    }
    report.fact("schemas", schemas);
    best
}

/// The index in [`VERSIONS`] of a schema `rel` (`https:` and a trailing `#` are tolerated).
fn schema_version(rel: &str) -> Option<usize> {
    let rest = rel
        .trim()
        .strip_prefix(SCHEMA_PREFIX)
        .or_else(|| rel.trim().strip_prefix("https://nodeinfo.diaspora.software/ns/schema/"))?;
    let rest = rest.trim_end_matches('#');
    VERSIONS.iter().position(|v| *v == rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_versions() {
        assert_eq!(schema_version("http://nodeinfo.diaspora.software/ns/schema/2.1"), Some(3));
        assert_eq!(schema_version("https://nodeinfo.diaspora.software/ns/schema/2.0#"), Some(2));
        assert_eq!(schema_version("http://nodeinfo.diaspora.software/ns/schema/3.0"), None);
        assert_eq!(schema_version("self"), None);
    }
}
