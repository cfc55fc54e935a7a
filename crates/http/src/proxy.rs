//! Proxies: the proxy URL (`http://`, `https://`, `socks5://`, `socks5h://`), its credentials, the
//! choice of a proxy per request (one proxy for every request, or the `HTTPS_PROXY` / `HTTP_PROXY` /
//! `ALL_PROXY` environment variables by target scheme with `NO_PROXY` exceptions, as curl reads
//! them), and the redaction that keeps credentials out of every message.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use hyper_util::client::proxy::matcher::Matcher;

/// How the scanner talks to a proxy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProxyScheme {
    /// An HTTP proxy over TCP: `CONNECT` tunnels for `https://` targets, absolute-form requests
    /// for `http://` targets (RFC 9112 section 3.2.2).
    Http,
    /// The same over TLS to the proxy (rustls, the proxy's certificate checked).
    Https,
    /// SOCKS5 (RFC 1928) with the target's name resolved by the scanner, so the private-address
    /// rule, `--resolve` and `--connect-to` apply.
    Socks5,
    /// SOCKS5 with the target's name sent to the proxy, which resolves it: the scanner never sees
    /// the target's address.
    Socks5h,
}

impl ProxyScheme {
    /// The URL scheme: `http`, `https`, `socks5`, `socks5h`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProxyScheme::Http => "http",
            ProxyScheme::Https => "https",
            ProxyScheme::Socks5 => "socks5",
            ProxyScheme::Socks5h => "socks5h",
        }
    }

    /// True when the proxy, not the scanner, resolves target names (every scheme but `socks5`).
    pub fn resolves_names(self) -> bool {
        self != ProxyScheme::Socks5
    }
}

/// A proxy's user name and password. Never printed: `Debug` shows `ProxyCredentials(..)`.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyCredentials {
    /// User name (percent-decoded when it came from a URL).
    pub user: String,
    /// Password (percent-decoded when it came from a URL); may be empty, except for a SOCKS5 proxy.
    pub password: String,
}

impl fmt::Debug for ProxyCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProxyCredentials(..)")
    }
}

impl ProxyCredentials {
    /// Reads `USER:PASSWORD` (the first line of a credentials file; the password may hold `:`,
    /// nothing is percent-decoded). Errors: no `:`, or an empty user name. The message never
    /// quotes the text.
    pub fn parse_line(text: &str) -> Result<ProxyCredentials, ProxyParseError> {
        let line = text.lines().next().unwrap_or_default().trim_end_matches('\r');
        match line.split_once(':') {
            Some((user, password)) if !user.is_empty() => {
                Ok(ProxyCredentials { user: user.to_string(), password: password.to_string() })
            }
            _ => Err(ProxyParseError("expected USER:PASSWORD on the first line".to_string())),
        }
    }

    /// The `Proxy-Authorization` value of HTTP Basic authentication (RFC 7617), marked sensitive.
    pub(crate) fn basic(&self) -> http::HeaderValue {
        use base64::Engine as _;
        let token = base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", self.user, self.password));
        let mut v = http::HeaderValue::from_str(&format!("Basic {token}"))
            .unwrap_or_else(|_| http::HeaderValue::from_static("Basic"));
        v.set_sensitive(true);
        v
    }
}

/// A proxy: scheme, host, port and optional credentials. Parsed from `SCHEME://[USER:PASSWORD@]HOST[:PORT]`
/// (no scheme means `http`, as curl reads it; the default port is 1080 for `http` and SOCKS, 443
/// for `https`, as curl's). `Display` writes `SCHEME://HOST:PORT`, never the credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyUrl {
    /// How to talk to the proxy.
    pub scheme: ProxyScheme,
    /// The proxy's host as the `url` crate writes it (`[v6]` for IPv6).
    pub host: String,
    /// The proxy's port.
    pub port: u16,
    /// User name and password, from the URL or a credentials file.
    pub credentials: Option<ProxyCredentials>,
}

