//! Scope: which hosts the user is allowed to fetch from. Scope is sacred: nothing outside it is
//! requested; out-of-scope candidates are recorded, never fetched.
//!
//! Rule syntax (`--scope`, repeatable; `scope = [...]` in the configuration file):
//!
//! | rule | matches |
//! | --- | --- |
//! | `www.example.com` | exactly that host |
//! | `*.example.com` or `.example.com` | `example.com` and every subdomain |
//! | `10.0.0.0/8`, `2001:db8::/32` | IP-literal hosts in that range |
//! | `192.0.2.7` | that IP literal |
//! | `!rule` or `-rule` | exclusion: never in scope, whatever else matches |
//!
//! Refused, as matching everything: an empty rule, `*` (or `*` anywhere but a leading `*.`), a
//! wildcard over a public suffix (`*.com`, `*.co.uk`), and `/0` blocks.
//!
//! With no rule given, the scope is the registrable domain (public suffix list) of each target with
//! all its subdomains (`*.example.co.uk` for `www.example.co.uk`), and exactly the IP for IP targets.
//! Ports and schemes do not matter for scope. A URL or origin is accepted as a rule for its host
//! (`https://a.example`), but one that names a path, a query or a port is refused (as is
//! `host:port`): the rule would otherwise be silently widened to the whole host.

use std::fmt;
use std::net::IpAddr;

use ipnet::IpNet;
use url::Url;

use crate::origin::{Host, Origin};

/// One scope rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeRule {
    /// Exactly this host.
    Host(Host),
    /// This domain and all its subdomains (lower-case punycode, no leading dot).
    DomainTree(String),
    /// IP literals inside this network.
    Net(IpNet),
}

impl ScopeRule {
    /// Parses one rule (without the exclusion prefix).
    ///
    /// Errors: [`ScopeError`] when the text is not a host, wildcard domain, IP or CIDR, or is a rule
    /// that would match everything: empty, `*` (or a `*` anywhere but a leading `*.`), a wildcard
    /// over a public suffix (`*.com`, `*.co.uk`), or a `/0` block.
    pub fn parse(text: &str) -> Result<ScopeRule, ScopeError> {
        let t = text.trim();
        if rejection(t).is_some() {
            return Err(ScopeError(t.to_string()));
        }
        if t.contains('/') && !t.contains("://") {
            return t.parse::<IpNet>().map(ScopeRule::Net).map_err(|_| ScopeError(t.to_string()));
        }
        if let Some(rest) = t.strip_prefix("*.").or_else(|| t.strip_prefix('.')) {
            return match Host::parse(rest) {
                Ok(Host::Domain(d)) => Ok(ScopeRule::DomainTree(d)),
                _ => Err(ScopeError(t.to_string())),
            };
        }
        // Accept a URL or origin too (`https://a.example/`): its host.
        let host = if t.contains("://") {
            Origin::parse_target(t).map(|o| o.host().clone()).map_err(|_| ScopeError(t.to_string()))?
        } else {
            Host::parse(t).map_err(|_| ScopeError(t.to_string()))?
        };
        Ok(ScopeRule::Host(host))
    }

    /// True when `host` matches this rule.
    pub fn matches(&self, host: &Host) -> bool {
        match (self, host) {
            (ScopeRule::Host(h), _) => h == host,
            (ScopeRule::DomainTree(d), Host::Domain(name)) => {
                name == d
                    || (name.len() > d.len()
                        && name.ends_with(d.as_str())
                        && name.as_bytes()[name.len() - d.len() - 1] == b'.')
            }
            (ScopeRule::DomainTree(_), _) => false,
            (ScopeRule::Net(net), _) => host.ip().is_some_and(|ip| net.contains(&ip)),
        }
    }
}

impl fmt::Display for ScopeRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScopeRule::Host(h) => write!(f, "{}", h.name()),
            ScopeRule::DomainTree(d) => write!(f, "*.{d}"),
            ScopeRule::Net(n) => write!(f, "{n}"),
        }
    }
}

