//! Origins: the unit a robots.txt and every `/.well-known/` document applies to.
//!
//! An [`Origin`] is scheme + host + port (RFC 6454), with the equivalences RFC 9309 section 2.3 and
//! Google's robots.txt specification use:
//!
//! * the default port of the scheme (80 http, 443 https, 21 ftp) is the same as no port; any other port
//!   is its own origin (`:8080` is not `:80`);
//! * an internationalised host and its punycode (`xn--`) form are the same host (the `url` crate applies
//!   UTS #46 processing), but an un-accented lookalike is not;
//! * an IP address is its own host, even if a domain name resolves to it;
//! * hosts compare case-insensitively; scheme, subdomain and userinfo rules follow RFC 3986.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde::{Deserialize, Serialize};
use url::Url;

/// The host part of an origin, already normalised (lower-case ASCII, punycode for IDNs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Host {
    /// A registered name in its ASCII (punycode) form, lower case, without a trailing dot.
    Domain(String),
    /// An IPv4 literal.
    Ipv4(Ipv4Addr),
    /// An IPv6 literal (written `[..]` in URLs).
    Ipv6(Ipv6Addr),
}

impl Host {
    /// Parses a bare host name or IP literal (`example.com`, `exämple.com`, `10.0.0.1`, `[::1]`, `::1`).
    ///
    /// Errors: [`OriginError::InvalidHost`] when the text is not a valid host.
    pub fn parse(text: &str) -> Result<Host, OriginError> {
        let t = text.trim();
        if let Ok(ip) = t.parse::<IpAddr>() {
            return Ok(Host::from(ip));
        }
        let url = Url::parse(&format!("http://{t}/")).map_err(|_| OriginError::InvalidHost(t.to_string()))?;
        match url.host() {
            Some(h) if url.path() == "/" && url.port().is_none() && url.username().is_empty() => Ok(Host::from(h)),
            _ => Err(OriginError::InvalidHost(t.to_string())),
        }
    }

    /// The host as written in a URL authority (`example.com`, `10.0.0.1`, `[::1]`).
    pub fn as_url_host(&self) -> String {
        match self {
            Host::Domain(d) => d.clone(),
            Host::Ipv4(a) => a.to_string(),
            Host::Ipv6(a) => format!("[{a}]"),
        }
    }

    /// The IP address when the host is a literal.
    pub fn ip(&self) -> Option<IpAddr> {
        match self {
            Host::Domain(_) => None,
            Host::Ipv4(a) => Some(IpAddr::V4(*a)),
            Host::Ipv6(a) => Some(IpAddr::V6(*a)),
        }
    }

    /// The host as a name for DNS and SNI (no brackets around IPv6).
    pub fn name(&self) -> String {
        match self {
            Host::Domain(d) => d.clone(),
            Host::Ipv4(a) => a.to_string(),
            Host::Ipv6(a) => a.to_string(),
        }
    }
}

impl From<IpAddr> for Host {
    fn from(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(a) => Host::Ipv4(a),
            IpAddr::V6(a) => Host::Ipv6(a),
        }
    }
}

impl<S: AsRef<str>> From<url::Host<S>> for Host {
    fn from(h: url::Host<S>) -> Self {
        match h {
            url::Host::Domain(d) => Host::Domain(d.as_ref().trim_end_matches('.').to_ascii_lowercase()),
            url::Host::Ipv4(a) => Host::Ipv4(a),
            url::Host::Ipv6(a) => Host::Ipv6(a),
        }
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_url_host())
    }
}

impl Serialize for Host {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Host {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Host::parse(&s).map_err(serde::de::Error::custom)
    }
}

