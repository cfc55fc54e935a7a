//! Matrix server names (specification appendix "Server names"): `hostname [ ":" port ]`, where the
//! hostname is an IPv4 literal, a bracketed IPv6 literal or a DNS name of `[A-Za-z0-9.-]`, and the
//! port 1 to 5 digits.

use wellknown_core::Host;

/// A server name read from `m.server`: the host (normalised) and the port when one is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerName {
    /// The hostname, lower case, punycode, IPv6 without brackets.
    pub host: Host,
    /// The explicit port, if any.
    pub port: Option<u16>,
}

/// Parses a server name. Errors: a sentence saying what breaks the grammar.
pub fn parse(text: &str) -> Result<ServerName, &'static str> {
    if text.contains("://") {
        return Err("a server name has no scheme");
    }
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let Some((ip, after)) = rest.split_once(']') else { return Err("an IPv6 literal without its closing bracket") };
        if ip.is_empty() || !ip.bytes().all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.') {
            return Err("not an IPv6 literal");
        }
        match after {
            "" => (ip, None),
            p => (ip, Some(p.strip_prefix(':').ok_or("only `:port` may follow an IPv6 literal")?)),
        }
    } else {
        match text.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (text, None),
        }
    };
    if host.is_empty() || host.len() > 255 {
        return Err("the hostname is empty or longer than 255 characters");
    }
    if !text.starts_with('[') && !host.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.') {
        return Err("a DNS name holds only letters, digits, `-` and `.`");
    }
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            Some(p.parse::<u16>().map_err(|_| "the port is over 65535")?)
        }
        Some(_) => return Err("the port is not 1 to 5 digits"),
    };
    let host = Host::parse(host).map_err(|_| "not a host name or IP literal")?;
    Ok(ServerName { host, port })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        let ok = |t: &str| parse(t).map(|s| (s.host.as_url_host(), s.port));
        assert_eq!(ok("matrix.grapheneos.org:443"), Ok(("matrix.grapheneos.org".into(), Some(443))));
        assert_eq!(ok("Dendrite.A8cmatrix.com"), Ok(("dendrite.a8cmatrix.com".into(), None)));
        assert_eq!(ok("[2001:db8::1]:8448"), Ok(("[2001:db8::1]".into(), Some(8448))));
        assert_eq!(ok("192.0.2.7"), Ok(("192.0.2.7".into(), None)));
        assert!(parse("https://matrix.kylekrein.com").is_err());
        assert!(parse("a.example:99999").is_err());
        assert!(parse("a.example:").is_err());
        assert!(parse("a.example/x").is_err());
        assert!(parse("a_b.example").is_err());
        assert!(parse("").is_err());
        assert!(parse("[::1").is_err());
    }
}
