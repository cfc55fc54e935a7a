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
//! Inclusions refused, as matching everything or nearly: an empty rule, `*` (or `*` anywhere but a
//! leading `*.`), a wildcard over a public suffix (`*.com`, `*.co.uk`), and IP blocks wider than
//! /[`MIN_IPV4_PREFIX`] (IPv4) or /[`MIN_IPV6_PREFIX`] (IPv6), `/0` included. An exclusion cannot
//! widen a scan, so exclusions may be that wide: `!*` (every host), `!*.com`, `!0.0.0.0/0`.
//! A refused rule is quoted as given, `!` included.
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
    /// Every host (`*`): only accepted as an exclusion (`!*`), see [`ScopeRule::parse_exclusion`].
    AnyHost,
}

/// The shortest prefix length of an IPv4 inclusion block (`10.0.0.0/8` is the widest accepted).
pub const MIN_IPV4_PREFIX: u8 = 8;

/// The shortest prefix length of an IPv6 inclusion block (`2001::/16` is the widest accepted).
pub const MIN_IPV6_PREFIX: u8 = 16;

impl ScopeRule {
    /// Parses one inclusion rule (without the exclusion prefix).
    ///
    /// Errors: [`ScopeError`] (quoting `text`) when the text is not a host, wildcard domain, IP or
    /// CIDR, names more than a host (a path, a port), or is a rule that would match everything or
    /// nearly: empty, `*` (or a `*` anywhere but a leading `*.`), a wildcard over a public suffix
    /// (`*.com`, `*.co.uk`), or an IP block wider than /[`MIN_IPV4_PREFIX`] (IPv4) or
    /// /[`MIN_IPV6_PREFIX`] (IPv6).
    pub fn parse(text: &str) -> Result<ScopeRule, ScopeError> {
        let t = text.trim();
        if rejection(t, false).is_some() {
            return Err(ScopeError(t.to_string()));
        }
        parse_rule(t).ok_or_else(|| ScopeError(t.to_string()))
    }

    /// Parses one exclusion rule (the text after `!`). An exclusion cannot widen a scan, so the
    /// rules [`ScopeRule::parse`] refuses as too wide are accepted: `*` (also `*.*`) is
    /// [`ScopeRule::AnyHost`], `*.com` every domain under `com`, `0.0.0.0/0` every IPv4 address.
    ///
    /// Errors: [`ScopeError`] (quoting `!text`) when the text is empty, not a host, wildcard domain,
    /// IP or CIDR, names more than a host, or holds a `*` elsewhere than alone or as a leading `*.`.
    pub fn parse_exclusion(text: &str) -> Result<ScopeRule, ScopeError> {
        let t = text.trim();
        let err = || ScopeError(format!("!{t}"));
        if rejection(t, true).is_some() {
            return Err(err());
        }
        if every_host(t) {
            return Ok(ScopeRule::AnyHost);
        }
        parse_rule(t).ok_or_else(err)
    }

    /// True when `host` matches this rule.
    pub fn matches(&self, host: &Host) -> bool {
        match (self, host) {
            (ScopeRule::AnyHost, _) => true,
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

/// True for a bare rule made of `*` and dots only (`*`, `*.*`): every host.
fn every_host(t: &str) -> bool {
    !t.is_empty() && !t.contains("://") && t.split('.').all(|l| l.is_empty() || l == "*")
}

/// The rule a text names once [`rejection`] has let it through; None when it is no host,
/// wildcard domain, IP or CIDR.
fn parse_rule(t: &str) -> Option<ScopeRule> {
    if t.contains('/') && !t.contains("://") {
        return t.parse::<IpNet>().ok().map(ScopeRule::Net);
    }
    if let Some(rest) = t.strip_prefix("*.").or_else(|| t.strip_prefix('.')) {
        return match Host::parse(rest) {
            Ok(Host::Domain(d)) if dns_name(&d) => Some(ScopeRule::DomainTree(d)),
            _ => None,
        };
    }
    // Accept a URL or origin too (`https://a.example/`): its host.
    let host = if t.contains("://") {
        Origin::parse_target(t).ok().map(|o| o.host().clone())?
    } else {
        Host::parse(t).ok()?
    };
    match &host {
        Host::Domain(d) if !dns_name(d) => None,
        _ => Some(ScopeRule::Host(host)),
    }
}

/// True when a normalised domain (lower case, punycode) can be a DNS host name: labels of 1 to 63
/// letters, digits, `-` or `_` (RFC 1035 section 2.3.1, with the underscore real names carry). A
/// rule like `a..example` or `!host` (after `!`: `!!host`) names no host and would match nothing.
fn dns_name(d: &str) -> bool {
    d.split('.').all(|l| {
        !l.is_empty() && l.len() <= 63 && l.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
    })
}

impl fmt::Display for ScopeRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScopeRule::Host(h) => write!(f, "{}", h.name()),
            ScopeRule::DomainTree(d) => write!(f, "*.{d}"),
            ScopeRule::Net(n) => write!(f, "{n}"),
            ScopeRule::AnyHost => write!(f, "*"),
        }
    }
}

