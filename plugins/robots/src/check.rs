//! `wellknown robots check`: one verdict per URL, with the scope rule of RFC 9309 section 2.3.

use serde::Serialize;
use url::Url;
use wellknown_core::origin::robots_applies;

use crate::matcher::MatchedRule;
use crate::model::RobotsTxt;

/// One line of `wellknown robots check FILE --agent TOKEN [--robots-url URL] URL...`:
/// `{"url","agent","applies","allowed","rule"}` (plus `"error"` when the URL could not be read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckOutcome {
    /// The URL as given.
    pub url: String,
    /// The agent as given.
    pub agent: String,
    /// False when the robots.txt at `--robots-url` does not govern this URL (different scheme, host or
    /// effective port: RFC 9309 section 2.3, Google's rules on default ports, IDN and IP hosts), or
    /// when the URL could not be parsed. True when no robots URL was given.
    pub applies: bool,
    /// True when the crawler may fetch the URL. Always true when `applies` is false: the file says
    /// nothing about URLs it does not govern.
    pub allowed: bool,
    /// The deciding rule (`{"line","directive","pattern"}`), null when no rule decided.
    pub rule: Option<MatchedRule>,
    /// Why the URL could not be checked, when it could not (not serialised otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Checks `target` against `robots` for crawler `agent`.
///
/// * `robots_url`: where the robots.txt was fetched from; when given, a `target` on another origin
///   gets `applies: false, allowed: true, rule: null` (decided by
///   [`wellknown_core::origin::robots_applies`]). When None, the file is assumed to govern `target`.
/// * `target`: an absolute URL; a bare path (`/a/b?c`) is accepted too and is taken to be on the
///   robots.txt's own origin. Rules are matched against the path and query as written in `target`
///   (percent-encoding normalised, RFC 9309 section 2.2.2), not against a re-serialised URL.
/// * Anything else gets `applies: false, allowed: true` and an `error`.
pub fn check_url(robots: &RobotsTxt, robots_url: Option<&Url>, agent: &str, target: &str) -> CheckOutcome {
    let mut out = CheckOutcome {
        url: target.to_string(),
        agent: agent.to_string(),
        applies: true,
        allowed: true,
        rule: None,
        error: None,
    };
    let trimmed = target.trim();
    if !trimmed.starts_with('/') {
        match Url::parse(trimmed) {
            Ok(url) => {
                if let Some(robots_url) = robots_url {
                    out.applies = robots_applies(robots_url, &url);
                } else if !matches!(url.scheme(), "http" | "https" | "ftp") || url.host().is_none() {
                    out.applies = false;
                }
            }
            Err(e) => {
                out.applies = false;
                out.error = Some(format!("not an absolute URL or path: {e}"));
            }
        }
    }
    if !out.applies {
        return out;
    }
    let verdict = robots.check(agent, trimmed);
    out.allowed = verdict.allowed;
    out.rule = verdict.rule;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn robots() -> RobotsTxt {
        RobotsTxt::parse(b"User-agent: FooBot\nDisallow: /private\n")
    }

    #[test]
    fn applies_and_rule() {
        let base = Url::parse("https://a.example/robots.txt").ok();
        let o = check_url(&robots(), base.as_ref(), "FooBot/2", "https://a.example:443/private/x");
        assert!(o.applies);
        assert!(!o.allowed);
        let json = serde_json::to_string(&o).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"url":"https://a.example:443/private/x","agent":"FooBot/2","applies":true,"allowed":false,"rule":{"line":2,"directive":"disallow","pattern":"/private"}}"#
        );
        let o = check_url(&robots(), base.as_ref(), "FooBot", "http://a.example/private/x");
        assert_eq!((o.applies, o.allowed, o.rule), (false, true, None));
        let o = check_url(&robots(), None, "FooBot", "/private");
        assert_eq!((o.applies, o.allowed), (true, false));
        let o = check_url(&robots(), None, "FooBot", "not a url");
        assert_eq!((o.applies, o.allowed, o.error.is_some()), (false, true, true));
    }
}
