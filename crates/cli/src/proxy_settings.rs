//! The scan's proxy from the settings (`proxy`, `proxy_auth_file`, `proxy_ca`, `use_proxy`) or the
//! proxy environment variables, and what is said about it on standard error. Credentials never
//! appear in a message: proxies are shown as `SCHEME://HOST:PORT`.

use wellknown_http::{ProxyConfig, ProxyCredentials, ProxySource, ProxyUrl};

use crate::config::Settings;

/// The proxies of a scan: `proxy` for every request, else those of the environment read through
/// `var` (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, or lower case; see
/// [`ProxyConfig::from_env`]); `None` with `use_proxy = false` (`--no-proxy`) or when neither names
/// a proxy. The first line of `proxy_auth_file` (`USER:PASSWORD`) replaces the credentials of
/// every proxy; `proxy_ca` files are trusted through the proxy only.
///
/// Errors: a proxy URL or variable that does not parse, an unreadable or malformed credentials
/// file; messages name the setting, variable or file, never the credentials.
pub fn proxy_config(s: &Settings, var: impl Fn(&str) -> Option<String>) -> Result<Option<ProxyConfig>, String> {
    if !s.use_proxy {
        return Ok(None);
    }
    let config = match &s.proxy {
        Some(url) => Some(ProxyConfig::every_request(url.parse::<ProxyUrl>().map_err(|e| format!("--proxy: {e}"))?)),
        None => ProxyConfig::from_env(var).map_err(|e| format!("environment variable {e}"))?,
    };
    let Some(mut config) = config else { return Ok(None) };
    if let Some(path) = &s.proxy_auth_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--proxy-auth-file {}: cannot be read: {e}", path.display()))?;
        let creds =
            ProxyCredentials::parse_line(&text).map_err(|e| format!("--proxy-auth-file {}: {e}", path.display()))?;
        for proxy in [&mut config.http, &mut config.https].into_iter().flatten() {
            *proxy = proxy.clone().with_credentials(creds.clone()).map_err(|e| e.to_string())?;
        }
    }
    config.ca_pem = s.proxy_ca.clone();
    Ok(Some(config))
}

/// What is said on standard error once per scan: where requests go, and for each proxy that
/// resolves names itself (`http`, `https`, `socks5h`) that the scanner cannot see the addresses it
/// reaches, so the private-address rule and the scope's address exclusions hold for IP-literal
/// targets only.
pub fn proxy_notes(config: &ProxyConfig) -> Vec<String> {
    let mut notes = Vec::new();
    let from = match &config.source {
        Some(ProxySource::Environment(vars)) => format!(" (from {})", vars.join(", ")),
        _ => String::new(),
    };
    let route = match (&config.http, &config.https) {
        (Some(h), Some(s)) if h == s => format!("requests go through the proxy {h}"),
        (Some(h), Some(s)) => format!("https requests go through the proxy {s}, http requests through {h}"),
        (None, Some(s)) => format!("https requests go through the proxy {s}, http requests directly"),
        (Some(h), None) => format!("http requests go through the proxy {h}, https requests directly"),
        (None, None) => return notes,
    };
    let except = if config.no_proxy.trim().is_empty() {
        String::new()
    } else {
        format!("; directly to NO_PROXY hosts ({})", config.no_proxy.trim())
    };
    notes.push(format!("wellknown: {route}{from}{except}"));
    for p in config.proxies() {
        if p.scheme.resolves_names() {
            notes.push(format!(
                "wellknown: warning: the proxy {p} resolves site names itself: the scanner cannot see the \
                 addresses it connects to, so the private-address rule and the scope's address exclusions \
                 apply to IP-address targets only (a socks5:// proxy lets the scanner resolve and check them)"
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(proxy: Option<&str>) -> Settings {
        Settings { proxy: proxy.map(str::to_string), ..Settings::default() }
    }

    #[test]
    fn the_flag_wins_over_the_environment() {
        let env = |k: &str| (k == "HTTPS_PROXY").then(|| "http://env:1".to_string());
        let c = proxy_config(&settings(Some("socks5://127.0.0.1:1080")), env).unwrap().unwrap();
        assert_eq!(c.https.as_ref().unwrap().to_string(), "socks5://127.0.0.1:1080");
        assert_eq!(c.http, c.https);
        assert_eq!(c.no_proxy, "");
        let c = proxy_config(&settings(None), env).unwrap().unwrap();
        assert_eq!(c.https.as_ref().unwrap().to_string(), "http://env:1");
        assert_eq!(c.http, None);
        let off = Settings { use_proxy: false, ..settings(Some("http://p:1")) };
        assert_eq!(proxy_config(&off, env).unwrap(), None, "--no-proxy");
        assert_eq!(proxy_config(&settings(None), |_| None).unwrap(), None);
    }

    #[test]
    fn credentials_from_a_file_and_never_in_messages() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("auth");
        std::fs::write(&file, "alice:s3cret\n").unwrap();
        let s = Settings { proxy_auth_file: Some(file.clone()), ..settings(Some("http://127.0.0.1:3128")) };
        let c = proxy_config(&s, |_| None).unwrap().unwrap();
        let creds = c.https.as_ref().unwrap().credentials.clone().unwrap();
        assert_eq!((creds.user.as_str(), creds.password.as_str()), ("alice", "s3cret"));
        let notes = proxy_notes(&c).join("\n");
        assert!(!notes.contains("s3cret"));
        assert!(notes.starts_with("wellknown: requests go through the proxy http://127.0.0.1:3128"), "{notes}");
        assert!(notes.contains("resolves site names itself"), "{notes}");
        std::fs::write(&file, "no colon s3cret").unwrap();
        let e = proxy_config(&s, |_| None).unwrap_err();
        assert!(!e.contains("s3cret") && e.contains("USER:PASSWORD"), "{e}");
        let e = proxy_config(&settings(Some("http://u:s3cret@h:1/path")), |_| None).unwrap_err();
        assert!(!e.contains("s3cret") && e.starts_with("--proxy: "), "{e}");
        let e =
            proxy_config(&settings(None), |k| (k == "ALL_PROXY").then(|| "socks4://u:s3cret@h".into())).unwrap_err();
        assert!(!e.contains("s3cret") && e.starts_with("environment variable ALL_PROXY: "), "{e}");
    }

    #[test]
    fn notes_name_the_variables_and_no_proxy() {
        let env = |k: &str| match k {
            "HTTPS_PROXY" => Some("socks5://127.0.0.1:1080".to_string()),
            "NO_PROXY" => Some("internal.example".to_string()),
            _ => None,
        };
        let c = proxy_config(&settings(None), env).unwrap().unwrap();
        assert_eq!(
            proxy_notes(&c),
            vec![
                "wellknown: https requests go through the proxy socks5://127.0.0.1:1080, http requests directly \
                 (from HTTPS_PROXY, NO_PROXY); directly to NO_PROXY hosts (internal.example)"
                    .to_string()
            ],
            "socks5 resolves here: no warning"
        );
    }
}