/// A scope rule that could not be parsed: the rule as given (an exclusion with its `!` or `-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeError(pub String);

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid scope rule {:?}", self.0)?;
        let t = self.0.trim();
        let why = match t.strip_prefix('!').or_else(|| t.strip_prefix('-')) {
            Some(excluded) => rejection(excluded.trim(), true),
            None => rejection(t, false),
        };
        if let Some(why) = why {
            write!(f, ": {why}")?;
        }
        write!(
            f,
            " (accepted: a host `www.example.com` or its origin `https://www.example.com`, a domain and its \
             subdomains `*.example.com`, an IP `192.0.2.7`, a CIDR block `192.0.2.0/24` (/{MIN_IPV4_PREFIX} or \
             narrower for IPv4, /{MIN_IPV6_PREFIX} or narrower for IPv6); prefix `!` to exclude, e.g. \
             `!admin.example.com`, as widely as `!*`)"
        )
    }
}

/// Why a rule text (without its `!` prefix; `exclusion` tells which it was) is refused although it
/// may parse: it is empty or names more than a host, or, as an inclusion, would match every host,
/// a whole public suffix or a large share of all addresses. None for other texts.
fn rejection(t: &str, exclusion: bool) -> Option<&'static str> {
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
    if exclusion && every_host(t) {
        return None;
    }
    if !exclusion && name.split('.').all(|l| l.is_empty() || l == "*") {
        return Some("it would match every host; name the hosts or domains to scan");
    }
    if name.contains('*') {
        return Some("a wildcard is accepted only as a leading `*.` before a domain");
    }
    if exclusion {
        return None;
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
    if !t.contains("://")
        && let Ok(net) = t.parse::<IpNet>()
    {
        return match net {
            _ if net.prefix_len() == 0 => Some("a /0 block would match every address"),
            IpNet::V4(n) if n.prefix_len() < MIN_IPV4_PREFIX => Some(
                "an IPv4 inclusion block is accepted up to /8 (16,777,216 addresses); a wider one would match a \
                 large share of all addresses",
            ),
            IpNet::V6(n) if n.prefix_len() < MIN_IPV6_PREFIX => Some(
                "an IPv6 inclusion block is accepted up to /16; a wider one would match a large share of all \
                 addresses",
            ),
            _ => None,
        };
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
    /// Parses rules as given on the command line (`!` or `-` prefix = exclusion, read by
    /// [`ScopeRule::parse_exclusion`]; others by [`ScopeRule::parse`]).
    ///
    /// Errors: the first rule that does not parse, quoted as given (with its `!`).
    pub fn parse<S: AsRef<str>>(rules: &[S]) -> Result<Scope, ScopeError> {
        let mut scope = Scope::default();
        for r in rules {
            let r = r.as_ref().trim();
            if r.is_empty() {
                continue;
            }
            if let Some(ex) = r.strip_prefix('!').or_else(|| r.strip_prefix('-')) {
                scope.exclude.push(ScopeRule::parse_exclusion(ex).map_err(|_| ScopeError(r.to_string()))?);
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
            .flat_map(|r| match r {
                ScopeRule::Net(n) => vec![*n],
                ScopeRule::Host(h) => h.ip().map(IpNet::from).into_iter().collect(),
                ScopeRule::DomainTree(_) => Vec::new(),
                ScopeRule::AnyHost => ["0.0.0.0/0", "::/0"].iter().filter_map(|n| n.parse().ok()).collect(),
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
            assert!(rejection(bad.trim(), false).is_some(), "{bad}: {msg}");
        }
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
    fn rules_that_name_no_host_are_refused() {
        for r in ["!!host.example", "a..example", "*.a..example", "ex ample.com", "-!x.example"] {
            assert!(Scope::parse(&[r]).is_err(), "{r} must be refused");
        }
        // The documented forms still parse, `.example.com` as `*.example.com`.
        let s =
            Scope::parse(&[".example.com", "_dmarc.example.org", "xn--bcher-kva.example", "bücher.example"]).unwrap();
        assert!(s.contains_host(&Host::parse("a.example.com").unwrap()));
        assert!(s.contains_host(&Host::parse("_dmarc.example.org").unwrap()));
        assert!(s.contains_host(&Host::parse("xn--bcher-kva.example").unwrap()));
    }

    #[test]
    fn exclusions_may_be_as_wide_as_they_like() {
        // An exclusion cannot widen a scan: every host, a public suffix, every address.
        let s = Scope::parse(&["*.example.org", "192.0.2.0/24", "2001:db8::/32", "!*.com", "!0.0.0.0/0"]).unwrap();
        assert!(s.contains_host(&host("www.example.org")));
        assert!(!s.contains_host(&host("192.0.2.9")), "every IPv4 literal excluded");
        assert!(s.contains_host(&host("2001:db8::1")));
        assert_eq!(s.excludes(), [ScopeRule::DomainTree("com".into()), ScopeRule::Net("0.0.0.0/0".parse().unwrap())]);
        let s = Scope::parse(&["*.example.org", "!*.co.uk", "!::/0"]).unwrap();
        assert!(!s.contains_host(&host("a.b.co.uk")));
        assert!(!s.contains_host(&host("2001:db8::1")));
        for every in ["!*", "-*", "! *"] {
            let s = Scope::parse(&["*.example.org", every]).unwrap();
            assert_eq!(s.excludes(), [ScopeRule::AnyHost], "{every}");
            assert!(!s.contains_host(&host("www.example.org")), "{every}");
            assert!(!s.contains_host(&host("192.0.2.1")), "{every}");
            let nets: Vec<String> = s.excluded_networks().iter().map(ToString::to_string).collect();
            assert_eq!(nets, ["0.0.0.0/0", "::/0"], "{every}: never connected to");
        }
        // Stored as text and read back (the plan of a scan keeps its rules as `!rule`).
        let s = Scope::parse(&["*.example.org", "!*", "!*.com", "!0.0.0.0/0", "!0.0.0.0/1"]).unwrap();
        let text: Vec<String> = s.excludes().iter().map(|r| format!("!{r}")).collect();
        assert_eq!(text, ["!*", "!*.com", "!0.0.0.0/0", "!0.0.0.0/1"]);
        assert_eq!(Scope::parse(&text).unwrap().excludes(), s.excludes());
        // As inclusions they are still refused.
        assert!(ScopeRule::parse("*").is_err());
        assert!(Scope::parse(&["*.com"]).is_err());
    }

    #[test]
    fn a_refused_rule_is_quoted_as_given() {
        for (given, why) in [
            ("!", "empty rule"),
            ("!https://a.example/admin/", "scope is per host"),
            ("!a.example:8443", "scope is per host"),
            ("!www.*.example.com", "leading `*.`"),
            ("-exa mple.com", ""),
        ] {
            let e = Scope::parse(&["*.example.com", given]).unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid scope rule {given:?}")), "{given}: {e}");
            assert!(e.contains(why), "{given}: {e}");
        }
        let e = Scope::parse(&["*.com"]).unwrap_err().to_string();
        assert!(e.starts_with("invalid scope rule \"*.com\": a wildcard over a public suffix"), "{e}");
    }

    #[test]
    fn inclusion_blocks_have_a_minimum_prefix_length() {
        for wide in ["0.0.0.0/1", "128.0.0.0/1", "10.0.0.0/7", "0.0.0.0/4"] {
            let e = ScopeRule::parse(wide).expect_err(wide).to_string();
            assert!(e.contains("an IPv4 inclusion block is accepted up to /8"), "{wide}: {e}");
            assert!(e.contains("/8 or narrower for IPv4, /16 or narrower for IPv6"), "{wide}: {e}");
        }
        for wide in ["::/1", "8000::/1", "2000::/3", "fc00::/7", "2001::/15"] {
            let e = ScopeRule::parse(wide).expect_err(wide).to_string();
            assert!(e.contains("an IPv6 inclusion block is accepted up to /16"), "{wide}: {e}");
        }
        for narrow in ["10.0.0.0/8", "172.16.0.0/12", "2001::/16", "fd00:1::/32", "192.0.2.7/32"] {
            assert!(ScopeRule::parse(narrow).is_ok(), "{narrow}");
        }
        assert_eq!((MIN_IPV4_PREFIX, MIN_IPV6_PREFIX), (8, 16));
        // Exclusions have no minimum.
        assert!(Scope::parse(&["*.example.com", "!0.0.0.0/1", "!::/1"]).is_ok());
    }

    #[test]
    fn idn_rules_match_punycode() {
        let s = Scope::parse(&["*.exämple.com"]).unwrap();
        assert!(s.contains_host(&host("www.xn--exmple-cua.com")));
    }
}
