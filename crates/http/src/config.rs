//! Fetcher settings: timeouts, `--resolve` overrides, private-address policy, politeness, caps.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer};

/// The default `User-Agent`: `wellknown/<version> (+https://github.com/wellknown-scanner/wellknown)`.
pub const DEFAULT_USER_AGENT: &str =
    concat!("wellknown/", env!("CARGO_PKG_VERSION"), " (+https://github.com/wellknown-scanner/wellknown)");

/// Settings of one [`crate::Fetcher`], shared by every request of a scan.
///
/// Deserialisable (figment, TOML, environment): durations accept a number of seconds (`10`, `0.5`)
/// or a string with a unit (`"500ms"`, `"10s"`, `"2m"`); `resolve` entries are curl-style strings
/// (`"example.com:443:127.0.0.1"`). Every field has a default, so a partial table is fine.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FetcherConfig {
    /// `User-Agent` header sent with every request. Default [`DEFAULT_USER_AGENT`].
    pub user_agent: String,
    /// Limit on establishing one connection: TCP connect plus TLS handshake, per address tried.
    /// Default 10 s.
    #[serde(deserialize_with = "de_duration")]
    pub connect_timeout: Duration,
    /// Limit on one HTTP exchange (one redirect hop): connect, request, response head and body,
    /// counted from the moment politeness lets the request start. Default 30 s.
    #[serde(deserialize_with = "de_duration")]
    pub timeout: Duration,
    /// curl-style `HOST:PORT:ADDR[,ADDR...]` overrides: a request to HOST on PORT connects to ADDR
    /// without any DNS lookup. Addresses are still subject to the private-address rule.
    pub resolve: Vec<ResolveOverride>,
    /// curl-style `HOST1:PORT1:HOST2:PORT2` connection overrides (see [`crate::ConnectTo`]): the
    /// Host header and TLS name stay the URL's. Applied before `resolve` and DNS.
    pub connect_to: Vec<crate::ConnectTo>,
    /// Allow loopback, private, link-local and metadata addresses (tests, intranet scans). Default
    /// false.
    pub allow_private: bool,
    /// Address ranges never connected to, whatever name or override led there (the scope's IP and
    /// CIDR exclusions): a connection refused this way fails with class `out_of_scope`. Applies
    /// with `allow_private` too. Default none. Not a configuration key: the scope sets it.
    #[serde(skip)]
    pub excluded_networks: Vec<ipnet::IpNet>,
    /// At most this many requests in flight to one host at a time. Default 2; 0 is treated as 1.
    pub max_concurrent_per_host: usize,
    /// At most this many request starts per second to one host (requests are spaced
    /// `1 / max_rate_per_host` seconds apart). Default 5.0; 0, negative or non-finite disables the
    /// rate limit.
    pub max_rate_per_host: f64,
    /// Absolute body cap in bytes (decoded), above any probe's policy. Default 64 MiB. A body over
    /// it fails with `body_too_large` (the bytes up to the cap are kept, flagged truncated).
    pub max_body_bytes_hard_cap: u64,
    /// How many times a 429 or 503 answer is retried (after waiting as `Retry-After` says).
    /// Default 1.
    pub max_retries_on_429_503: u32,
    /// Longest `Retry-After` (RFC 9110 section 10.2.3) the fetcher waits for before retrying a
    /// 429/503. A longer one is not waited for: the fetch ends with class `rate_limited`
    /// (`FetchMeta::retry_after_secs` holds the value) and the host is rate-limited until the
    /// delay has passed: its later requests fail at once with `rate_limited`, nothing sent (see
    /// [`crate::Fetcher::rate_limited`]). Default 60 s.
    #[serde(deserialize_with = "de_duration")]
    pub max_retry_after: Duration,
    /// Wait before retrying a 429/503 that carries no (usable) `Retry-After`. Default 1 s.
    #[serde(deserialize_with = "de_duration")]
    pub default_backoff: Duration,
    /// PEM files of extra trust anchors (added to the webpki roots), e.g. a private CA.
    pub extra_root_certs_pem: Vec<PathBuf>,
    /// Extra trust anchors as DER certificates (API only; tests use a throwaway CA).
    #[serde(skip)]
    pub extra_root_certs_der: Vec<Vec<u8>>,
    /// Name servers to query (UDP then TCP) instead of the system's `/etc/resolv.conf`. Empty
    /// (default) means the system configuration; when that is unusable, public resolvers are used.
    pub dns_servers: Vec<SocketAddr>,
    /// How long an idle pooled connection is kept for reuse. Default 30 s; zero disables reuse.
    #[serde(deserialize_with = "de_duration")]
    pub pool_idle_timeout: Duration,
    /// Minimum transfer rate in bytes per second, judged from `slow_transfer_grace` after a hop's
    /// start over a sliding window of half the grace (bytes read from the connection, response
    /// head and body alike). A window with some bytes but fewer than `min_transfer_rate` x window
    /// ends the hop with `slow_transfer`; a window with none ends it with `timeout`. The bytes of
    /// the body read so far are kept, flagged truncated. Default 1024 (1 KiB/s, as curl's
    /// `--speed-limit`); 0 turns the rule off (only `timeout` applies).
    pub min_transfer_rate: u64,
    /// How long after a hop's start (when politeness lets it start) the minimum transfer rate
    /// begins to be judged; its half is the window judged. Default 10 s. Zero is treated as 1 ms.
    #[serde(deserialize_with = "de_duration")]
    pub slow_transfer_grace: Duration,
    /// The proxies requests go through (see [`crate::ProxyConfig`]): none by default (every
    /// request direct). With a proxy that resolves names itself (`http`, `https`, `socks5h`),
    /// `resolve` and `connect_to` must be empty ([`crate::Fetcher::new`] refuses them). Not a
    /// configuration key: the binary sets it from `--proxy` or the environment.
    #[serde(skip)]
    pub proxy: Option<crate::ProxyConfig>,
}

