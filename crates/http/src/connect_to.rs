//! curl-style `--connect-to HOST1:PORT1:HOST2:PORT2` overrides: a request to HOST1 on PORT1
//! connects to HOST2 on PORT2 instead, while the Host header, TLS server name (SNI) and certificate
//! check stay those of the URL. An empty HOST1 or PORT1 matches any host or port; an empty HOST2 or
//! PORT2 keeps the original. The first matching entry wins. Addresses reached this way are still
//! subject to the private-address rule.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer};

/// One `--connect-to` entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConnectTo {
    /// Host matched (normalised as the `url` crate writes it), None = any host.
    pub host: Option<String>,
    /// Port matched (explicit or the scheme default), None = any port.
    pub port: Option<u16>,
    /// Host to connect to (name or IP literal, `[v6]` for IPv6), None = the URL's host.
    pub to_host: Option<String>,
    /// Port to connect to, None = the URL's port.
    pub to_port: Option<u16>,
}

/// Why a `--connect-to` entry was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectToParseError(pub String);

impl fmt::Display for ConnectToParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid connect-to entry (expected HOST1:PORT1:HOST2:PORT2, empty fields allowed): {}", self.0)
    }
}

impl std::error::Error for ConnectToParseError {}

impl ConnectTo {
    /// True when this entry applies to `host` (as the `url` crate writes it) on `port`.
    pub fn matches(&self, host: &str, port: u16) -> bool {
        self.host.as_deref().is_none_or(|h| h.eq_ignore_ascii_case(host)) && self.port.is_none_or(|p| p == port)
    }
}

/// Splits on `:` outside `[...]`.
fn fields(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ':' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

impl FromStr for ConnectTo {
    type Err = ConnectToParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why: &str| ConnectToParseError(format!("{s:?}: {why}"));
        let parts = fields(s.trim());
        let [h1, p1, h2, p2] = parts.as_slice() else {
            return Err(err("expected four ':'-separated fields"));
        };
        let port = |p: &str| -> Result<Option<u16>, ConnectToParseError> {
            if p.is_empty() {
                return Ok(None);
            }
            match p.parse::<u16>() {
                Ok(n) if n > 0 => Ok(Some(n)),
                _ => Err(err(&format!("port {p:?} is not a number from 1 to 65535"))),
            }
        };
        let host = |h: &str| -> Result<Option<String>, ConnectToParseError> {
            if h.is_empty() {
                return Ok(None);
            }
            url::Host::parse(h).map(|x| Some(x.to_string())).map_err(|e| err(&format!("host {h:?}: {e}")))
        };
        Ok(ConnectTo { host: host(h1)?, port: port(p1)?, to_host: host(h2)?, to_port: port(p2)? })
    }
}

impl fmt::Display for ConnectTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = |p: Option<u16>| p.map(|n| n.to_string()).unwrap_or_default();
        write!(
            f,
            "{}:{}:{}:{}",
            self.host.as_deref().unwrap_or(""),
            p(self.port),
            self.to_host.as_deref().unwrap_or(""),
            p(self.to_port)
        )
    }
}

impl<'de> Deserialize<'de> for ConnectTo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_curl_syntax() {
        let c: ConnectTo = ":443:127.0.0.1:8443".parse().unwrap();
        assert_eq!(
            c,
            ConnectTo { host: None, port: Some(443), to_host: Some("127.0.0.1".into()), to_port: Some(8443) }
        );
        assert!(c.matches("any.example", 443));
        assert!(!c.matches("any.example", 80));
        let c: ConnectTo = "A.Example:80:[::1]:".parse().unwrap();
        assert_eq!(c.host.as_deref(), Some("a.example"));
        assert_eq!(c.to_host.as_deref(), Some("[::1]"));
        assert_eq!(c.to_port, None);
        assert_eq!(c.to_string(), "a.example:80:[::1]:");
        assert!("a:b:c".parse::<ConnectTo>().is_err());
        assert!(":0:h:1".parse::<ConnectTo>().is_err());
        assert!(":443:h:99999".parse::<ConnectTo>().is_err());
    }
}