/// Why a proxy URL, a credentials file or a proxy environment variable was refused. The message
/// never holds credentials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProxyParseError(pub String);

impl fmt::Display for ProxyParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProxyParseError {}

impl ProxyUrl {
    /// `HOST:PORT` of the proxy, as failure messages and records name it.
    pub fn authority(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

impl fmt::Display for ProxyUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}:{}", self.scheme.as_str(), self.host, self.port)
    }
}

/// `text` with the user information of its authority replaced by `***` (for messages about a
/// proxy URL that did not parse).
fn redacted(text: &str) -> String {
    let start = text.find("://").map_or(0, |i| i + 3);
    let rest = &text[start..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{}***@{}", &text[..start], &rest[at + 1..]),
        None => text.to_string(),
    }
}

impl FromStr for ProxyUrl {
    type Err = ProxyParseError;

    /// Errors: not a URL, an unsupported scheme (`socks4`, `ftp`, ...), no host, a path, query or
    /// fragment, or a SOCKS5 user name or password empty or longer than 255 bytes (RFC 1929).
    /// Messages show the URL with its credentials replaced by `***`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let err = |why: &str| ProxyParseError(format!("proxy {:?}: {why}", redacted(s)));
        let full = if s.contains("://") { s.to_string() } else { format!("http://{s}") };
        let url = url::Url::parse(&full).map_err(|e| err(&e.to_string()))?;
        let scheme = match url.scheme() {
            "http" => ProxyScheme::Http,
            "https" => ProxyScheme::Https,
            "socks5" => ProxyScheme::Socks5,
            "socks5h" => ProxyScheme::Socks5h,
            other => {
                return Err(err(&format!("scheme {other:?} is not supported (http, https, socks5 or socks5h)")));
            }
        };
        let host = url.host_str().filter(|h| !h.is_empty()).ok_or_else(|| err("no host"))?.to_string();
        if !matches!(url.path(), "" | "/") || url.query().is_some() || url.fragment().is_some() {
            return Err(err("a proxy URL has no path, query or fragment"));
        }
        let port = url.port().unwrap_or(if scheme == ProxyScheme::Https { 443 } else { 1080 });
        let credentials = if url.username().is_empty() && url.password().is_none() {
            None
        } else {
            let decode = |t: &str| {
                percent_encoding::percent_decode_str(t)
                    .decode_utf8()
                    .map(|c| c.into_owned())
                    .map_err(|_| err("credentials are not UTF-8"))
            };
            Some(ProxyCredentials {
                user: decode(url.username())?,
                password: decode(url.password().unwrap_or_default())?,
            })
        };
        let proxy = ProxyUrl { scheme, host, port, credentials };
        proxy.check_credentials().map_err(|e| err(&e))?;
        Ok(proxy)
    }
}

impl ProxyUrl {
    /// SOCKS5 user name and password are 1 to 255 bytes each (RFC 1929 section 2). tokio-socks
    /// refuses an empty one before sending anything, so it is refused here, where the user sees it
    /// once, rather than as a failure of every fetch.
    fn check_credentials(&self) -> Result<(), String> {
        let allowed = 1..=255;
        if let (ProxyScheme::Socks5 | ProxyScheme::Socks5h, Some(c)) = (self.scheme, &self.credentials)
            && !(allowed.contains(&c.user.len()) && allowed.contains(&c.password.len()))
        {
            return Err("SOCKS5 user name and password are 1 to 255 bytes each (RFC 1929)".to_string());
        }
        Ok(())
    }

    /// This proxy with `credentials` in place of those of its URL.
    ///
    /// Errors: a SOCKS5 user name or password empty or longer than 255 bytes.
    pub fn with_credentials(mut self, credentials: ProxyCredentials) -> Result<ProxyUrl, ProxyParseError> {
        self.credentials = Some(credentials);
        self.check_credentials().map_err(|e| ProxyParseError(format!("proxy {self}: {e}")))?;
        Ok(self)
    }
}