impl Default for FetcherConfig {
    fn default() -> Self {
        FetcherConfig {
            user_agent: DEFAULT_USER_AGENT.to_string(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            resolve: Vec::new(),
            connect_to: Vec::new(),
            allow_private: false,
            excluded_networks: Vec::new(),
            max_concurrent_per_host: 2,
            max_rate_per_host: 5.0,
            max_body_bytes_hard_cap: 64 * 1024 * 1024,
            max_retries_on_429_503: 1,
            max_retry_after: Duration::from_secs(60),
            default_backoff: Duration::from_secs(1),
            extra_root_certs_pem: Vec::new(),
            extra_root_certs_der: Vec::new(),
            dns_servers: Vec::new(),
            pool_idle_timeout: Duration::from_secs(30),
            min_transfer_rate: 1024,
            slow_transfer_grace: Duration::from_secs(10),
            proxy: None,
        }
    }
}

/// Which host a [`ResolveOverride`] applies to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OverrideHost {
    /// Every host (curl's `*`).
    Any,
    /// One host, normalised as the `url` crate writes it (lower-case, punycode, `[v6]`).
    Name(String),
}

/// One curl-style `--resolve HOST:PORT:ADDR[,ADDR...]` entry.
///
/// `HOST` may be `*` (any host) or a bracketed IPv6 literal; each `ADDR` may be bracketed
/// (`[::1]`). It applies when both the URL's host and its port (explicit or the scheme default)
/// match, exactly as curl does.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResolveOverride {
    /// Host matched.
    pub host: OverrideHost,
    /// Port matched (the URL's explicit port or its scheme's default).
    pub port: u16,
    /// Addresses connected to, in order.
    pub addrs: Vec<IpAddr>,
}

impl ResolveOverride {
    /// True when this entry applies to `host` (normalised as by the `url` crate) and `port`.
    pub fn matches(&self, host: &str, port: u16) -> bool {
        self.port == port
            && match &self.host {
                OverrideHost::Any => true,
                OverrideHost::Name(h) => h.eq_ignore_ascii_case(host),
            }
    }
}

/// Why a `HOST:PORT:ADDR` string was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveParseError(pub String);

impl fmt::Display for ResolveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid resolve entry (expected HOST:PORT:ADDR[,ADDR...]): {}", self.0)
    }
}

impl std::error::Error for ResolveParseError {}

impl FromStr for ResolveOverride {
    type Err = ResolveParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why: &str| ResolveParseError(format!("{s:?}: {why}"));
        let s = s.trim();
        // HOST: up to the first ':' (or the closing ']' of an IPv6 literal).
        let (host_part, rest) = if let Some(after) = s.strip_prefix('[') {
            let end = after.find(']').ok_or_else(|| err("unclosed '['"))?;
            let rest = after[end + 1..].strip_prefix(':').ok_or_else(|| err("missing ':' after host"))?;
            (&s[..end + 2], rest)
        } else {
            s.split_once(':').ok_or_else(|| err("missing ':' after host"))?
        };
        let (port_part, addr_part) = rest.split_once(':').ok_or_else(|| err("missing ':' after port"))?;
        let port: u16 = port_part.parse().map_err(|_| err("port is not a number from 1 to 65535"))?;
        if port == 0 {
            return Err(err("port 0"));
        }
        let host = if host_part == "*" {
            OverrideHost::Any
        } else if host_part.is_empty() {
            return Err(err("empty host"));
        } else {
            let parsed = url::Host::parse(host_part).map_err(|e| err(&format!("host: {e}")))?;
            OverrideHost::Name(parsed.to_string())
        };
        let mut addrs = Vec::new();
        for a in addr_part.split(',') {
            let a = a.trim();
            let bare = a.strip_prefix('[').and_then(|x| x.strip_suffix(']')).unwrap_or(a);
            let ip: IpAddr = bare.parse().map_err(|_| err(&format!("{a:?} is not an IP address")))?;
            addrs.push(ip);
        }
        if addrs.is_empty() {
            return Err(err("no address"));
        }
        Ok(ResolveOverride { host, port, addrs })
    }
}

