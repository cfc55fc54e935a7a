//! The matcher: which group a crawler obeys (RFC 9309 section 2.2.1) and which rule decides a path
//! (section 2.2.2).
//!
//! At parse time every product token is mapped to the groups that name it (and `*` to the global
//! groups), and each group's rules are sorted by priority, i.e. pattern length in octets after
//! normalisation (wildcards and `$` included), with `allow` first on ties and then file order. A check
//! scans each of the crawler's groups and stops at the first rule that matches (or that can no longer
//! beat the best match so far): the best of those is the most specific rule of the merged groups, and
//! a tie goes to allow.

use std::borrow::Cow;
use std::cmp::{Ordering, Reverse};

use serde::Serialize;

use crate::model::{Directive, Group, RobotsTxt};
use crate::pattern::{Compiled, Side, normalize, path_head};

/// A rule in matchable form (internal).
#[derive(Debug, Clone)]
pub(crate) struct CompiledRule {
    /// The normalised pattern in matchable form.
    pub pat: Compiled,
    /// Octets of the normalised pattern including `*` and `$`: the match's specificity.
    pub prio: u32,
    /// Allow (true) or disallow.
    pub allow: bool,
    /// 1-based line.
    pub line: u32,
    /// Index of the group in `RobotsTxt::groups`.
    pub group: u32,
    /// Index of the rule in the group.
    pub rule: u32,
}

/// The matching index, built once at parse time (internal).
///
/// Rules are compiled in group order, so each group's rules are a contiguous range of `rules`; each
/// range is sorted most specific first (priority descending, allow first, then line). Memory is
/// linear in the number of rules and `user-agent` lines, whatever the file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    rules: Vec<CompiledRule>,
    /// Every normalised pattern, concatenated (one allocation).
    arena: String,
    /// Per group: the range of `rules` holding its rules.
    ranges: Vec<(usize, usize)>,
    /// Lower-case product token -> range of `agent_groups` listing the groups that name it; sorted by
    /// token.
    agents: Vec<(Box<[u8]>, usize, usize)>,
    /// Group indices, ascending within each token's range.
    agent_groups: Vec<u32>,
    /// Groups naming `*`, ascending.
    global: Vec<u32>,
}

/// True when `r` beats `best` (more octets; on a tie allow; then the earlier line).
#[inline]
fn outranks(r: &CompiledRule, best: &CompiledRule) -> bool {
    (r.prio, r.allow, Reverse(r.line)) > (best.prio, best.allow, Reverse(best.line))
}

/// Compares a lower-case token with `b` folded to lower case, byte by byte.
fn cmp_folded(lower: &[u8], b: &[u8]) -> Ordering {
    lower.iter().copied().cmp(b.iter().map(u8::to_ascii_lowercase))
}