/// A scope rule that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeError(pub String);

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid scope rule {:?}", self.0)?;
        if let Some(why) = rejection(&self.0) {
            write!(f, ": {why}")?;
        }
        write!(
            f,
            " (accepted: a host `www.example.com` or its origin `https://www.example.com`, a domain and its \
             subdomains `*.example.com`, an IP `192.0.2.7`, a CIDR block `192.0.2.0/24`; prefix `!` to \
             exclude, e.g. `!admin.example.com`)"
        )
    }
}

/// Why a rule text (without its `!` prefix) is refused although it may parse: it is empty, or
/// would match every host, every address or a whole public suffix. None for other texts.
fn rejection(t: &str) -> Option<&'static str> {
    if t.is_empty() {
        return Some("empty rule");
    }
    // Scope is per host: a rule that names a path or a port would be silently widened to the whole
    // host, every port and both schemes, so it is refused rather than misread.
    if t.contains("://") {
        if let Ok(u) = Url::parse(t) {
            if !matches!(u.path(), "" | "/") || u.query().is_some() || u.fragment().is_some() {
                return Some(
                    "scope is per host: a path (or query) would be widened to the whole host; write the host alone",
                );
            }
            if u.port().is_some() {
                return Some("scope is per host, every port and scheme: write the host without its port");
            }
        }
    } else if let Some((h, port)) = t.rsplit_once(':')
        && !port.is_empty()
        && port.bytes().all(|b| b.is_ascii_digit())
        && !h.contains(':')
    {
        return Some("scope is per host, every port and scheme: write the host without its port");
    }
    // A URL or origin rule names its host; only a bare rule may start with `*.` or `.`.
    let (host, name) = match t.split_once("://") {
        Some((_, rest)) => {
            let h = rest.split(['/', ':']).next().unwrap_or(rest);
            (h, h)
        }
        None => (t, t.strip_prefix("*.").or_else(|| t.strip_prefix('.')).unwrap_or(t)),
    };
    if name.split('.').all(|l| l.is_empty() || l == "*") {
        return Some("it would match every host; name the hosts or domains to scan");
    }
    if name.contains('*') {
        return Some("a wildcard is accepted only as a leading `*.` before a domain");
    }
    if name.len() < host.len() && !name.contains(':') && name.parse::<IpAddr>().is_err() {
        let lower = name.trim_end_matches('.').to_ascii_lowercase();
        let is_suffix =
            |n: &str| psl::suffix(n.as_bytes()).is_some_and(|s| s.is_known() && s.as_bytes() == n.as_bytes());
        let ascii = Host::parse(&lower).ok().map(|h| h.name());
        if is_suffix(&lower) || ascii.as_deref().is_some_and(is_suffix) {
            return Some("a wildcard over a public suffix would match every domain registered under it");
        }
    }
    if !t.contains("://") && t.ends_with("/0") && t.parse::<IpNet>().is_ok() {
        return Some("a /0 block would match every address");
    }
    None
}

impl std::error::Error for ScopeError {}

/// The user's scope: inclusion rules and exclusion rules. Exclusions win.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    include: Vec<ScopeRule>,
    exclude: Vec<ScopeRule>,
}

impl Scope {
    /// Parses rules as given on the command line (`!` or `-` prefix = exclusion).
    ///
    /// Errors: the first rule that does not parse.
    pub fn parse<S: AsRef<str>>(rules: &[S]) -> Result<Scope, ScopeError> {
        let mut scope = Scope::default();
        for r in rules {
            let r = r.as_ref().trim();
            if r.is_empty() {
                continue;
            }
            if let Some(ex) = r.strip_prefix('!').or_else(|| r.strip_prefix('-')) {
                scope.exclude.push(ScopeRule::parse(ex)?);
            } else {
                scope.include.push(ScopeRule::parse(r)?);
            }
        }
        Ok(scope)
    }

