//! One `Link` of a host-meta document, XRD or JRD (RFC 6415 section 3.1.1 and appendix A), turned into
//! candidates and diagnostics. Shared by the `host-meta` and `host-meta.json` probes.

use url::Url;
use wellknown_core::{Candidate, CandidateKind, Host, Locator, Report};

use crate::codes;

/// Relation of a `Link`'s `href` (`url` candidate, hint `rel`, `type` when declared).
pub const REL_LINK: &str = "link";
/// Relation of a `Link`'s `template` (`path` candidate: a URI template, RFC 6415 section 3.1.1.1,
/// recorded as a pattern and never fetched).
pub const REL_TEMPLATE: &str = "link_template";
/// Relation of the `host` candidate of a link target on another host than the document's.
pub const REL_HOST: &str = "link_host";

/// What a `Link` declares, as read (attribute or member values, unescaped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Link {
    /// `rel`: a registered relation type or an absolute URI.
    pub rel: Option<String>,
    /// `type`: the target's media type, a hint.
    pub media_type: Option<String>,
    /// `href`: a URI reference.
    pub href: Option<String>,
    /// `template`: a URI template.
    pub template: Option<String>,
}

/// Counts of what [`apply`] recorded, for the report's facts.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    /// Links read.
    pub links: usize,
    /// Links with an `href`.
    pub hrefs: usize,
    /// Links with a `template`.
    pub templates: usize,
}

/// Records `link` (found at `locator`) in `report`: a `url` candidate for its `href` resolved against
/// `base`, a `path` candidate for its `template` as written, a `host` candidate for a target on
/// another host than `base`'s, and the link diagnostics of [`crate::codes`].
pub fn apply(report: &mut Report, base: &Url, link: &Link, locator: &Locator, counts: &mut Counts) {
    counts.links += 1;
    let loc = Some(locator.clone());
    if link.rel.as_deref().is_none_or(|r| r.trim().is_empty()) {
        report.warn(codes::MISSING_REL, "a Link without rel: its meaning is unknown", loc.clone());
    }
    match (&link.href, &link.template) {
        (Some(_), Some(_)) => report.error(
            codes::HREF_AND_TEMPLATE,
            "a Link with both href and template (RFC 6415 section 3.1.1: template MUST NOT be used with href)",
            loc.clone(),
        ),
        (None, None) => report.warn(codes::LINK_WITHOUT_TARGET, "a Link with neither href nor template", loc.clone()),
        _ => {}
    }
    let hints = |mut c: Candidate| {
        if let Some(rel) = link.rel.as_deref().filter(|r| !r.is_empty()) {
            c = c.with_hint("rel", rel);
        }
        if let Some(t) = link.media_type.as_deref().filter(|t| !t.is_empty()) {
            c = c.with_hint("type", t);
        }
        c
    };
    if let Some(href) = &link.href {
        counts.hrefs += 1;
        match base.join(href.trim()) {
            Ok(url) => {
                report.candidate(hints(Candidate::new(CandidateKind::Url, REL_LINK, url.as_str(), loc.clone())));
                host_candidate(report, base, &url, locator);
            }
            Err(e) => {
                report.error(codes::INVALID_HREF, format!("href {href:?} is not a URI reference: {e}"), loc.clone());
            }
        }
    }
    if let Some(template) = &link.template {
        counts.templates += 1;
        report.candidate(hints(Candidate::new(CandidateKind::Path, REL_TEMPLATE, template.trim(), loc.clone())));
        let vars = variables(template);
        if vars.is_empty() {
            report.warn(
                codes::TEMPLATE_WITHOUT_VARIABLE,
                "a template without a {uri} variable (RFC 6415 section 3.1.1.1)",
                loc.clone(),
            );
        } else if let Some(other) = vars.iter().find(|v| **v != "uri") {
            report.warn(
                codes::TEMPLATE_VARIABLE,
                format!("template variable {{{other}}}: RFC 6415 section 3.1.1.1 defines only {{uri}}"),
                loc.clone(),
            );
        }
        if let Some(url) = template_url(base, template) {
            host_candidate(report, base, &url, locator);
        }
    }
}

/// The `{name}` variables of a template, in order (at most 16).
fn variables(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = rest.get(open + 1..).unwrap_or_default();
        let Some(close) = after.find('}') else { break };
        out.push(after.get(..close).unwrap_or_default());
        rest = after.get(close + 1..).unwrap_or_default();
        if out.len() >= 16 {
            break;
        }
    }
    out
}

/// The template with each variable replaced by `x`, resolved against `base`, when its authority holds
/// no variable (so its host is known).
fn template_url(base: &Url, template: &str) -> Option<Url> {
    let mut filled = String::with_capacity(template.len());
    let mut in_var = false;
    for ch in template.trim().chars() {
        match ch {
            '{' => in_var = true,
            '}' if in_var => {
                in_var = false;
                filled.push('x');
            }
            _ if in_var => {}
            _ => filled.push(ch),
        }
    }
    let url = base.join(&filled).ok()?;
    // A variable inside the authority makes the host unknown.
    let authority_end = template
        .find("://")
        .map(|i| i + 3)
        .and_then(|start| template.get(start..).map(|rest| start + rest.find(['/', '?', '#']).unwrap_or(rest.len())));
    if let Some(end) = authority_end
        && template.get(..end).is_some_and(|a| a.contains('{'))
    {
        return None;
    }
    Some(url)
}

/// A `host` candidate when `url` is on another host than `base`.
fn host_candidate(report: &mut Report, base: &Url, url: &Url, locator: &Locator) {
    let Some(h) = url.host() else { return };
    let host = Host::from(h);
    if base.host().map(Host::from).as_ref() != Some(&host) {
        report.candidate(Candidate::new(CandidateKind::Host, REL_HOST, host.name(), Some(locator.clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_host_and_variables() {
        let base = Url::parse("https://a.example/.well-known/host-meta").unwrap();
        assert_eq!(variables("https://b.example/w?resource={uri}&x={y}"), ["uri", "y"]);
        assert!(variables("https://b.example/{unclosed").is_empty());
        let u = template_url(&base, "https://b.example/w?resource={uri}").unwrap();
        assert_eq!(u.host_str(), Some("b.example"));
        assert!(template_url(&base, "https://{host}/w").is_none());
        assert_eq!(template_url(&base, "/webfinger?q={uri}").unwrap().host_str(), Some("a.example"));
    }
}