impl Index {
    pub(crate) fn build(groups: &[Group], mut rules: Vec<CompiledRule>, arena: String) -> Index {
        let mut ranges = vec![(0usize, 0usize); groups.len()];
        let mut start = 0;
        while let Some(first) = rules.get(start) {
            let g = first.group;
            let end = rules.iter().skip(start).position(|r| r.group != g).map_or(rules.len(), |n| start + n);
            if let Some(slice) = rules.get_mut(start..end) {
                slice.sort_by_key(|r| (Reverse(r.prio), !r.allow, r.line));
            }
            if let Some(slot) = ranges.get_mut(g as usize) {
                *slot = (start, end);
            }
            start = end;
        }

        let mut pairs: Vec<(Vec<u8>, u32)> = Vec::new();
        let mut global: Vec<u32> = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            let gi = u32::try_from(gi).unwrap_or(u32::MAX);
            for a in &g.agents {
                if a.is_global() {
                    if global.last() != Some(&gi) {
                        global.push(gi);
                    }
                } else if !a.token.is_empty() {
                    pairs.push((a.token.to_ascii_lowercase().into_bytes(), gi));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();

        let mut agents: Vec<(Box<[u8]>, usize, usize)> = Vec::new();
        let mut agent_groups = Vec::with_capacity(pairs.len());
        for (token, g) in pairs {
            match agents.last_mut() {
                Some((t, _, end)) if **t == *token => *end += 1,
                _ => {
                    let at = agent_groups.len();
                    agents.push((token.into_boxed_slice(), at, at + 1));
                }
            }
            agent_groups.push(g);
        }
        Index { rules, arena, ranges, agents, agent_groups, global }
    }

    /// The groups a crawler with product token `token` obeys: every group naming it, else every `*`
    /// group; None when no group applies (everything allowed).
    fn resolve(&self, token: &[u8]) -> Option<&[u32]> {
        let specific = if token.is_empty() {
            None
        } else {
            self.agents.binary_search_by(|(t, _, _)| cmp_folded(t, token)).ok().and_then(|i| self.agents.get(i))
        };
        match specific {
            Some((_, start, end)) => self.agent_groups.get(*start..*end),
            None => (!self.global.is_empty()).then_some(self.global.as_slice()),
        }
    }

    /// The deciding rule for a normalised path, if any: the best first match over the groups'
    /// sorted rule lists (the groups are merged, RFC 9309 section 2.2.1).
    fn decide(&self, token: &[u8], path: &[u8]) -> Option<&CompiledRule> {
        let groups = self.resolve(token)?;
        let head = path_head(path);
        let mut best: Option<&CompiledRule> = None;
        for &g in groups {
            let Some(&(start, end)) = self.ranges.get(g as usize) else { continue };
            for r in self.rules.get(start..end).unwrap_or_default() {
                if best.is_some_and(|b| !outranks(r, b)) {
                    break;
                }
                if r.pat.matches(&self.arena, path, head) {
                    best = Some(r);
                    break;
                }
            }
        }
        best
    }
}

/// The product token of a crawler name or a full User-Agent header value: the leading run of
/// `A-Z a-z 0-9 _ -` after leading whitespace (`FooBot/1.2 (+http://x)` gives `FooBot`).
///
/// RFC 9309 section 2.2.1 allows letters, `_` and `-`; digits are accepted too because real crawlers
/// use them (`MJ12bot`, `360Spider`), which only makes matching more exact.
pub fn product_token(agent: &str) -> &str {
    let a = agent.trim_start();
    let end = a.bytes().position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-')).unwrap_or(a.len());
    a.get(..end).unwrap_or_default()
}

/// Extracts the path and query to match from what a caller passes: a path (`/a?b`), or an absolute
/// URL (`https://host/a?b`), whose scheme and authority are dropped. The fragment is removed
/// (fragments are never sent to a server); an empty path becomes `/`.
pub(crate) fn extract_path(input: &str) -> Cow<'_, str> {
    let s = match memchr::memchr(b'#', input.as_bytes()) {
        Some(i) => input.get(..i).unwrap_or_default(),
        None => input,
    };
    if s.starts_with('/') {
        return Cow::Borrowed(s);
    }
    let after_scheme = s.find("://").and_then(|i| {
        let scheme = s.get(..i)?;
        let ok =
            !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        ok.then(|| s.get(i + 3..)).flatten()
    });
    let rest = match after_scheme {
        Some(authority_and_path) => match authority_and_path.find(['/', '?']) {
            Some(i) => authority_and_path.get(i..).unwrap_or_default(),
            None => "",
        },
        None => s,
    };
    if rest.starts_with('/') { Cow::Borrowed(rest) } else { Cow::Owned(format!("/{rest}")) }
}

/// True when the normalised path is `/robots.txt` itself (RFC 9309 section 2.2.2: implicitly allowed).
fn is_robots_txt(path: &str) -> bool {
    path.split('?').next() == Some("/robots.txt")
}

/// The rule that decided a [`Verdict`]: where it is and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchedRule {
    /// 1-based line number of the rule.
    pub line: u32,
    /// `"allow"` or `"disallow"`.
    pub directive: &'static str,
    /// The path pattern as written in the file.
    pub pattern: String,
}

/// The answer to "may this crawler fetch this path?".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// True when crawling is allowed.
    pub allowed: bool,
    /// The most specific matching rule, None when no rule matched (allowed by default), when no group
    /// applies to the crawler, or for `/robots.txt` itself.
    pub rule: Option<MatchedRule>,
}

impl RobotsTxt {
    /// Decides whether the crawler `agent` may fetch `path_and_query` (RFC 9309 section 2.2).
    ///
    /// * `agent`: a product token (`FooBot`) or a User-Agent value that starts with it
    ///   (`FooBot/1.2 (+http://x)`); only its leading product token (see [`product_token`]) is used,
    ///   compared case-insensitively (RFC 9309 section 2.2.1). A browser-style value
    ///   `Mozilla/5.0 (compatible; FooBot/1.2)` is matched as `Mozilla`.
    /// * `path_and_query`: the URI's path and query (`/a/b?c=d`); an absolute URL is accepted too
    ///   (its scheme and authority are ignored, no scope check is made: see [`crate::check_url`]).
    ///   A fragment is ignored.
    ///
    /// The crawler obeys every group that names its product token, merged; if none does, every `*`
    /// group, merged; if none either, everything is allowed. Among the rules of those groups, the one
    /// whose pattern matches from the path's first octet and has the most octets wins; on a tie,
    /// allow wins. Patterns and path are compared after percent-encoding normalisation
    /// (section 2.2.2). `/robots.txt` is always allowed.
    pub fn check(&self, agent: &str, path_and_query: &str) -> Verdict {
        let path = extract_path(path_and_query);
        let path = normalize(path.as_bytes(), Side::Path);
        if is_robots_txt(&path) {
            return Verdict { allowed: true, rule: None };
        }
        match self.index.decide(product_token(agent).as_bytes(), path.as_bytes()) {
            None => Verdict { allowed: true, rule: None },
            Some(r) => {
                let pattern = self
                    .groups
                    .get(r.group as usize)
                    .and_then(|g| g.rules.get(r.rule as usize))
                    .map(|rule| rule.pattern.clone())
                    .unwrap_or_default();
                let directive = if r.allow { Directive::Allow } else { Directive::Disallow };
                Verdict {
                    allowed: r.allow,
                    rule: Some(MatchedRule { line: r.line, directive: directive.as_str(), pattern }),
                }
            }
        }
    }