    /// The default scope for a set of targets: each target's registrable domain (public suffix list)
    /// with all subdomains; the exact host when it has no registrable domain (an IP, `localhost`, a
    /// bare public suffix).
    pub fn for_targets<'a>(targets: impl IntoIterator<Item = &'a Origin>) -> Scope {
        let mut scope = Scope::default();
        for o in targets {
            scope.add_default_for(o.host());
        }
        scope
    }

    /// Adds the default rule for `host` (see [`Scope::for_targets`]).
    pub fn add_default_for(&mut self, host: &Host) {
        let rule = match host {
            Host::Domain(name) => match registrable_domain(name) {
                Some(d) => ScopeRule::DomainTree(d),
                None => ScopeRule::Host(host.clone()),
            },
            _ => ScopeRule::Host(host.clone()),
        };
        if !self.include.contains(&rule) {
            self.include.push(rule);
        }
    }

    /// Adds an inclusion rule.
    pub fn include(&mut self, rule: ScopeRule) {
        self.include.push(rule);
    }

    /// Adds an exclusion rule.
    pub fn exclude(&mut self, rule: ScopeRule) {
        self.exclude.push(rule);
    }

    /// True when no inclusion rule exists (nothing is in scope).
    pub fn is_empty(&self) -> bool {
        self.include.is_empty()
    }

    /// The inclusion rules.
    pub fn includes(&self) -> &[ScopeRule] {
        &self.include
    }

    /// The exclusion rules.
    pub fn excludes(&self) -> &[ScopeRule] {
        &self.exclude
    }

    /// The address ranges the exclusions name (CIDR rules, and IP rules as one-address blocks):
    /// the fetcher never connects to them, whatever name led there, so `!10.0.0.0/8` also keeps a
    /// name that resolves into 10.0.0.0/8 from being requested.
    pub fn excluded_networks(&self) -> Vec<IpNet> {
        self.exclude
            .iter()
            .filter_map(|r| match r {
                ScopeRule::Net(n) => Some(*n),
                ScopeRule::Host(h) => h.ip().map(IpNet::from),
                ScopeRule::DomainTree(_) => None,
            })
            .collect()
    }

    /// True when `host` is in scope.
    pub fn contains_host(&self, host: &Host) -> bool {
        !self.exclude.iter().any(|r| r.matches(host)) && self.include.iter().any(|r| r.matches(host))
    }

    /// True when the URL's host is in scope (and the URL is http or https).
    pub fn contains_url(&self, url: &Url) -> bool {
        matches!(url.scheme(), "http" | "https") && url.host().is_some_and(|h| self.contains_host(&Host::from(h)))
    }

    /// True when an IP address the fetcher is about to connect to is in scope for IP-range rules.
    /// Used for targets given as IPs; names are judged by [`Scope::contains_host`].
    pub fn contains_ip(&self, ip: IpAddr) -> bool {
        self.contains_host(&Host::from(ip))
    }
}

