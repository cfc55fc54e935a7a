//! The parsed form of a robots.txt: groups of user-agents with their rules, sitemaps, non-standard
//! records and diagnostics (RFC 9309 section 2.2).

use serde::Serialize;
use url::Url;
use wellknown_core::Diagnostic;

use crate::matcher::Index;

/// The parse limit: RFC 9309 section 2.5 requires crawlers to parse at least 500 KiB
/// (512,000 octets); lines that end beyond it are ignored and diagnosed `over_parse_limit`.
pub const PARSE_LIMIT: usize = 500 * 1024;

/// A rule's field: `allow` or `disallow` (RFC 9309 section 2.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Directive {
    /// `allow`: the path may be crawled.
    Allow,
    /// `disallow`: the path should not be crawled.
    Disallow,
}

impl Directive {
    /// `"allow"` or `"disallow"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Directive::Allow => "allow",
            Directive::Disallow => "disallow",
        }
    }
}

/// One `user-agent` line of a group (RFC 9309 section 2.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UserAgent {
    /// 1-based line number.
    pub line: u32,
    /// The value as written (comment removed, trimmed), e.g. `Googlebot`, `FooBot/1.0`, `*`; octets
    /// that are not valid UTF-8 are percent-encoded (`%E9`).
    pub value: String,
    /// The product token matched against crawlers: `*` for the global group, otherwise the leading
    /// run of `A-Z a-z 0-9 _ -` of the value (`FooBot/1.0` gives `FooBot`; may be empty, which
    /// matches no crawler). Compared case-insensitively.
    pub token: String,
}

impl UserAgent {
    /// True for the `*` line that every crawler without a group of its own obeys.
    pub fn is_global(&self) -> bool {
        self.token == "*"
    }
}

/// One `allow` / `disallow` rule (RFC 9309 section 2.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// 1-based line number.
    pub line: u32,
    /// Allow or disallow.
    pub directive: Directive,
    /// The path pattern as written (comment removed, trimmed); may be empty (`Disallow:`), which
    /// matches nothing. `*` is a wildcard and a final `$` anchors the end (section 2.2.3). Octets
    /// that are not valid UTF-8 are percent-encoded (`Disallow: /caf\xE9/` gives `/caf%E9/`), the
    /// form in which section 2.2.2 compares them, never replaced by U+FFFD.
    pub pattern: String,
}

/// A group as written: one or more consecutive `user-agent` lines and the rules that follow them
/// (RFC 9309 section 2.2). Groups naming the same product token are merged when matching; the list
/// here keeps the file's own structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    /// Line of the group's first `user-agent` line.
    pub line: u32,
    /// The `user-agent` lines, in order.
    pub agents: Vec<UserAgent>,
    /// The rules, in order.
    pub rules: Vec<Rule>,
}

impl Group {
    /// The agents' values as written, joined by `,` (e.g. `GPTBot,CCBot`), as used in candidate hints.
    pub fn agent_list(&self) -> String {
        let mut s = String::new();
        for (i, a) in self.agents.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&a.value);
        }
        s
    }
}

/// A `Sitemap:` line (RFC 9309 section 2.2.4 "other records"; sitemaps.org). Sitemaps belong to no
/// group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sitemap {
    /// 1-based line number.
    pub line: u32,
    /// The value as written; octets that are not valid UTF-8 are percent-encoded (`%E1`).
    pub value: String,
    /// The value parsed as an absolute http(s) URL; None when it is relative or invalid (diagnosed).
    pub url: Option<Url>,
}

/// A record RFC 9309 does not define but this crate recognises and records as declared:
/// `crawl-delay`, `host`, `clean-param`, `request-rate`, `visit-time`, `noindex`, `nofollow`,
/// `content-signal`, `content-usage`. See `docs/plugins/robots.md` for the interpretation of each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NonStandard {
    /// 1-based line number.
    pub line: u32,
    /// Canonical lower-case field name (`crawl-delay`).
    pub name: &'static str,
    /// The value as written (comment removed, trimmed); octets that are not valid UTF-8 are
    /// percent-encoded.
    pub value: String,
    /// Index into [`RobotsTxt::groups`] of the group being declared when the line was read (the
    /// group whose `user-agent` lines precede it); None before the first `user-agent` line.
    pub group: Option<usize>,
}

impl NonStandard {
    /// For `crawl-delay`, the value as a number of seconds when it is a finite non-negative decimal.
    pub fn seconds(&self) -> Option<f64> {
        if self.name != "crawl-delay" {
            return None;
        }
        self.value.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)
    }
}

/// A parsed robots.txt (RFC 9309), ready to answer [`RobotsTxt::check`].
///
/// Built by [`RobotsTxt::parse`], which never fails and never panics: whatever cannot be read is
/// reported in [`RobotsTxt::diagnostics`] and skipped.
#[derive(Debug, Clone)]
pub struct RobotsTxt {
    pub(crate) groups: Vec<Group>,
    pub(crate) orphan_rules: Vec<Rule>,
    pub(crate) sitemaps: Vec<Sitemap>,
    pub(crate) nonstandard: Vec<NonStandard>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) lines: u32,
    pub(crate) parsed_bytes: usize,
    pub(crate) total_bytes: usize,
    pub(crate) index: Index,
}

impl RobotsTxt {
    /// The groups as written, in file order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Rules that appear before any `user-agent` line: they belong to no group and are ignored by
    /// the matcher (diagnosed `rule_outside_group`).
    pub fn orphan_rules(&self) -> &[Rule] {
        &self.orphan_rules
    }

    /// `Sitemap:` lines, in file order.
    pub fn sitemaps(&self) -> &[Sitemap] {
        &self.sitemaps
    }

    /// Recognised non-standard records (`crawl-delay`, `host`, ...), in file order.
    pub fn nonstandard(&self) -> &[NonStandard] {
        &self.nonstandard
    }

    /// Errors and warnings, in the order found (at most 100 per code, then one summary line).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Number of lines read (within the parse limit).
    pub fn line_count(&self) -> u32 {
        self.lines
    }

    /// Octets read (within the parse limit), including a byte-order mark.
    pub fn parsed_bytes(&self) -> usize {
        self.parsed_bytes
    }

    /// Size of the whole body in octets.
    pub fn total_bytes(&self) -> usize {
        self.total_bytes
    }

    /// Total number of rules in all groups (orphan rules excluded).
    pub fn rule_count(&self) -> usize {
        self.groups.iter().map(|g| g.rules.len()).sum()
    }

    /// True when a diagnostic with `code` is present.
    pub fn has_code(&self, code: &str) -> bool {
        self.diagnostics.iter().any(|d| d.code == code)
    }
}