/// Where the proxy settings came from, for the note on standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProxySource {
    /// `--proxy` (or the `proxy` configuration key): every request.
    Setting,
    /// The environment variables named.
    Environment(Vec<String>),
}

/// The proxies of a scan: one for `http://` targets, one for `https://` targets (either may be
/// absent: such targets are fetched directly), the `NO_PROXY` list of hosts fetched directly, and
/// extra trust anchors for the proxy's TLS and for targets reached through it (an intercepting
/// proxy's CA: trusted for nothing fetched directly).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProxyConfig {
    /// Proxy for `http://` targets.
    pub http: Option<ProxyUrl>,
    /// Proxy for `https://` targets.
    pub https: Option<ProxyUrl>,
    /// curl's `NO_PROXY` syntax: comma-separated names (each with its subdomains; a leading dot is
    /// ignored), IP addresses and CIDR ranges, or `*` for every host. Empty: none.
    pub no_proxy: String,
    /// Where these came from.
    pub source: Option<ProxySource>,
    /// PEM files of extra trust anchors, trusted for the TLS of an `https://` proxy and of targets
    /// reached through any proxy (`--proxy-ca`).
    pub ca_pem: Vec<PathBuf>,
    /// The same as DER (API only; tests use a throwaway CA).
    pub ca_der: Vec<Vec<u8>>,
}

impl ProxyConfig {
    /// One proxy for every request (`--proxy URL`); no `NO_PROXY` exceptions.
    pub fn every_request(proxy: ProxyUrl) -> ProxyConfig {
        ProxyConfig {
            http: Some(proxy.clone()),
            https: Some(proxy),
            source: Some(ProxySource::Setting),
            ..ProxyConfig::default()
        }
    }

    /// The proxies the environment names, read by `var` (a variable unset or empty is `None`):
    /// `https_proxy` / `HTTPS_PROXY` for `https://` targets, `http_proxy` / `HTTP_PROXY` for
    /// `http://` targets, `all_proxy` / `ALL_PROXY` for either when its own is not set, and
    /// `no_proxy` / `NO_PROXY`. The lower-case name wins when both are set, as in curl. `None`
    /// when no proxy variable is set.
    ///
    /// Errors: a proxy variable that does not parse ([`ProxyUrl`]), naming the variable.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<ProxyConfig>, ProxyParseError> {
        let mut used = Vec::new();
        let mut read = |names: [&str; 2]| -> Result<Option<ProxyUrl>, ProxyParseError> {
            for name in names {
                if let Some(v) = var(name).filter(|v| !v.trim().is_empty()) {
                    used.push(name.to_string());
                    return v.parse().map(Some).map_err(|e: ProxyParseError| ProxyParseError(format!("{name}: {e}")));
                }
            }
            Ok(None)
        };
        let all = read(["all_proxy", "ALL_PROXY"])?;
        let http = read(["http_proxy", "HTTP_PROXY"])?.or_else(|| all.clone());
        let https = read(["https_proxy", "HTTPS_PROXY"])?.or(all);
        if http.is_none() && https.is_none() {
            return Ok(None);
        }
        let no_proxy = ["no_proxy", "NO_PROXY"].into_iter().find_map(|n| {
            let v = var(n).filter(|v| !v.trim().is_empty())?;
            used.push(n.to_string());
            Some(v)
        });
        used.sort();
        Ok(Some(ProxyConfig {
            http,
            https,
            no_proxy: no_proxy.unwrap_or_default(),
            source: Some(ProxySource::Environment(used)),
            ..ProxyConfig::default()
        }))
    }

    /// Every distinct proxy configured.
    pub fn proxies(&self) -> Vec<&ProxyUrl> {
        let mut v: Vec<&ProxyUrl> = self.http.iter().chain(self.https.iter()).collect();
        v.dedup();
        v
    }
}

/// The proxy choice of a fetcher: its [`ProxyConfig`] and the `NO_PROXY` matcher.
pub(crate) struct ProxyChoice {
    pub config: ProxyConfig,
    /// hyper-util's curl-compatible `NO_PROXY` matcher (names with their subdomains, IPs, CIDR
    /// ranges, `*`), built with a placeholder proxy: `intercept` answering `None` means "direct".
    no_proxy: Option<Matcher>,
}