/// Why a text or URL is not an origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginError {
    /// The text is not a URL, origin or host name.
    InvalidUrl(String),
    /// The URL has no host (e.g. `mailto:`, `data:`).
    NoHost(String),
    /// The scheme is not one the scanner fetches (only `http`, `https`; `ftp` for scope checks).
    UnsupportedScheme(String),
    /// The host is not a valid domain name or IP literal.
    InvalidHost(String),
}

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OriginError::InvalidUrl(s) => write!(f, "not a URL or host name: {s:?}"),
            OriginError::NoHost(s) => write!(f, "URL has no host: {s:?}"),
            OriginError::UnsupportedScheme(s) => {
                write!(f, "unsupported scheme {s:?} (only http and https are fetched)")
            }
            OriginError::InvalidHost(s) => write!(f, "not a valid host: {s:?}"),
        }
    }
}

impl std::error::Error for OriginError {}

/// A web origin: scheme, host and effective port (RFC 6454; RFC 9309 section 2.3).
///
/// Two origins are equal exactly when a robots.txt fetched from one governs URLs of the other.
/// The port is always the effective port (443 for `https://a.example`), so `https://a.example:443`
/// and `https://a.example` are the same origin.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    scheme: String,
    host: Host,
    port: u16,
}

/// The default port for a scheme the scope rules know (RFC 9309 / Google: 80, 443, 21).
pub fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        "ftp" => Some(21),
        _ => None,
    }
}

impl Origin {
    /// The origin of an absolute URL. Userinfo, path, query and fragment are ignored.
    ///
    /// Errors: [`OriginError::NoHost`] for host-less URLs, [`OriginError::UnsupportedScheme`] for
    /// schemes other than http, https and ftp.
    pub fn from_url(url: &Url) -> Result<Origin, OriginError> {
        let scheme = url.scheme().to_ascii_lowercase();
        let Some(dp) = default_port(&scheme) else {
            return Err(OriginError::UnsupportedScheme(scheme));
        };
        let host = Host::from(url.host().ok_or_else(|| OriginError::NoHost(url.to_string()))?);
        if host == Host::Domain(String::new()) {
            return Err(OriginError::InvalidHost(url.to_string()));
        }
        Ok(Origin { scheme, host, port: url.port().unwrap_or(dp) })
    }

    /// Builds an origin from parts. The scheme must be http, https or ftp; `port` `None` means default.
    pub fn new(scheme: &str, host: Host, port: Option<u16>) -> Result<Origin, OriginError> {
        let scheme = scheme.to_ascii_lowercase();
        let Some(dp) = default_port(&scheme) else {
            return Err(OriginError::UnsupportedScheme(scheme));
        };
        Ok(Origin { scheme, host, port: port.unwrap_or(dp) })
    }

    /// Parses a scan target: an origin (`https://a.example:8443`), any URL (its origin is taken) or a
    /// bare host name (`a.example`, `a.example:8443`), which means https.
    ///
    /// Errors: as [`Origin::from_url`], or [`OriginError::InvalidUrl`] when the text is neither.
    pub fn parse_target(text: &str) -> Result<Origin, OriginError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(OriginError::InvalidUrl(t.to_string()));
        }
        if t.contains("://") {
            let url = Url::parse(t).map_err(|_| OriginError::InvalidUrl(t.to_string()))?;
            return Origin::from_url(&url);
        }
        // A bare host (`a.example`, `a.example:8443`, `a.example/path`) means https. Userinfo is not
        // accepted here: `mailto:a@b.example` is not a host.
        let url = Url::parse(&format!("https://{t}")).map_err(|_| OriginError::InvalidUrl(t.to_string()))?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(OriginError::InvalidUrl(t.to_string()));
        }
        Origin::from_url(&url)
    }

    /// The scheme, lower case (`https`).
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The normalised host.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The effective port (443 for a plain `https://` origin).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// True when the port is the scheme's default.
    pub fn is_default_port(&self) -> bool {
        default_port(&self.scheme) == Some(self.port)
    }

    /// True when this origin is served over TLS.
    pub fn is_https(&self) -> bool {
        self.scheme == "https"
    }

    /// The ASCII serialisation (`https://xn--exmple-cua.com`, `http://a.example:8080`), no trailing slash.
    pub fn ascii(&self) -> String {
        if self.is_default_port() {
            format!("{}://{}", self.scheme, self.host.as_url_host())
        } else {
            format!("{}://{}:{}", self.scheme, self.host.as_url_host(), self.port)
        }
    }

    /// The root URL `scheme://host[:port]/`.
    pub fn root(&self) -> Url {
        // An Origin is only built from valid parts, so this parse cannot fail; fall back defensively.
        Url::parse(&format!("{}/", self.ascii()))
            .unwrap_or_else(|_| Url::parse("http://invalid.invalid/").expect("static URL"))
    }

    /// Joins an absolute path (`/robots.txt`) onto this origin.
    pub fn url_for_path(&self, path: &str) -> Url {
        let root = self.root();
        root.join(path).unwrap_or(root)
    }

    /// The robots.txt URL governing this origin (RFC 9309 section 2.3).
    pub fn robots_url(&self) -> Url {
        self.url_for_path("/robots.txt")
    }

    /// True when `url` belongs to this origin (same scheme, host and effective port), i.e. when a
    /// robots.txt of this origin governs it.
    pub fn contains(&self, url: &Url) -> bool {
        Origin::from_url(url).is_ok_and(|o| &o == self)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.ascii())
    }
}

