//! The catalog parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! RFC 9264 section 4.2: `{"linkset": [ <link context object>, ... ]}`; a context object has an
//! optional `anchor` (the link context, a URI reference; without it the context is the catalog
//! itself) and one member per link relation type, each an array of target objects; a target object
//! has `href` and target attributes. RFC 9727: the catalog lists APIs with `item`, and describes
//! them with `service-desc`, `service-doc`, `service-meta` and `status`; `api-catalog` links to
//! other catalogs.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, merge_alternate, pointer};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Report};

use crate::codes;
use wellknown_core::json_document::{JsonRules, read_object_into};

/// Fetch cap (bytes after content decoding): a catalog of many APIs stays well under it.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// Relation of the `url` candidate of an anchor other than the catalog itself (the API the
/// context's links describe).
pub const ANCHOR_RELATION: &str = "api_catalog_anchor";

/// Relation of links whose type RFC 9727 does not name (hint `rel`).
pub const OTHER_LINK_RELATION: &str = "api_catalog_link";

/// A JSON object served as `application/linkset+json` (RFC 9727 section 4; another type is a
/// warning).
const JSON_RULES: JsonRules = JsonRules {
    accepts: |m| m.essence == "application/linkset+json",
    wrong_media_type: |raw, parsed| match (raw, parsed) {
        (_, Some(m)) => format!("served as {}, not application/linkset+json (RFC 9727 section 4)", m.essence),
        (Some(raw), None) => format!("Content-Type {raw:?} is not a media type"),
        (None, None) => "served without a Content-Type (RFC 9727 section 4: application/linkset+json)".to_string(),
    },
    wrong_media_type_severity: wellknown_core::Severity::Warning,
    ..JsonRules::JSON
};

/// The candidate relation for a link relation type RFC 9727 names (`item` -> `api_catalog_item`,
/// `service-desc` -> `api_catalog_service_desc`, ...), None for others.
pub fn relation_for(rel: &str) -> Option<&'static str> {
    Some(match rel {
        "item" => "api_catalog_item",
        "service-desc" => "api_catalog_service_desc",
        "service-doc" => "api_catalog_service_doc",
        "service-meta" => "api_catalog_service_meta",
        "status" => "api_catalog_status",
        "api-catalog" => "api_catalog",
        _ => return None,
    })
}

/// Interprets an API catalog fetched as described by `meta`.
///
/// Report kind `api_catalog` (`invalid` when the body is not a JSON object), facts `contexts`,
/// `links`, `items`. Candidates, located by JSON pointer (`/linkset/<i>/<rel>/<j>/href`), hint
/// `anchor` (the resolved link context):
/// * a `url` per target, relation from [`relation_for`] (`api_catalog_item`,
///   `api_catalog_service_desc`, `api_catalog_service_doc`, `api_catalog_service_meta`,
///   `api_catalog_status`, `api_catalog`), or [`OTHER_LINK_RELATION`] with hint `rel`;
/// * a `url` per anchor that is not the catalog's own URL, relation [`ANCHOR_RELATION`];
/// * a follow-up `("api-catalog", url, "api_catalog")` per `api-catalog` link (a nested catalog).
///
/// Relative references resolve against the anchor (RFC 8288 section 3.2), which resolves against
/// the catalog's URL.
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "api_catalog");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    let Some((object, alternates)) = read_object_into(&mut report, body, meta, &JSON_RULES) else {
        return report;
    };
    read(&object, &meta.url, &mut report);
    for alternate in alternates {
        let Value::Object(object) = alternate else { continue };
        let mut scratch = Report::new(crate::PROBE_ID, &meta.url, "api_catalog");
        read(&object, &meta.url, &mut scratch);
        merge_alternate(&mut report, scratch);
    }
    report
}

#[derive(Default)]
struct Counts {
    contexts: usize,
    links: usize,
    items: usize,
}

