//! What a scan was asked to do, stored with the scan so `wellknown scan --resume` finishes it the
//! same way: targets, issuers, scope rules (the effective ones, defaults included), probes, depth,
//! verification and robots settings, hop limit. Network settings (timeouts, rate, `--resolve`,
//! `--connect-to`, CA files) are not part of the plan: a resumed scan uses the current ones.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use url::Url;
use wellknown_core::{Origin, Scope, ScopeError};
use wellknown_engine::ScanConfig;

use crate::config::Settings;
use crate::robots_gate::PluginRobotsGate;

/// The stored plan of a scan (JSON in the `scans.plan` column).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredPlan {
    /// The wellknown version that started the scan.
    pub version: String,
    /// Target origins (ASCII serialisation).
    pub targets: Vec<String>,
    /// `--issuer` identifiers.
    pub issuers: Vec<String>,
    /// Effective scope rules (`!` for exclusions).
    pub scope: Vec<String>,
    /// Probe ids (empty = all registered).
    pub probes: Vec<String>,
    /// Feedback depth.
    pub depth: u32,
    /// Verification on.
    pub verify: bool,
    /// Verification requests per unit.
    pub max_verify: usize,
    /// `--obey-robots`.
    pub obey_robots: bool,
    /// Virtual-host attempts on.
    pub vhosts: bool,
    /// Follow-up hop limit.
    pub max_hops: u32,
    /// `--all-registered`.
    pub all_registered: bool,
}

