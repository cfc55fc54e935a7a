//! The `robots` probe: fetches `<origin>/robots.txt`, applies RFC 9309's fetch semantics
//! (section 2.3.1) and turns what the file declares into candidates.
//!
//! A listed path is a name to verify, not proof of anything: a `Disallow: /admin/` says the site asks
//! crawlers to stay out of `/admin/`, not that `/admin/` exists, is sensitive, or is protected.

use std::collections::HashSet;

use async_trait::async_trait;
use serde_json::{Value, json};
use url::Url;
use wellknown_core::media::MediaType;
use wellknown_core::origin::is_robots_location;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{
    CandidateKind, Document, FailureClass, FetchMeta, FetchPolicy, FetchRequest, Locator, Origin, OriginOrder,
    ProbeContext, Report, Target, WellKnownProbe,
};

use crate::codes;
use crate::model::{Directive, Group, RobotsTxt, Rule};
use crate::parser::host_directive;
use crate::pattern::{Side, normalize, split_anchor};

/// Body cap for robots.txt fetches: 1 MiB, above the 500 KiB parse limit so that a larger file is
/// still read up to the limit and diagnosed `over_parse_limit` rather than cut silently.
pub const MAX_BODY_BYTES: u64 = 1024 * 1024;

/// The `crawl_policy` fact of a file requested elsewhere than its origin's `/robots.txt`
/// (`wrong_location`): it governs nothing (RFC 9309 section 2.3).
pub const NO_POLICY: &str = "none";

/// Redirects followed when fetching robots.txt (RFC 9309 section 2.3.1.2: at least five).
pub const MAX_REDIRECTS: u8 = 5;

/// What a fetch outcome means for crawling (RFC 9309 section 2.3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Availability {
    /// 2xx: the file was read; its rules apply (section 2.3.1.1).
    Available,
    /// 4xx other than 429, or redirects that lead nowhere (more than five, a loop, an unusable
    /// `Location`): a crawler may access any resource (sections 2.3.1.2 and 2.3.1.3).
    Unavailable,
    /// 5xx, 429, or the server could not be reached (DNS, connect, TLS, timeout, broken response):
    /// a crawler must assume complete disallow (section 2.3.1.4).
    Unreachable,
}

impl Availability {
    /// `available`, `unavailable` or `unreachable` (the `availability` fact).
    pub fn as_str(self) -> &'static str {
        match self {
            Availability::Available => "available",
            Availability::Unavailable => "unavailable",
            Availability::Unreachable => "unreachable",
        }
    }

    /// What it means for crawling: `rules`, `allow_all` or `disallow_all` (the `crawl_policy` fact).
    pub fn crawl_policy(self) -> &'static str {
        match self {
            Availability::Available => "rules",
            Availability::Unavailable => "allow_all",
            Availability::Unreachable => "disallow_all",
        }
    }
}

/// Classifies a fetch of robots.txt (RFC 9309 section 2.3.1). None when the scanner itself refused
/// the request (private address, out of scope, unsupported URL): nothing is known about the file.
///
/// 429 is classed as unreachable, not unavailable: it says "slow down", not "there is no file"
/// (Google treats it the same way).
pub fn availability(meta: &FetchMeta) -> Option<Availability> {
    if let Some(f) = meta.failure.as_ref().filter(|f| !(f.class == FailureClass::BodyTooLarge && meta.status.is_some()))
    {
        return match f.class {
            FailureClass::TooManyRedirects | FailureClass::RedirectLoop | FailureClass::InvalidRedirect => {
                Some(Availability::Unavailable)
            }
            FailureClass::PrivateAddress | FailureClass::OutOfScope | FailureClass::UnsupportedUrl => None,
            _ => Some(Availability::Unreachable),
        };
    }
    let status = meta.status?;
    Some(match status {
        200..=299 => Availability::Available,
        429 => Availability::Unreachable,
        300..=499 => Availability::Unavailable,
        _ => Availability::Unreachable,
    })
}

/// The robots.txt probe (id `robots`, no well-known suffix, RFC 9309).
#[derive(Debug, Clone, Copy, Default)]
pub struct RobotsProbe;

/// The normalised form of a rule's pattern (percent-encoding normalised as in RFC 9309 section
/// 2.2.2, a final `$` kept): the `value` of `path` candidates.
pub fn normalize_pattern(pattern: &str) -> String {
    let (body, anchored) = split_anchor(pattern.as_bytes());
    let mut s = normalize(body, Side::Pattern).into_owned();
    if anchored {
        s.push('$');
    }
    s
}