impl fmt::Display for ResolveOverride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.host {
            OverrideHost::Any => f.write_str("*")?,
            OverrideHost::Name(h) => f.write_str(h)?,
        }
        write!(f, ":{}:", self.port)?;
        for (i, a) in self.addrs.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match a {
                IpAddr::V4(v4) => write!(f, "{v4}")?,
                IpAddr::V6(v6) => write!(f, "[{v6}]")?,
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for ResolveOverride {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses a duration: a number of seconds (`"10"`, `"0.5"`) or a number with a unit `ms`, `s`,
/// `m` (`"500ms"`, `"2m"`).
pub fn parse_duration(s: &str) -> Option<Duration> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num.trim().parse().ok()?;
    Duration::try_from_secs_f64(v * mult).ok()
}

fn de_duration<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    struct V;
    impl serde::de::Visitor<'_> for V {
        type Value = Duration;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number of seconds or a string such as \"500ms\", \"10s\", \"2m\"")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Duration, E> {
            Ok(Duration::from_secs(v))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Duration, E> {
            u64::try_from(v).map(Duration::from_secs).map_err(|_| E::custom("negative duration"))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Duration, E> {
            Duration::try_from_secs_f64(v).map_err(E::custom)
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Duration, E> {
            parse_duration(v).ok_or_else(|| E::custom(format!("invalid duration {v:?}")))
        }
    }
    d.deserialize_any(V)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_curl_syntax() {
        let r: ResolveOverride = "Example.COM:443:127.0.0.1".parse().unwrap();
        assert_eq!(r.host, OverrideHost::Name("example.com".into()));
        assert_eq!(r.port, 443);
        assert_eq!(r.addrs, vec!["127.0.0.1".parse::<IpAddr>().unwrap()]);
        assert!(r.matches("example.com", 443));
        assert!(!r.matches("example.com", 80));
        assert!(!r.matches("www.example.com", 443));
        assert_eq!(r.to_string(), "example.com:443:127.0.0.1");
    }

    #[test]
    fn parses_ipv6_addresses_and_hosts() {
        let r: ResolveOverride = "a.test:8443:[::1],127.0.0.2".parse().unwrap();
        assert_eq!(r.addrs, vec!["::1".parse::<IpAddr>().unwrap(), "127.0.0.2".parse::<IpAddr>().unwrap()]);
        let r: ResolveOverride = "a.test:80:::1".parse().unwrap();
        assert_eq!(r.addrs, vec!["::1".parse::<IpAddr>().unwrap()]);
        let r: ResolveOverride = "[2001:db8::1]:443:[::1]".parse().unwrap();
        assert_eq!(r.host, OverrideHost::Name("[2001:db8::1]".into()));
        assert_eq!(r.to_string(), "[2001:db8::1]:443:[::1]");
        let r: ResolveOverride = "*:443:10.0.0.1".parse().unwrap();
        assert_eq!(r.host, OverrideHost::Any);
        assert!(r.matches("anything.test", 443));
    }

    #[test]
    fn idn_host_is_punycoded() {
        let r: ResolveOverride = "bücher.example:80:192.0.2.1".parse().unwrap();
        assert_eq!(r.host, OverrideHost::Name("xn--bcher-kva.example".into()));
    }

    #[test]
    fn rejects_bad_entries() {
        for bad in [
            "",
            "a.test",
            "a.test:443",
            "a.test:x:1.2.3.4",
            "a.test:0:1.2.3.4",
            "a.test:443:",
            ":443:1.2.3.4",
            "a.test:443:nope",
            "[::1:443:1.2.3.4",
            "a.test:99999:1.2.3.4",
        ] {
            assert!(bad.parse::<ResolveOverride>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10"), Some(Duration::from_secs(10)));
        assert_eq!(parse_duration("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Some(Duration::from_secs(120)));
        assert_eq!(parse_duration("-1"), None);
        assert_eq!(parse_duration("x"), None);
    }

    #[test]
    fn deserializes_from_json() {
        let c: FetcherConfig = serde_json::from_str(
            r#"{"connect_timeout": 2, "timeout": "500ms", "resolve": ["a.test:443:127.0.0.1"], "max_rate_per_host": 0.5}"#,
        )
        .unwrap();
        assert_eq!(c.connect_timeout, Duration::from_secs(2));
        assert_eq!(c.timeout, Duration::from_millis(500));
        assert_eq!(c.resolve.len(), 1);
        assert_eq!(c.max_rate_per_host, 0.5);
        assert_eq!(c.max_concurrent_per_host, 2);
        assert!(c.user_agent.starts_with("wellknown/"));
        assert_eq!(c.max_retry_after, Duration::from_secs(60));
        assert_eq!((c.min_transfer_rate, c.slow_transfer_grace), (1024, Duration::from_secs(10)));
        let c: FetcherConfig =
            serde_json::from_str(r#"{"min_transfer_rate": 0, "slow_transfer_grace": "300ms"}"#).unwrap();
        assert_eq!((c.min_transfer_rate, c.slow_transfer_grace), (0, Duration::from_millis(300)));
    }
}
