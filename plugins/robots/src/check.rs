//! `wellknown robots check`: one verdict per URL, with the location and scope rules of RFC 9309
//! section 2.3.

use serde::Serialize;
use url::Url;
use wellknown_core::origin::{is_robots_location, robots_applies};

use crate::matcher::{MatchedRule, product_token};
use crate::model::RobotsTxt;

/// One line of `wellknown robots check FILE --agent TOKEN [--robots-url URL] URL...`:
/// `{"url","agent","token","applies","allowed","rule"}`, plus `"reason"` when the file does not
/// govern the URL and `"error"` when the URL could not be read.
///
/// | case | `applies` | `allowed` | `rule` | `reason` | `error` |
/// | --- | --- | --- | --- | --- | --- |
/// | the file governs the URL | true | true / false | the deciding rule, or null | absent | absent |
/// | `--robots-url` is not the `/robots.txt` of its origin (RFC 9309 section 2.3) | false | true | null | why | absent |
/// | the URL is on another origin than `--robots-url` | false | true | null | why | absent |
/// | the URL is not an http(s) or ftp URL with a host (no `--robots-url`) | false | true | null | why | absent |
/// | the URL could not be read | false | null | null | absent | why |
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckOutcome {
    /// The URL as given.
    pub url: String,
    /// The agent as given.
    pub agent: String,
    /// The product token actually matched against the file's `user-agent` lines (RFC 9309 section
    /// 2.2.1): the agent's leading run of `A-Z a-z 0-9 _ -` ([`product_token`]). `FooBot/1.2` gives
    /// `FooBot`, and a browser-style `Mozilla/5.0 (compatible; Googlebot/2.1; +http://...)` gives
    /// `Mozilla`, not `Googlebot`. Empty when the agent starts with no such character (`*`): such a
    /// crawler obeys the `*` groups only.
    pub token: String,
    /// False when the robots.txt at `--robots-url` does not govern this URL: the file is not at the
    /// top-level `/robots.txt` of its origin, all lower case, so it governs nothing
    /// ([`is_robots_location`]), or the URL is on another origin (different scheme, host or effective
    /// port: RFC 9309 section 2.3, Google's rules on default ports, IDN and IP hosts). False also when
    /// the URL could not be read. True when no robots URL was given (for an http(s) or ftp URL).
    pub applies: bool,
    /// Whether the crawler may fetch the URL: `Some(true)` or `Some(false)` when the file governs it;
    /// `Some(true)` when `applies` is false because the URL is on another origin (the file says
    /// nothing about it); `None` (JSON `null`) when the URL could not be read, with `error` saying
    /// why: no answer was given, and a script must not read it as "allowed".
    pub allowed: Option<bool>,
    /// The deciding rule (`{"line","directive","pattern"}`), null when no rule decided.
    pub rule: Option<MatchedRule>,
    /// Why the file does not govern the URL, when `applies` is false for a URL that was read (not
    /// serialised otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Why the URL could not be read, when it could not (not serialised otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Checks `target` against `robots` for crawler `agent`.
///
/// * `agent`: RFC 9309 section 2.2.1 matches the crawler's **product token**, not a User-Agent
///   header: only the agent's leading token is used (reported as [`CheckOutcome::token`]). Give the
///   crawler's token (`Googlebot`), or a header that starts with it (`Googlebot/2.1 (+http://...)`).
///   A browser-style header such as `Mozilla/5.0 (compatible; Googlebot/2.1; +http://...)` is
///   matched as `Mozilla`, so it gets the `*` groups, not Googlebot's.
/// * `robots_url`: where the robots.txt was requested (before any redirect: RFC 9309 section 2.3.1.2
///   keeps a redirected file the robots.txt of the origin requested). When it is not the `/robots.txt`
///   of its origin ([`is_robots_location`]: `/folder/robots.txt`, `/Robots.txt`, a query), the file
///   governs nothing: every `target`, bare paths included, gets `applies: false, allowed: Some(true),
///   rule: None` and a `reason`. Otherwise a `target` on another origin gets the same (decided by
///   [`wellknown_core::origin::robots_applies`]). When None, the file is assumed to govern `target`.
/// * `target`: an absolute URL; a bare path (`/a/b?c`) is accepted too and is taken to be on the
///   robots.txt's own origin. Rules are matched against the path and query as written in `target`
///   (percent-encoding normalised, RFC 9309 section 2.2.2), not against a re-serialised URL.
/// * Anything else cannot be checked: `applies: false`, `allowed: None` (JSON `null`) and an
///   `error` naming the problem. Callers should treat it as an error, not as an answer.
pub fn check_url(robots: &RobotsTxt, robots_url: Option<&Url>, agent: &str, target: &str) -> CheckOutcome {
    let mut out = CheckOutcome {
        url: target.to_string(),
        agent: agent.to_string(),
        token: product_token(agent).to_string(),
        applies: true,
        allowed: Some(true),
        rule: None,
        reason: None,
        error: None,
    };
    let trimmed = target.trim();
    let url = if trimmed.starts_with('/') {
        None
    } else {
        match Url::parse(trimmed) {
            Ok(url) => Some(url),
            Err(e) => {
                out.applies = false;
                out.allowed = None;
                out.error = Some(format!("not an absolute URL or path: {e}"));
                return out;
            }
        }
    };
    out.reason = match (robots_url, &url) {
        (Some(r), _) if !is_robots_location(r) => Some(wrong_location(r)),
        (Some(r), Some(u)) if !robots_applies(r, u) => Some(format!(
            "on another origin than the robots.txt at {r}: it governs only URLs of its own scheme, host and \
             port (RFC 9309 2.3)"
        )),
        (None, Some(u)) if !matches!(u.scheme(), "http" | "https" | "ftp") || u.host().is_none() => {
            Some("not an http(s) or ftp URL with a host: no robots.txt governs it (RFC 9309 2.3)".to_string())
        }
        _ => None,
    };
    if out.reason.is_some() {
        out.applies = false;
        return out;
    }
    let verdict = robots.check(agent, trimmed);
    out.allowed = Some(verdict.allowed);
    out.rule = verdict.rule;
    out
}

/// Why a robots.txt at `robots_url` governs nothing (it is not its origin's `/robots.txt`).
pub(crate) fn wrong_location(robots_url: &Url) -> String {
    format!(
        "{robots_url} is not the top-level /robots.txt (all lower case, no query) of its origin: a file anywhere \
         else governs nothing (RFC 9309 2.3)"
    )
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
        assert_eq!(o.allowed, Some(false));
        let json = serde_json::to_string(&o).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"url":"https://a.example:443/private/x","agent":"FooBot/2","token":"FooBot","applies":true,"allowed":false,"rule":{"line":2,"directive":"disallow","pattern":"/private"}}"#
        );
        let o = check_url(&robots(), base.as_ref(), "FooBot", "http://a.example/private/x");
        assert_eq!((o.applies, o.allowed, o.rule), (false, Some(true), None));
        let o = check_url(&robots(), None, "FooBot", "/private");
        assert_eq!((o.applies, o.allowed), (true, Some(false)));
    }

    #[test]
    fn a_file_elsewhere_than_robots_txt_governs_nothing() {
        for at in ["https://a.example/folder/robots.txt", "https://a.example/Robots.txt"] {
            let base = Url::parse(at).ok();
            for target in ["https://a.example/private/x", "/private/x"] {
                let o = check_url(&robots(), base.as_ref(), "FooBot", target);
                assert_eq!(
                    (o.applies, o.allowed, &o.rule, &o.error),
                    (false, Some(true), &None, &None),
                    "{at} {target}"
                );
                let reason = o.reason.unwrap_or_default();
                assert!(reason.starts_with(at) && reason.contains("governs nothing"), "{reason}");
            }
        }
        let base = Url::parse("https://a.example/robots.txt").ok();
        let o = check_url(&robots(), base.as_ref(), "FooBot", "https://b.example/private");
        assert!(o.reason.is_some_and(|r| r.starts_with("on another origin than the robots.txt at")));
        let o = check_url(&robots(), None, "FooBot", "mailto:a@b.example");
        assert_eq!((o.applies, o.allowed), (false, Some(true)));
        assert!(o.reason.is_some_and(|r| r.starts_with("not an http(s) or ftp URL")));
        let json = serde_json::to_string(&check_url(&robots(), base.as_ref(), "FooBot", "/private")).unwrap();
        assert!(!json.contains("reason"), "{json}");
    }

    #[test]
    fn an_unreadable_url_has_no_answer() {
        let o = check_url(&robots(), None, "FooBot", "not a url");
        assert_eq!((o.applies, o.allowed, &o.rule), (false, None, &None));
        assert_eq!(o.error.as_deref(), Some("not an absolute URL or path: relative URL without a base"));
        let json = serde_json::to_value(&o).unwrap_or_default();
        assert_eq!(json["allowed"], serde_json::Value::Null);
        assert_eq!(json["applies"], false);
    }

    #[test]
    fn token_is_the_product_token_matched() {
        let r = RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /all/\n");
        let browser = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        let o = check_url(&r, None, browser, "/g/x");
        assert_eq!((o.token.as_str(), o.allowed), ("Mozilla", Some(true)));
        assert_eq!(check_url(&r, None, browser, "/all/x").rule.map(|m| m.line), Some(5));
        let o = check_url(&r, None, "Googlebot/2.1 (+http://www.google.com/bot.html)", "/g/x");
        assert_eq!((o.token.as_str(), o.allowed), ("Googlebot", Some(false)));
        assert_eq!(check_url(&r, None, "*", "/all/").token, "");
    }
}