/// The registrable domain (eTLD+1, public suffix list) of a lower-case ASCII host name, if any.
pub fn registrable_domain(name: &str) -> Option<String> {
    let d = psl::domain(name.as_bytes())?;
    // psl treats unknown TLDs as public suffixes of one label ("a.test" -> "a.test"): keep that.
    std::str::from_utf8(d.as_bytes()).ok().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(s: &str) -> Host {
        Host::parse(s).unwrap()
    }

    #[test]
    fn default_scope_is_registrable_domain() {
        let t = [Origin::parse_target("https://www.example.co.uk").unwrap(), Origin::parse_target("10.1.2.3").unwrap()];
        let s = Scope::for_targets(&t);
        assert!(s.contains_host(&host("example.co.uk")));
        assert!(s.contains_host(&host("api.example.co.uk")));
        assert!(!s.contains_host(&host("other.co.uk")));
        assert!(!s.contains_host(&host("notexample.co.uk")));
        assert!(s.contains_host(&host("10.1.2.3")));
        assert!(!s.contains_host(&host("10.1.2.4")));
    }

    #[test]
    fn rules_and_exclusions() {
        let s = Scope::parse(&["*.example.com", "exa mple.com"]);
        assert!(s.is_err());
        let s = Scope::parse(&["*.example.com", "www.other.org", "192.0.2.0/24", "!admin.example.com"]).unwrap();
        assert!(s.contains_host(&host("example.com")));
        assert!(s.contains_host(&host("a.b.example.com")));
        assert!(!s.contains_host(&host("admin.example.com")));
        assert!(s.contains_host(&host("www.other.org")));
        assert!(!s.contains_host(&host("other.org")));
        assert!(s.contains_host(&host("192.0.2.9")));
        assert!(!s.contains_url(&Url::parse("ftp://example.com/").unwrap()));
        assert!(s.contains_url(&Url::parse("http://WWW.other.org:8080/x").unwrap()));
    }

    #[test]
    fn rules_matching_everything_are_refused() {
        for bad in [
            "*",
            "*.*",
            ".",
            "*.",
            "",
            "a*.example.com",
            "www.*.example.com",
            "*.com",
            ".com",
            "*.co.uk",
            "*.github.io",
            "*.рф",
            "0.0.0.0/0",
            "::/0",
            "https://*.example.com/",
        ] {
            let e = ScopeRule::parse(bad).expect_err(bad);
            let msg = e.to_string();
            assert!(msg.contains("accepted: a host") && msg.contains("prefix `!` to exclude"), "{msg}");
            assert!(rejection(bad.trim()).is_some(), "{bad}: {msg}");
        }
        let e = Scope::parse(&["!*"]).unwrap_err().to_string();
        assert!(e.contains("would match every host"), "{e}");
        assert!(ScopeRule::parse("*.com").unwrap_err().to_string().contains("public suffix"));
        assert!(ScopeRule::parse("0.0.0.0/0").unwrap_err().to_string().contains("every address"));
        assert!(ScopeRule::parse("a*.example.com").unwrap_err().to_string().contains("leading `*.`"));
        for narrower in ["https://a.example/only/", "https://a.example/?q=1", "http://a.example:8080", "a.example:443"]
        {
            let msg = ScopeRule::parse(narrower).unwrap_err().to_string();
            assert!(msg.contains("scope is per host"), "{narrower}: {msg}");
        }
        assert_eq!(
            ScopeRule::parse("https://A.example/").unwrap(),
            ScopeRule::Host(Host::parse("a.example").unwrap()),
            "an origin names its host"
        );
        assert_eq!(
            ScopeRule::parse("https://a.example:443").unwrap(),
            ScopeRule::Host(Host::parse("a.example").unwrap()),
            "a default port is no port"
        );
        assert!(ScopeRule::parse("2001:db8::1").is_ok(), "an IPv6 literal is not host:port");
        let s = Scope::parse(&["*.example.com", "!10.0.0.0/8", "!192.0.2.7", "!admin.example.com"]).unwrap();
        let nets: Vec<String> = s.excluded_networks().iter().map(ToString::to_string).collect();
        assert_eq!(nets, ["10.0.0.0/8", "192.0.2.7/32"]);
        // Still accepted: a domain under an unknown or private-use name, a bare suffix as one host,
        // narrow blocks.
        for good in
            ["*.test", "*.corp.internal", "*.example.co.uk", "com", "10.0.0.0/8", "::1/128", "https://a.example"]
        {
            assert!(ScopeRule::parse(good).is_ok(), "{good}");
        }
    }

    #[test]
    fn idn_rules_match_punycode() {
        let s = Scope::parse(&["*.exämple.com"]).unwrap();
        assert!(s.contains_host(&host("www.xn--exmple-cua.com")));
    }
}
