//! `--obey-robots`: the engine's [`RobotsGate`] implemented with the `robots` plugin's RFC 9309
//! matcher, for the scanner's own product token (the first word of `--user-agent`, `wellknown` by
//! default).
//!
//! What a robots.txt fetch means (RFC 9309 section 2.3.1): a 2xx file's rules apply; a 4xx (other
//! than 429) or a redirect that leads nowhere means no restrictions; a 5xx, a 429 or an unreachable
//! server means complete disallow. When the scanner itself refused the robots.txt request (private
//! address, for instance) nothing is known and nothing is blocked by this gate: the same refusal
//! applies to the origin's other URLs anyway. `Crawl-delay` (not part of RFC 9309) is read from the
//! groups that apply to the token, as the robots plugin documents.
//!
//! Location (RFC 9309 section 2.3): only a file requested at the origin's `/robots.txt` has rules
//! for the origin; one requested anywhere else governs nothing (allow all). The request is what
//! counts: a `/robots.txt` redirected to another path or host is still the origin's robots.txt
//! (section 2.3.1.2), and its rules apply to the origin requested.

use std::sync::Arc;
use std::time::Duration;

use url::{Position, Url};
use wellknown_core::FetchMeta;
use wellknown_core::origin::is_robots_location;
use wellknown_engine::{RobotsGate, RobotsRules};
use wellknown_robots::{Availability, RobotsTxt, availability, product_token};

/// The gate for one product token.
#[derive(Debug, Clone)]
pub struct PluginRobotsGate {
    token: String,
}

impl PluginRobotsGate {
    /// A gate for the product token of `user_agent` (`wellknown/0.1 (+...)` -> `wellknown`).
    pub fn new(user_agent: &str) -> PluginRobotsGate {
        PluginRobotsGate { token: product_token(user_agent).to_string() }
    }

    /// The product token obeyed.
    pub fn token(&self) -> &str {
        &self.token
    }
}

enum Rules {
    AllowAll,
    DisallowAll,
    File { robots: Box<RobotsTxt>, token: String },
}

impl RobotsRules for Rules {
    fn allowed(&self, url: &Url) -> bool {
        match self {
            Rules::AllowAll => true,
            Rules::DisallowAll => false,
            Rules::File { robots, token } => robots.is_allowed(token, &url[Position::BeforePath..Position::AfterQuery]),
        }
    }

    fn crawl_delay(&self) -> Option<Duration> {
        match self {
            Rules::File { robots, token } => {
                robots.crawl_delay(token).and_then(|s| Duration::try_from_secs_f64(s).ok())
            }
            _ => None,
        }
    }
}

impl RobotsGate for PluginRobotsGate {
    fn rules(&self, meta: &FetchMeta, body: &[u8]) -> Arc<dyn RobotsRules> {
        if !is_robots_location(&meta.requested_url) {
            return Arc::new(Rules::AllowAll);
        }
        let rules = match availability(meta) {
            Some(Availability::Available) => {
                Rules::File { robots: Box::new(RobotsTxt::parse(body)), token: self.token.clone() }
            }
            Some(Availability::Unreachable) => Rules::DisallowAll,
            Some(Availability::Unavailable) | None => Rules::AllowAll,
        };
        Arc::new(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn meta(status: u16) -> FetchMeta {
        let mut m =
            FetchMeta::synthetic(Url::parse("https://a.example/robots.txt").unwrap(), None, Timestamp::UNIX_EPOCH);
        m.status = Some(status);
        m
    }

    #[test]
    fn rules_follow_rfc_9309_fetch_semantics() {
        let gate = PluginRobotsGate::new("wellknown/0.1 (+https://example.invalid)");
        assert_eq!(gate.token(), "wellknown");
        let body = b"User-agent: wellknown\nDisallow: /private\nCrawl-delay: 2.5\n\nUser-agent: *\nDisallow: /\n";
        let r = gate.rules(&meta(200), body);
        assert!(!r.allowed(&Url::parse("https://a.example/private/x?y=1").unwrap()));
        assert!(r.allowed(&Url::parse("https://a.example/public").unwrap()));
        assert_eq!(r.crawl_delay(), Some(Duration::from_millis(2500)));
        let r = gate.rules(&meta(404), b"");
        assert!(r.allowed(&Url::parse("https://a.example/private").unwrap()));
        let r = gate.rules(&meta(503), b"");
        assert!(!r.allowed(&Url::parse("https://a.example/public").unwrap()));
        assert_eq!(r.crawl_delay(), None);
    }

    #[test]
    fn only_a_file_requested_at_robots_txt_has_rules() {
        let gate = PluginRobotsGate::new("wellknown");
        let body = b"User-agent: *\nDisallow: /\n";
        let private = Url::parse("https://a.example/private").unwrap();
        // Redirected from /robots.txt to another path and host: still the origin's robots.txt.
        let mut redirected = meta(200);
        redirected.url = Url::parse("https://cdn.example/files/robots-a.txt").unwrap();
        assert!(!gate.rules(&redirected, body).allowed(&private));
        // Requested elsewhere: governs nothing.
        for elsewhere in ["https://a.example/folder/robots.txt", "https://a.example/Robots.txt"] {
            let mut m = meta(200);
            m.requested_url = Url::parse(elsewhere).unwrap();
            m.url = m.requested_url.clone();
            assert!(gate.rules(&m, body).allowed(&private), "{elsewhere}");
        }
    }
}