impl Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.ascii())
    }
}

impl<'de> Deserialize<'de> for Origin {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Origin::parse_target(&s).map_err(serde::de::Error::custom)
    }
}

/// True when `url` is where the robots.txt of its origin lives (RFC 9309 section 2.3: "a file named
/// `/robots.txt` (all lowercase) in the top-level path of the service"): the path is exactly
/// `/robots.txt` and there is no query. Percent-encoded unreserved characters are decoded first
/// (RFC 3986 section 6.2.2.2: `/%72obots.txt` is `/robots.txt`); nothing else is folded, so
/// `/Robots.txt`, `/ROBOTS.TXT`, `/folder/robots.txt`, `/robots.txt/`, `/%2Frobots.txt` and
/// `/robots.txt?x=1` are not, and a file served there governs nothing (Google's robots.txt
/// specification lists `/folder/robots.txt` as "not a valid robots.txt file"). The fragment is
/// ignored (it is never sent). Only the request counts: a robots.txt requested at `/robots.txt` and
/// redirected elsewhere is still the origin's (RFC 9309 section 2.3.1.2), so pass the URL requested,
/// not the final one.
pub fn is_robots_location(url: &Url) -> bool {
    const WANT: &[u8] = b"/robots.txt";
    if url.query().is_some() {
        return false;
    }
    let path = url.path().as_bytes();
    let (mut i, mut n) = (0usize, 0usize);
    while let Some(&c) = path.get(i) {
        let (byte, len) = match c {
            b'%' => match path.get(i + 1..i + 3).and_then(decode_unreserved) {
                Some(d) => (d, 3),
                None => (c, 1),
            },
            _ => (c, 1),
        };
        if WANT.get(n) != Some(&byte) {
            return false;
        }
        n += 1;
        i += len;
    }
    n == WANT.len()
}