fn read(object: &Map<String, Value>, base: &Url, report: &mut Report) {
    for key in object.keys().filter(|k| k.as_str() != "linkset") {
        report.error(
            codes::UNKNOWN_MEMBER,
            format!("`{key}`: a linkset document has the one member `linkset` (RFC 9264 section 4.2.1)"),
            at(pointer("", key)),
        );
    }
    let Some(linkset) = object.get("linkset") else {
        report.error(
            codes::MISSING_LINKSET,
            "no `linkset` member: not a Linkset (RFC 9727 section 4, RFC 9264 section 4.2.1)",
            at(""),
        );
        report.kind = "invalid".to_string();
        return;
    };
    let Some(contexts) = linkset.as_array() else {
        report.error(codes::INVALID_LINKSET, "`linkset` is not an array of link context objects", at("/linkset"));
        return;
    };
    let mut counts = Counts::default();
    for (i, context) in contexts.iter().enumerate() {
        let p = pointer("/linkset", &i.to_string());
        match context.as_object() {
            Some(context) => {
                counts.contexts += 1;
                read_context(context, &p, base, report, &mut counts);
            }
            None => report.error(codes::INVALID_LINKSET, "a link context is not an object", at(p)),
        }
    }
    if counts.items == 0 {
        report.warn(
            codes::NO_ITEM_LINKS,
            "no `item` link: RFC 9727 section 4.1 names each API of a catalog with `item`",
            at("/linkset"),
        );
    }
    report.fact("contexts", counts.contexts);
    report.fact("links", counts.links);
    report.fact("items", counts.items);
}

fn read_context(context: &Map<String, Value>, p: &str, base: &Url, report: &mut Report, counts: &mut Counts) {
    let anchor = match context.get("anchor") {
        None => base.clone(),
        Some(Value::String(text)) => match base.join(text) {
            Ok(url) => {
                if url != *base {
                    report.candidate(Candidate::new(
                        CandidateKind::Url,
                        ANCHOR_RELATION,
                        url.as_str(),
                        at(pointer(p, "anchor")),
                    ));
                }
                url
            }
            Err(e) => {
                report.error(
                    codes::INVALID_ANCHOR,
                    format!("anchor {text:?} is not a URI reference: {e}"),
                    at(pointer(p, "anchor")),
                );
                base.clone()
            }
        },
        Some(_) => {
            report.error(codes::INVALID_ANCHOR, "anchor is not a string", at(pointer(p, "anchor")));
            base.clone()
        }
    };
    for (rel, targets) in context.iter().filter(|(k, _)| k.as_str() != "anchor") {
        let rp = pointer(p, rel);
        let Some(targets) = targets.as_array() else {
            report.error(
                codes::INVALID_LINKSET,
                format!("the value of relation `{rel}` is not an array of target objects"),
                at(rp),
            );
            continue;
        };
        for (j, target) in targets.iter().enumerate() {
            let tp = pointer(&rp, &j.to_string());
            let Some(target) = target.as_object() else {
                report.error(codes::INVALID_LINKSET, "a target is not an object", at(tp));
                continue;
            };
            counts.links += 1;
            if rel == "item" {
                counts.items += 1;
            }
            read_target(rel, target, &tp, &anchor, report);
        }
    }
}