impl StoredPlan {
    /// The plan of a new scan of `targets` with `settings`.
    ///
    /// Scope: the rules given, or, when none includes anything (no rule, or exclusions only), the
    /// targets' registrable domains minus the exclusions.
    ///
    /// Errors: a scope rule that is empty, does not parse or would match everything (see
    /// [`wellknown_core::ScopeRule::parse`]), or an issuer that does not parse.
    pub fn new(targets: &[Origin], settings: &Settings) -> Result<StoredPlan, String> {
        if settings.scope.iter().any(|r| r.trim().is_empty()) {
            return Err(ScopeError(String::new()).to_string());
        }
        let given = Scope::parse(&settings.scope).map_err(|e| e.to_string())?;
        // No inclusion rule (none given, or exclusions only): the default scope, minus the exclusions.
        let scope = if given.is_empty() {
            let mut s = Scope::for_targets(targets);
            for i in &settings.issuer {
                if let Ok(o) = Origin::parse_target(i) {
                    s.add_default_for(o.host());
                }
            }
            for r in given.excludes() {
                s.exclude(r.clone());
            }
            s
        } else {
            given
        };
        let mut rules: Vec<String> = scope.includes().iter().map(ToString::to_string).collect();
        rules.extend(scope.excludes().iter().map(|r| format!("!{r}")));
        let issuers = settings
            .issuer
            .iter()
            .map(|i| issuer_identifier(i).map(|(u, _)| u.to_string()).map_err(|e| format!("--issuer {i:?}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(StoredPlan {
            version: env!("CARGO_PKG_VERSION").to_string(),
            targets: targets.iter().map(Origin::ascii).collect(),
            issuers,
            scope: rules,
            probes: settings.probes.clone(),
            depth: settings.depth,
            verify: settings.verify,
            max_verify: settings.max_verify,
            obey_robots: settings.obey_robots,
            vhosts: settings.vhosts,
            max_hops: settings.max_hops,
            all_registered: settings.all_registered,
        })
    }

    /// The engine configuration: this plan plus the current invocation's concurrency, budgets and
    /// user-agent (whose product token `--obey-robots` obeys).
    ///
    /// Errors: a stored scope rule or issuer that no longer parses.
    pub fn config(&self, settings: &Settings) -> Result<ScanConfig, String> {
        let scope = Scope::parse(&self.scope).map_err(|e| format!("stored scope: {e}"))?;
        let issuers = self
            .issuers
            .iter()
            .map(|i| Url::parse(i).map_err(|e| format!("stored issuer {i:?}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let user_agent = settings.user_agent.clone().unwrap_or_else(|| wellknown_http::DEFAULT_USER_AGENT.to_string());
        Ok(ScanConfig {
            scope,
            probes: self.probes.clone(),
            issuers,
            concurrency: settings.concurrency.max(1),
            max_follow_up_hops: self.max_hops,
            all_registered: self.all_registered,
            verify: self.verify,
            max_verifications_per_unit: self.max_verify,
            verify_concurrency: settings.per_host.clamp(1, 8),
            depth: self.depth,
            vhosts: self.vhosts,
            obey_robots: self.obey_robots.then(|| Arc::new(PluginRobotsGate::new(&user_agent)) as _),
            unit_budget: std::time::Duration::try_from_secs_f64(settings.origin_budget)
                .unwrap_or(std::time::Duration::from_secs(300)),
            max_follow_ups_per_origin: settings.max_follow_ups,
            max_candidates_per_unit: settings.max_candidates,
            max_revealed_per_document: settings.max_revealed_per_document,
            max_revealed_per_unit: settings.max_revealed,
            max_vhost_tries_per_origin: settings.max_vhost_tries,
            catch_all_check: settings.catch_all_check,
            retry_rate_limited: settings.retry_rate_limited,
            ..ScanConfig::default()
        })
    }
}

/// An `--issuer` as the scan uses it: the URL without a user name or password (RFC 3986 section
/// 3.2.1 deprecates `user:password@`; like a target's, they are never sent, recorded or stored), and
/// whether it had them. The rest is the URL as parsed (WHATWG URL): scheme and host in lower case,
/// a default port dropped, an empty path written `/` (`HTTPS://IdP.example:443` is
/// `https://idp.example/`); the path, its case and a trailing `/` are kept as written, since
/// clients compare issuers as strings (OpenID Connect Discovery 1.0 section 4.3, RFC 8414
/// section 3.3).
///
/// Errors: text that is not an absolute http(s) URL with a host; a query or fragment (RFC 8414
/// section 2: an issuer has none); a metadata URL given as an issuer (a path with
/// `/.well-known/openid-configuration` or `/.well-known/oauth-authorization-server`), naming the
/// issuer it belongs to.
pub fn issuer_identifier(text: &str) -> Result<(Url, bool), String> {
    use wellknown_oauth_metadata::{OIDC_SUFFIX, RFC8414_SUFFIX, expected_issuer_from};
    let mut url = Url::parse(text.trim()).map_err(|e| e.to_string())?;
    if !matches!(url.scheme(), "http" | "https") || !url.has_host() {
        return Err("an issuer identifier is an http(s) URL with a host (https://idp.example/tenant)".into());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("an issuer identifier has no query or fragment component (RFC 8414 section 2); remove it".into());
    }
    let credentials = !url.username().is_empty() || url.password().is_some();
    let _ = url.set_username("");
    let _ = url.set_password(None);
    for suffix in [OIDC_SUFFIX, RFC8414_SUFFIX] {
        if url.path().contains(&format!("/.well-known/{suffix}"))
            && let Some((issuer, _)) = expected_issuer_from(&url, suffix)
        {
            return Err(format!(
                "this is the metadata URL of the issuer {issuer:?}, not an issuer identifier: give --issuer {issuer} \
                 (the scan builds both metadata URLs from it), or the URL itself as a target"
            ));
        }
    }
    Ok((url, credentials))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers_lose_credentials_and_keep_the_rest_as_given() {
        let (u, cred) = issuer_identifier("https://joe:hunter2@idp.example/t1/").unwrap();
        assert_eq!((u.as_str(), cred), ("https://idp.example/t1/", true));
        let (u, cred) = issuer_identifier("https://idp.example/t1").unwrap();
        assert_eq!((u.as_str(), cred), ("https://idp.example/t1", false));
        let (u, _) = issuer_identifier("https://idp.example").unwrap();
        assert_eq!(u.as_str(), "https://idp.example/");
        // Parsed as a URL: host and scheme lower-cased, default port dropped; the path as written.
        let (u, _) = issuer_identifier("HTTPS://IdP.Example:443/Tenant/").unwrap();
        assert_eq!(u.as_str(), "https://idp.example/Tenant/");
        let (u, _) = issuer_identifier("https://idp.example:8443/t,1").unwrap();
        assert_eq!(u.as_str(), "https://idp.example:8443/t,1");
    }

    #[test]
    fn query_fragment_other_schemes_and_metadata_urls_are_refused() {
        for bad in ["https://idp.example/t1?x=1", "https://idp.example/t1#f", "https://idp.example/t1?"] {
            let e = issuer_identifier(bad).unwrap_err();
            assert!(e.contains("no query or fragment"), "{bad}: {e}");
        }
        assert!(issuer_identifier("ftp://idp.example/").unwrap_err().contains("http(s) URL"));
        assert!(issuer_identifier("idp.example").is_err());
        let e = issuer_identifier("https://idp.example/t1/.well-known/openid-configuration").unwrap_err();
        assert!(e.contains("metadata URL of the issuer \"https://idp.example/t1\""), "{e}");
        assert!(e.contains("give --issuer https://idp.example/t1 "), "{e}");
        let e = issuer_identifier("https://idp.example/.well-known/oauth-authorization-server/t1").unwrap_err();
        assert!(e.contains("\"https://idp.example/t1\""), "{e}");
        let e = issuer_identifier("https://idp.example/.well-known/openid-configuration").unwrap_err();
        assert!(e.contains("\"https://idp.example\""), "{e}");
    }
}