/// The character a `%XX` escape stands for when it is an unreserved character (RFC 3986 section
/// 2.3: ALPHA, DIGIT, `-`, `.`, `_`, `~`), which a URI may write either way; None otherwise.
fn decode_unreserved(hex: &[u8]) -> Option<u8> {
    let digit = |c: u8| char::from(c).to_digit(16);
    let [h, l] = hex else { return None };
    let b = u8::try_from(digit(*h)? * 16 + digit(*l)?).ok()?;
    (b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')).then_some(b)
}

/// True when the robots.txt at `robots_url` governs `target` (RFC 9309 section 2.3; Google's rules on
/// default ports, IDN and IP hosts): `robots_url` is the origin's `/robots.txt`
/// ([`is_robots_location`]; a file anywhere else governs nothing) and `target` is on the same
/// origin. Unparseable URLs govern nothing.
pub fn robots_applies(robots_url: &Url, target: &Url) -> bool {
    if !is_robots_location(robots_url) {
        return false;
    }
    match (Origin::from_url(robots_url), Origin::from_url(target)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(s: &str) -> Origin {
        Origin::parse_target(s).expect("origin")
    }

    #[test]
    fn default_ports_are_equivalent() {
        assert_eq!(o("https://a.example:443"), o("https://a.example"));
        assert_eq!(o("http://a.example:80/x"), o("http://a.example"));
        assert_ne!(o("http://a.example:8080"), o("http://a.example"));
        assert_eq!(o("https://a.example:443").ascii(), "https://a.example");
        assert_eq!(o("http://a.example:8080").ascii(), "http://a.example:8080");
    }

    #[test]
    fn idn_is_its_punycode() {
        assert_eq!(o("https://www.exämple.com"), o("https://www.xn--exmple-cua.com"));
        assert_ne!(o("https://www.exämple.com"), o("https://www.example.com"));
        assert_eq!(o("www.exämple.com").ascii(), "https://www.xn--exmple-cua.com");
    }

    #[test]
    fn ip_hosts_and_bare_names() {
        assert_eq!(o("212.96.82.21").host(), &Host::Ipv4(Ipv4Addr::new(212, 96, 82, 21)));
        assert_eq!(o("http://[2001:db8::1]:80/a"), o("http://[2001:db8::1]"));
        assert_eq!(o("a.example:8443").port(), 8443);
        assert_eq!(o("A.Example.").host(), &Host::Domain("a.example".into()));
        assert!(Origin::parse_target("mailto:a@b.example").is_err());
        assert!(Origin::parse_target("").is_err());
        assert!(Origin::parse_target(".").is_err());
        assert!(Origin::parse_target("https://./x").is_err());
    }

    #[test]
    fn robots_location_is_the_lower_case_top_level_file() {
        let at = |s: &str| is_robots_location(&Url::parse(s).unwrap());
        for yes in [
            "https://a.example/robots.txt",
            "http://a.example:8080/robots.txt",
            "ftp://a.example/robots.txt",
            "https://a.example/robots.txt#top",
            "https://a.example/%72obots.txt",
            "https://a.example/robots%2etxt",
            "https://a.example/%72%6F%62ots%2Etxt",
        ] {
            assert!(at(yes), "{yes}");
        }
        for no in [
            "https://a.example/",
            "https://a.example/Robots.txt",
            "https://a.example/ROBOTS.TXT",
            "https://a.example/folder/robots.txt",
            "https://a.example/robots.txt/",
            "https://a.example/robots.txt.bak",
            "https://a.example/robots.tx",
            "https://a.example/%2Frobots.txt",
            "https://a.example/%52obots.txt",
            "https://a.example/robots.txt%",
            "https://a.example/robots.txt?x=1",
            "https://a.example/robots.txt?",
        ] {
            assert!(!at(no), "{no}");
        }
        let page = Url::parse("https://a.example/x").unwrap();
        assert!(robots_applies(&Url::parse("https://a.example/robots.txt").unwrap(), &page));
        assert!(!robots_applies(&Url::parse("https://a.example/folder/robots.txt").unwrap(), &page));
        assert!(!robots_applies(&Url::parse("https://a.example/Robots.txt").unwrap(), &page));
    }

    #[test]
    fn robots_url_and_contains() {
        let origin = o("https://a.example");
        assert_eq!(origin.robots_url().as_str(), "https://a.example/robots.txt");
        assert!(origin.contains(&Url::parse("https://user:pw@A.EXAMPLE:443/x?y").unwrap()));
        assert!(!origin.contains(&Url::parse("http://a.example/").unwrap()));
    }
}