fn read_target(rel: &str, target: &Map<String, Value>, p: &str, anchor: &Url, report: &mut Report) {
    for (name, value) in target.iter().filter(|(k, _)| k.as_str() != "href") {
        let ok = match name.as_str() {
            "type" | "title" | "media" => value.is_string(),
            "hreflang" => value.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
            "title*" => value.as_array().is_some_and(|a| a.iter().all(Value::is_object)),
            _ => value.is_array(),
        };
        if !ok {
            let want = match name.as_str() {
                "type" | "title" | "media" => "a string",
                "hreflang" => "an array of strings",
                "title*" => "an array of objects",
                _ => "an array (an extension target attribute)",
            };
            report.warn(
                codes::INVALID_TARGET_ATTRIBUTE,
                format!("target attribute `{name}` is not {want} (RFC 9264 section 4.2.4)"),
                at(pointer(p, name)),
            );
        }
    }
    let hp = pointer(p, "href");
    let Some(href) = target.get("href").and_then(Value::as_str) else {
        report.error(codes::MISSING_HREF, "a target object has no `href` string (RFC 9264 section 4.2.3)", at(p));
        return;
    };
    let url = match anchor.join(href) {
        Ok(url) => url,
        Err(e) => {
            report.error(codes::INVALID_HREF, format!("href {href:?} is not a URI reference: {e}"), at(hp));
            return;
        }
    };
    let mut c = match relation_for(rel) {
        Some(relation) => Candidate::new(CandidateKind::Url, relation, url.as_str(), at(hp.clone())),
        None => {
            Candidate::new(CandidateKind::Url, OTHER_LINK_RELATION, url.as_str(), at(hp.clone())).with_hint("rel", rel)
        }
    };
    c = c.with_hint("anchor", anchor.as_str());
    if let Some(t) = target.get("type").and_then(Value::as_str) {
        c = c.with_hint("type", t);
    }
    report.candidate(c);
    if rel == "api-catalog" && matches!(url.scheme(), "http" | "https") {
        report.follow_up(crate::PROBE_ID, url, "api_catalog");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn parse(body: &str) -> Report {
        let url = Url::parse("https://www.example.com/.well-known/api-catalog").unwrap();
        interpret(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/linkset+json"), Timestamp::UNIX_EPOCH))
    }

    fn codes_at(ds: &[wellknown_core::Diagnostic]) -> Vec<(&str, Option<wellknown_core::Locator>)> {
        ds.iter().map(|d| (d.code.as_str(), d.locator.clone())).collect()
    }

    #[test]
    fn rfc_9727_example_shape() {
        // The shape of RFC 9727's examples: the catalog anchors its own item links; relative hrefs.
        let r = parse(
            r#"{"linkset": [{"anchor": "https://www.example.com/.well-known/api-catalog",
                "item": [{"href": "https://developer.example.com/apis/foo_api"}, {"href": "/apis/bar_api"}]},
               {"anchor": "https://developer.example.com/apis/foo_api",
                "service-desc": [{"href": "https://developer.example.com/apis/foo_api/spec", "type": "application/yaml"}],
                "status": [{"href": "https://developer.example.com/apis/foo_api/status"}],
                "api-catalog": [{"href": "https://other.example.com/.well-known/api-catalog"}]}]}"#,
        );
        assert!(r.valid() && r.warnings.is_empty(), "{:?} {:?}", r.errors, r.warnings);
        let got: Vec<(String, String)> =
            r.candidates.iter().map(|c| (c.relation().to_string(), c.value().to_string())).collect();
        assert_eq!(
            got,
            [
                ("api_catalog_item".to_string(), "https://developer.example.com/apis/foo_api".to_string()),
                ("api_catalog_item".to_string(), "https://www.example.com/apis/bar_api".to_string()),
                ("api_catalog_anchor".to_string(), "https://developer.example.com/apis/foo_api".to_string()),
                ("api_catalog".to_string(), "https://other.example.com/.well-known/api-catalog".to_string()),
                ("api_catalog_service_desc".to_string(), "https://developer.example.com/apis/foo_api/spec".to_string()),
                ("api_catalog_status".to_string(), "https://developer.example.com/apis/foo_api/status".to_string()),
            ]
        );
        let desc = r.candidates.iter().find(|c| c.relation() == "api_catalog_service_desc").unwrap();
        assert_eq!(desc.locator(), at("/linkset/1/service-desc/0/href"));
        assert_eq!(desc.hint("type"), Some("application/yaml"));
        assert_eq!(r.follow_ups.len(), 1);
        assert_eq!((r.follow_ups[0].probe.as_str(), r.follow_ups[0].role.as_str()), ("api-catalog", "api_catalog"));
        assert_eq!(r.facts["items"], 2);
    }

    #[test]
    fn linkset_errors() {
        assert_eq!(
            codes_at(&parse(r#"{"apis": []}"#).errors),
            [("unknown_member", at("/apis")), ("missing_linkset", at(""))]
        );
        let r = parse(
            r#"{"linkset": [{"anchor": 5, "item": {"href": "x"}, "describedby": [{"title": 1}, 3, {"href": "http://[::1"}]}]}"#,
        );
        assert_eq!(
            codes_at(&r.errors),
            [
                ("invalid_anchor", at("/linkset/0/anchor")),
                ("missing_href", at("/linkset/0/describedby/0")),
                ("invalid_linkset", at("/linkset/0/describedby/1")),
                ("invalid_href", at("/linkset/0/describedby/2/href")),
                ("invalid_linkset", at("/linkset/0/item")),
            ]
        );
        assert_eq!(
            codes_at(&r.warnings),
            [("invalid_target_attribute", at("/linkset/0/describedby/0/title")), ("no_item_links", at("/linkset"))]
        );
    }
}