/// A candidate of a robots.txt report before it is written (see [`interpret_body`]).
enum Pending<'r> {
    /// A `Sitemap:` URL, and whether it is on another origin.
    Sitemap { url: &'r str, cross: bool },
    /// A `Host:` name.
    Host(String),
    /// A rule's path pattern or the URL it names, with the index of its group (`None`: a rule before
    /// any `user-agent` line).
    Rule { kind: CandidateKind, rel: &'static str, value: String, group: Option<usize> },
}

fn relation(d: Directive) -> &'static str {
    match d {
        Directive::Allow => "robots_allow",
        Directive::Disallow => "robots_disallow",
    }
}

/// Builds the report of a robots.txt read with a 2xx (what [`RobotsProbe::interpret`] returns).
fn interpret_body(body: &[u8], meta: &FetchMeta) -> Report {
    let robots = RobotsTxt::parse(body);
    let mut report = Report::new("robots", &meta.url, "robots");
    report.fact("availability", Availability::Available.as_str());
    // The request is what counts: RFC 9309 lets the file itself be reached through redirects. The
    // path is compared once normalised (RFC 3986 6.2.2.2: `%72obots.txt` is `robots.txt`).
    if is_robots_location(&meta.requested_url) {
        report.fact("crawl_policy", Availability::Available.crawl_policy());
    } else {
        report.fact("crawl_policy", NO_POLICY);
        report.warn(
            codes::WRONG_LOCATION,
            format!(
                "requested at {}; the rules of an origin are only those served at its /robots.txt (RFC 9309 2.3), so \
                 this file governs nothing",
                meta.requested_url
            ),
            None,
        );
    }

    if let Some(ct) = meta.content_type.as_deref() {
        match MediaType::parse(ct) {
            Some(m) if m.essence == "text/plain" => {
                if let Some(cs) = m.charset.as_deref().filter(|c| !matches!(*c, "utf-8" | "utf8" | "us-ascii")) {
                    report.warn(codes::INVALID_CHARSET, format!("charset `{cs}`; RFC 9309 2.3 requires UTF-8"), None);
                }
            }
            _ => report.warn(
                codes::INVALID_CONTENT_TYPE,
                format!("served as `{ct}`; RFC 9309 2.3 requires text/plain (crawlers read it anyway)"),
                None,
            ),
        }
    }
    if meta.truncated || meta.failure.as_ref().is_some_and(|f| f.class == FailureClass::BodyTooLarge) {
        report.warn(
            codes::TOO_LARGE,
            format!("the body was cut at {MAX_BODY_BYTES} octets; only the first 500 KiB are parsed anyway"),
            None,
        );
    }
    for d in robots.diagnostics() {
        report.push(d.clone());
    }

    report.fact("groups", robots.groups().len());
    report.fact("rules", robots.rule_count());
    report.fact("sitemaps", robots.sitemaps().len());

    let group_name = |g: Option<usize>| -> Value {
        g.and_then(|g| robots.groups().get(g)).map_or(Value::Null, |g| Value::String(g.agent_list()))
    };
    let delays: Vec<Value> = robots
        .nonstandard()
        .iter()
        .filter(|n| n.name == "crawl-delay")
        .map(|n| json!({"line": n.line, "value": n.value, "seconds": n.seconds(), "group": group_name(n.group)}))
        .collect();
    if !delays.is_empty() {
        report.fact("crawl_delay", delays);
    }
    let others: Vec<Value> = robots
        .nonstandard()
        .iter()
        .filter(|n| n.name != "crawl-delay")
        .map(|n| json!({"line": n.line, "name": n.name, "value": n.value, "group": group_name(n.group)}))
        .collect();
    if !others.is_empty() {
        report.fact("nonstandard", others);
    }

    // The origin the file governs: the one it was requested for (redirects do not change it).
    let origin = Origin::from_url(&meta.requested_url).or_else(|_| Origin::from_url(&meta.url)).ok();
    // What each candidate will be, in a small record sorted by (line, order) and then written into
    // the report's packed list through its builder: no owned `Candidate` (with its hint map) per
    // rule, which for a file of 38,000 rules held about 40 MiB at once.
    let mut pending: Vec<(u32, u8, Pending<'_>)> = Vec::new();

    let mut seen_sitemaps = HashSet::new();
    for s in robots.sitemaps() {
        let Some(url) = &s.url else { continue };
        if !seen_sitemaps.insert(url.as_str()) {
            continue;
        }
        let cross = origin.as_ref().is_some_and(|o| !o.contains(url));
        pending.push((s.line, 0, Pending::Sitemap { url: url.as_str(), cross }));
        report.follow_up("sitemap", url.clone(), "robots_sitemap");
    }

    let mut seen_hosts = HashSet::new();
    for n in robots.nonstandard().iter().filter(|n| n.name == "host") {
        if let Some(o) = host_directive(&n.value) {
            let host = o.host().name();
            if seen_hosts.insert(host.clone()) {
                pending.push((n.line, 0, Pending::Host(host)));
            }
        }
    }

    // First valid crawl-delay of each group, as a hint on the group's candidates.
    let mut group_delay: Vec<Option<&str>> = vec![None; robots.groups().len()];
    for n in robots.nonstandard() {
        if let (Some(g), Some(_)) = (n.group, n.seconds())
            && let Some(slot @ None) = group_delay.get_mut(g)
        {
            *slot = Some(n.value.as_str());
        }
    }
    let agent_lists: Vec<String> = robots.groups().iter().map(Group::agent_list).collect();

    let mut seen_urls = HashSet::new();
    let mut rule_candidates = |group: Option<usize>, rule: &Rule, pending: &mut Vec<(u32, u8, Pending<'_>)>| {
        if rule.pattern.is_empty() {
            return;
        }
        let rel = relation(rule.directive);
        let value = normalize_pattern(&rule.pattern);
        let path = value.strip_suffix('$').unwrap_or(&value);
        let url = (!path.contains('*') && path.starts_with('/') && !path.starts_with("//"))
            .then(|| origin.as_ref().and_then(|o| o.root().join(path).ok().filter(|u| o.contains(u))))
            .flatten()
            .map(String::from)
            .filter(|u| seen_urls.insert((rel, u.clone())));
        pending.push((rule.line, 1, Pending::Rule { kind: CandidateKind::Path, rel, value, group }));
        if let Some(url) = url {
            pending.push((rule.line, 2, Pending::Rule { kind: CandidateKind::Url, rel, value: url, group }));
        }
    };
    for (gi, g) in robots.groups().iter().enumerate() {
        for rule in &g.rules {
            rule_candidates(Some(gi), rule, &mut pending);
        }
    }
    for rule in robots.orphan_rules() {
        rule_candidates(None, rule, &mut pending);
    }

    pending.sort_by_key(|(line, order, _)| (*line, *order));
    for (line, _, p) in &pending {
        let loc = Locator::Line(*line);
        match p {
            Pending::Sitemap { url, cross } => {
                let mut c = report.candidates.start(CandidateKind::Sitemap, "robots_sitemap", url);
                c.locator(Some(&loc));
                if *cross {
                    c.flag("cross_origin");
                }
            }
            Pending::Host(host) => {
                report.candidates.start(CandidateKind::Host, "robots_host", host).locator(Some(&loc));
            }
            Pending::Rule { kind, rel, value, group } => {
                let mut c = report.candidates.start(*kind, rel, value);
                c.locator(Some(&loc));
                match group {
                    Some(g) => {
                        c.hint("group", agent_lists.get(*g).map_or("", String::as_str));
                        if let Some(d) = group_delay.get(*g).copied().flatten() {
                            c.hint("crawl_delay", d);
                        }
                    }
                    None => {
                        c.flag("outside_group");
                    }
                }
            }
        }
    }
    report
}

impl RobotsProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: "robots",
        suffix: None,
        summary: "robots.txt: crawl rules per user-agent, sitemaps and non-standard records",
        spec: "RFC 9309",
        page: "robots",
        codes: crate::codes::ALL,
    };
}