impl ProxyChoice {
    pub(crate) fn new(config: ProxyConfig) -> ProxyChoice {
        let no_proxy = (!config.no_proxy.trim().is_empty())
            .then(|| Matcher::builder().all("http://proxy.invalid:1").no(config.no_proxy.as_str()).build());
        ProxyChoice { config, no_proxy }
    }

    /// The proxy for a request to `host` (as the `url` crate writes it) on `port` over `https`,
    /// or `None` to connect directly (no proxy for the scheme, or a `NO_PROXY` host).
    pub(crate) fn for_target(&self, https: bool, host: &str, port: u16) -> Option<&ProxyUrl> {
        let proxy = if https { self.config.https.as_ref() } else { self.config.http.as_ref() }?;
        if let Some(m) = &self.no_proxy {
            let scheme = if https { "https" } else { "http" };
            let uri: Option<http::Uri> = format!("{scheme}://{host}:{port}/").parse().ok();
            if uri.is_some_and(|u| m.intercept(&u).is_none()) {
                return None;
            }
        }
        Some(proxy)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn parses_each_scheme_with_curl_defaults() {
        let p: ProxyUrl = "http://127.0.0.1:8080".parse().unwrap();
        assert_eq!(
            (p.scheme, p.host.as_str(), p.port, p.credentials.is_none()),
            (ProxyScheme::Http, "127.0.0.1", 8080, true)
        );
        let p: ProxyUrl = "proxy.example".parse().unwrap();
        assert_eq!((p.scheme, p.port), (ProxyScheme::Http, 1080), "no scheme is http, port 1080 as curl");
        let p: ProxyUrl = "https://proxy.example/".parse().unwrap();
        assert_eq!((p.scheme, p.port), (ProxyScheme::Https, 443));
        let p: ProxyUrl = "SOCKS5H://[::1]".parse().unwrap();
        assert_eq!((p.scheme, p.host.as_str(), p.port), (ProxyScheme::Socks5h, "[::1]", 1080));
        assert_eq!(p.to_string(), "socks5h://[::1]:1080");
        let p: ProxyUrl = "socks5://u%40x:p%3Ass@10.0.0.1:9050".parse().unwrap();
        assert_eq!(p.scheme, ProxyScheme::Socks5);
        let c = p.credentials.clone().unwrap();
        assert_eq!((c.user.as_str(), c.password.as_str()), ("u@x", "p:ss"));
        assert_eq!(p.to_string(), "socks5://10.0.0.1:9050", "no credentials in Display");
        assert!(!format!("{p:?}").contains("p:ss"), "none in Debug");
        assert!(format!("{p:?}").contains("ProxyCredentials(..)"));
    }

    #[test]
    fn refuses_what_it_cannot_use_without_quoting_credentials() {
        for (text, why) in [
            ("socks4://h:1", "scheme \"socks4\" is not supported"),
            ("ftp://user:secret@h:1", "scheme \"ftp\" is not supported"),
            ("http://user:secret@h:1/path", "no path, query or fragment"),
            ("http://user:secret@:1", "proxy \"http://***@:1\""),
        ] {
            let e = text.parse::<ProxyUrl>().unwrap_err().0;
            assert!(e.contains(why), "{text}: {e}");
            assert!(!e.contains("secret"), "{text}: {e}");
        }
        let long = format!("socks5://{}:p@h:1", "u".repeat(256));
        assert!(long.parse::<ProxyUrl>().unwrap_err().0.contains("255 bytes"));
        for empty in ["socks5h://user@h:1", "socks5://:secret@h:1"] {
            let e = empty.parse::<ProxyUrl>().unwrap_err().0;
            assert!(e.contains("1 to 255 bytes each"), "{empty}: {e}");
            assert!(!e.contains("secret"), "{e}");
        }
        assert!("http://user@h:1".parse::<ProxyUrl>().is_ok(), "an empty password is fine for HTTP Basic");
    }

    #[test]
    fn credentials_file_line() {
        let c = ProxyCredentials::parse_line("alice:pa:ss\nignored\n").unwrap();
        assert_eq!((c.user.as_str(), c.password.as_str()), ("alice", "pa:ss"));
        let c = ProxyCredentials::parse_line("bob:\r\n").unwrap();
        assert_eq!((c.user.as_str(), c.password.as_str()), ("bob", ""));
        let e = ProxyCredentials::parse_line("no-colon-secret").unwrap_err();
        assert!(!e.0.contains("secret"));
        assert!(ProxyCredentials::parse_line(":pw").is_err());
        assert_eq!(c.basic().to_str().unwrap(), "Basic Ym9iOg==");
        let c = ProxyCredentials { user: "Aladdin".into(), password: "open sesame".into() };
        assert_eq!(c.basic().to_str().unwrap(), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", "RFC 7617 section 2");
        assert!(c.basic().is_sensitive());
    }

    #[test]
    fn environment_by_target_scheme() {
        assert_eq!(ProxyConfig::from_env(env(&[("NO_PROXY", "a.example")])).unwrap(), None, "no proxy variable");
        let c = ProxyConfig::from_env(env(&[
            ("HTTPS_PROXY", "http://tls-proxy:3128"),
            ("ALL_PROXY", "socks5h://all:1080"),
            ("no_proxy", "internal.example"),
            ("NO_PROXY", "ignored.example"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(c.https.as_ref().unwrap().to_string(), "http://tls-proxy:3128");
        assert_eq!(c.http.as_ref().unwrap().to_string(), "socks5h://all:1080", "ALL_PROXY when HTTP_PROXY is unset");
        assert_eq!(c.no_proxy, "internal.example", "lower case wins");
        assert_eq!(
            c.source,
            Some(ProxySource::Environment(vec!["ALL_PROXY".into(), "HTTPS_PROXY".into(), "no_proxy".into()]))
        );
        let c = ProxyConfig::from_env(env(&[("http_proxy", "h:1"), ("HTTP_PROXY", "H:2"), ("https_proxy", "")]))
            .unwrap()
            .unwrap();
        assert_eq!(c.http.as_ref().unwrap().authority(), "h:1");
        assert_eq!(c.https, None, "an empty variable is unset: https targets go direct");
        let e = ProxyConfig::from_env(env(&[("HTTPS_PROXY", "socks4://u:secret@h:1")])).unwrap_err();
        assert!(e.0.starts_with("HTTPS_PROXY: proxy \"socks4://***@h:1\""), "{e}");
    }

    #[test]
    fn no_proxy_hosts_go_direct() {
        let mut c = ProxyConfig::every_request("http://127.0.0.1:3128".parse().unwrap());
        c.no_proxy = "direct.example, .also.example,10.0.0.0/8,::1".into();
        let choice = ProxyChoice::new(c);
        let via = |https, host: &str| choice.for_target(https, host, if https { 443 } else { 80 }).is_some();
        assert!(!via(true, "direct.example"));
        assert!(!via(false, "sub.direct.example"), "subdomains too");
        assert!(!via(true, "x.also.example"));
        assert!(!via(true, "10.1.2.3"));
        assert!(!via(true, "[::1]"));
        assert!(via(true, "notdirect.example"));
        assert!(via(false, "a.example"));
        let star = ProxyChoice::new(ProxyConfig {
            no_proxy: "*".into(),
            ..ProxyConfig::every_request("http://p:1".parse().unwrap())
        });
        assert!(star.for_target(true, "a.example", 443).is_none());
        let https_only =
            ProxyChoice::new(ProxyConfig { https: Some("http://p:1".parse().unwrap()), ..ProxyConfig::default() });
        assert!(https_only.for_target(false, "a.example", 80).is_none());
        assert!(https_only.for_target(true, "a.example", 443).is_some());
    }
}