    /// [`check`](RobotsTxt::check)'s `allowed` alone, without building the [`MatchedRule`]
    /// (no allocation when the path needs no normalisation). For hot loops.
    pub fn is_allowed(&self, agent: &str, path_and_query: &str) -> bool {
        let path = extract_path(path_and_query);
        let path = normalize(path.as_bytes(), Side::Path);
        if is_robots_txt(&path) {
            return true;
        }
        self.index.decide(product_token(agent).as_bytes(), path.as_bytes()).is_none_or(|r| r.allow)
    }

    /// Indices into [`groups`](RobotsTxt::groups) of the groups the crawler `agent` obeys (its own
    /// merged groups, else the `*` groups; empty when none applies).
    pub fn groups_for(&self, agent: &str) -> Vec<usize> {
        self.index
            .resolve(product_token(agent).as_bytes())
            .map(|groups| groups.iter().map(|&g| g as usize).collect())
            .unwrap_or_default()
    }

    /// The `Crawl-delay` (seconds) declared in the groups the crawler `agent` obeys: the first valid
    /// one in file order. RFC 9309 does not define Crawl-delay; see `docs/plugins/robots.md`.
    pub fn crawl_delay(&self, agent: &str) -> Option<f64> {
        let groups = self.groups_for(agent);
        self.nonstandard.iter().filter(|n| n.group.is_some_and(|g| groups.contains(&g))).find_map(|n| n.seconds())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(product_token("FooBot/1.2 (+http://x)"), "FooBot");
        assert_eq!(product_token("  MJ12bot"), "MJ12bot");
        assert_eq!(product_token("*"), "");
        assert_eq!(product_token(""), "");
    }

    #[test]
    fn paths() {
        assert_eq!(extract_path("/a?b#c"), "/a?b");
        assert_eq!(extract_path("https://h.example"), "/");
        assert_eq!(extract_path("https://h.example?x=1"), "/?x=1");
        assert_eq!(extract_path("http://foo.bar//folder/x"), "//folder/x");
        assert_eq!(extract_path("relative"), "/relative");
        assert_eq!(extract_path(""), "/");
    }

    #[test]
    fn verdict_names_the_rule() {
        let r = RobotsTxt::parse(b"User-agent: *\nDisallow: /private\nAllow: /private/ok$\n");
        assert_eq!(
            r.check("x", "/private/ok"),
            Verdict {
                allowed: true,
                rule: Some(MatchedRule { line: 3, directive: "allow", pattern: "/private/ok$".into() })
            }
        );
        assert_eq!(r.check("x", "/private/ok/no").rule.map(|m| m.line), Some(2));
        assert_eq!(r.check("x", "/public"), Verdict { allowed: true, rule: None });
        assert!(!r.is_allowed("x", "https://other.example/private"));
        assert!(r.is_allowed("x", "/robots.txt?x"));
    }

    #[test]
    fn many_agents_in_repeated_groups_stay_linear() {
        // Two groups naming the same 4,000 agents, 4,000 rules each: merging is done per query over the
        // two groups' lists, never by materialising a merged list per agent (which would be 32 million
        // entries here).
        let mut body = String::new();
        for g in 0..2 {
            for a in 0..4000 {
                body.push_str(&format!("User-agent: bot{a}\n"));
            }
            for r in 0..4000 {
                body.push_str(&format!("Disallow: /g{g}/r{r}/\n"));
            }
        }
        assert!(body.len() < crate::PARSE_LIMIT);
        let r = RobotsTxt::parse(body.as_bytes());
        assert_eq!(r.groups().len(), 2);
        assert_eq!(r.groups_for("BOT17"), vec![0, 1]);
        assert_eq!(r.check("bot3999", "/g1/r3999/x").rule.map(|m| m.line), Some(16_000));
        assert_eq!(r.check("bot0", "/g0/r0/").rule.map(|m| m.line), Some(4_001));
        assert!(r.is_allowed("bot0", "/g2/"));
        assert!(r.is_allowed("other", "/g0/r0/"));
    }

    #[test]
    fn merged_groups_and_crawl_delay() {
        let r = RobotsTxt::parse(
            b"User-agent: a\nCrawl-delay: 2.5\nDisallow: /x\n\nUser-agent: *\nCrawl-delay: 9\nDisallow: /\n\nUser-agent: A\nDisallow: /y\n",
        );
        assert_eq!(r.groups_for("A/1.0"), vec![0, 2]);
        assert_eq!(r.groups_for("other"), vec![1]);
        assert!(!r.is_allowed("a", "/y"));
        assert!(r.is_allowed("a", "/z"));
        assert_eq!(r.crawl_delay("a"), Some(2.5));
        assert_eq!(r.crawl_delay("b"), Some(9.0));
    }
}