#[async_trait]
impl WellKnownProbe for RobotsProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    /// First: its `Sitemap:` lines declare the sitemaps (RFC 9309 section 2.2.4), and
    /// `--obey-robots` needs its rules before any other request.
    fn origin_order(&self) -> OriginOrder {
        OriginOrder::First
    }

    /// Redirects followed up to [`MAX_REDIRECTS`] (RFC 9309 section 2.3.1.2), body capped at
    /// [`MAX_BODY_BYTES`], `Accept: text/plain`, content coding decoded.
    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            follow_redirects: true,
            max_redirects: MAX_REDIRECTS,
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("text/plain".to_string()),
            decode_content_encoding: true,
        }
    }

    /// `<origin>/robots.txt` (RFC 9309 section 2.3); for a URL target, the robots.txt of its origin.
    fn locations(&self, target: &Target) -> Vec<Url> {
        target.origin_of().map(|o| vec![o.robots_url()]).unwrap_or_default()
    }

    /// Interprets a 2xx body: report kind `robots`, facts `availability: "available"`,
    /// `crawl_policy: "rules"` (`"none"` with a `wrong_location` warning when the file was requested
    /// elsewhere than its origin's `/robots.txt`: it governs nothing), `groups`, `rules`, `sitemaps`, `crawl_delay` and `nonstandard` (when
    /// present), every diagnostic of [`RobotsTxt::parse`] plus `invalid_content_type`,
    /// `invalid_charset` and `too_large`, and the candidates:
    ///
    /// * `sitemap` / `robots_sitemap`: each absolute http(s) `Sitemap:` URL, any host (flag
    ///   `cross_origin` when not on the file's origin), once each, plus a follow-up for the `sitemap`
    ///   probe;
    /// * `host` / `robots_host`: the host named by a `Host:` record;
    /// * `path` / `robots_allow` or `robots_disallow`: every non-empty rule pattern, normalised, with
    ///   hints `group` (the group's agents joined by `,`) and `crawl_delay` (when the group declares
    ///   one); rules outside any group are flagged `outside_group`;
    /// * `url` / `robots_allow` or `robots_disallow`: for each pattern without `*`, the absolute URL
    ///   on the file's origin (final `$` dropped), once per relation and URL (first locator kept).
    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        interpret_body(body, meta)
    }

    /// 4xx → `availability: "unavailable"`, `crawl_policy: "allow_all"` (RFC 9309 2.3.1.3);
    /// 5xx, 429 or unreachable server → `availability: "unreachable"`, `crawl_policy: "disallow_all"`
    /// (2.3.1.4); too many redirects → unavailable (2.3.1.2). A warning `unavailable` or
    /// `unreachable` says which applied. None when the scanner refused the request itself.
    fn interpret_unavailable(&self, meta: &FetchMeta) -> Option<Report> {
        let avail = availability(meta)?;
        let mut report = Report::new("robots", &meta.url, "robots");
        report.fact("availability", avail.as_str());
        report.fact("crawl_policy", avail.crawl_policy());
        if let Some(s) = meta.status {
            report.fact("status", s);
        }
        if let Some(f) = &meta.failure {
            report.fact("failure", f.class.as_str());
        }
        let what = match (&meta.failure, meta.status) {
            (Some(f), _) => format!("{} ({})", f.class.as_str(), f.message),
            (None, Some(s)) => format!("HTTP {s}"),
            (None, None) => "no response".to_string(),
        };
        match avail {
            Availability::Unavailable => report.warn(
                codes::UNAVAILABLE,
                format!("robots.txt unavailable: {what}; RFC 9309 2.3.1.3: a crawler may access any resource"),
                None,
            ),
            Availability::Unreachable => report.warn(
                codes::UNREACHABLE,
                format!("robots.txt unreachable: {what}; RFC 9309 2.3.1.4: a crawler must assume complete disallow"),
                None,
            ),
            Availability::Available => return Some(interpret_body(&[], meta)),
        }
        Some(report)
    }

    /// Fetches `<origin>/robots.txt` once. Unlike the default, a 2xx body cut at the size cap is
    /// still interpreted (the first 500 KiB are all RFC 9309 asks a crawler to read).
    async fn run(&self, target: &Target, cx: &dyn ProbeContext) -> Vec<Document> {
        let mut docs = Vec::new();
        for url in self.locations(target) {
            let result = cx.fetch(FetchRequest::get(url, self.policy())).await;
            let mut meta = result.meta;
            meta.declared_by = target.declared_by().to_vec();
            let report = if availability(&meta) == Some(Availability::Available) {
                Some(self.interpret(&result.body, &meta))
            } else {
                self.interpret_unavailable(&meta)
            };
            docs.push(Document { probe: self.id().to_string(), role: target.role().to_string(), meta, report });
        }
        docs
    }
}
