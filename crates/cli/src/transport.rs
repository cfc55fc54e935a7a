//! Adapts `wellknown-http`'s fetcher to the engine's [`Transport`].

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use url::Url;
use wellknown_core::{FailureClass, FetchFailure, FetchRequest, FetchResult, Host};
use wellknown_engine::Transport;
use wellknown_http::{Fetcher, FetcherConfig};

use crate::config::Settings;
use crate::progress::NetStats;

/// How long an idle connection is kept for reuse (see [`HttpTransport::from_settings`]).
pub const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(2);

/// The production transport: one [`Fetcher`] for the whole scan.
pub struct HttpTransport {
    fetcher: Fetcher,
    stats: Arc<NetStats>,
}

impl HttpTransport {
    /// Builds the fetcher from settings.
    ///
    /// Says on standard error where requests go when a proxy is configured ([`crate::proxy_settings`]).
    ///
    /// Errors: a malformed `--resolve` entry, an unreadable CA file, a TLS set-up failure, a proxy
    /// that does not parse, or `--resolve` / `--connect-to` with a proxy that resolves names itself.
    pub fn from_settings(s: &Settings, scope: &wellknown_core::Scope) -> Result<HttpTransport, String> {
        let mut cfg = FetcherConfig::default();
        if let Some(ua) = &s.user_agent {
            cfg.user_agent = ua.clone();
        }
        cfg.connect_timeout = secs(s.connect_timeout, "connect_timeout")?;
        cfg.timeout = secs(s.timeout, "timeout")?;
        cfg.min_transfer_rate = s.min_rate;
        cfg.slow_transfer_grace = secs(s.slow_grace, "slow_grace")?;
        cfg.resolve = s
            .resolve
            .iter()
            .map(|r| r.parse().map_err(|e| format!("--resolve {r:?}: {e}")))
            .collect::<Result<_, _>>()?;
        cfg.connect_to = s
            .connect_to
            .iter()
            .map(|r| r.parse().map_err(|e| format!("--connect-to {r:?}: {e}")))
            .collect::<Result<_, _>>()?;
        cfg.allow_private = s.allow_private;
        cfg.excluded_networks = scope.excluded_networks();
        cfg.max_concurrent_per_host = s.per_host.max(1);
        cfg.max_rate_per_host = s.rate;
        cfg.extra_root_certs_pem = s.ca_cert.clone();
        cfg.proxy = crate::proxy_settings::proxy_config(s, |k| std::env::var(k).ok())?;
        match &cfg.proxy {
            Some(p) => crate::proxy_settings::proxy_notes(p).iter().for_each(|n| crate::note!("{n}")),
            None if !s.proxy_ca.is_empty() || s.proxy_auth_file.is_some() => {
                crate::note!("wellknown: warning: --proxy-ca and --proxy-auth-file are unused: no proxy is configured")
            }
            None => {}
        }
        // A scan visits a host in one burst (its documents, then its verification requests), then
        // moves on: keeping idle connections (TLS and HTTP/2 state, tens of KiB each) for the
        // fetcher's default 30 s would hold thousands of finished hosts' connections in memory.
        cfg.pool_idle_timeout = POOL_IDLE_TIMEOUT;
        let fetcher = Fetcher::new(cfg).map_err(|e| e.to_string())?;
        Ok(HttpTransport { fetcher, stats: Arc::default() })
    }
}

impl HttpTransport {
    /// Requests in flight and bytes received so far (for the progress line).
    pub fn stats(&self) -> Arc<NetStats> {
        Arc::clone(&self.stats)
    }

    async fn counted(&self, fetch: impl std::future::Future<Output = FetchResult>) -> FetchResult {
        self.stats.start();
        let result = fetch.await;
        self.stats.end(result.meta.size);
        result
    }
}

fn secs(v: f64, key: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(v).map_err(|_| format!("{key} must be a non-negative number of seconds, got {v}"))
}

#[async_trait]
impl Transport for HttpTransport {
    async fn fetch(
        &self,
        request: &FetchRequest,
        in_scope: &(dyn for<'u> Fn(&'u Url) -> bool + Send + Sync),
    ) -> FetchResult {
        self.counted(self.fetcher.fetch(request, in_scope)).await
    }

    async fn fetch_vhost(
        &self,
        request: &FetchRequest,
        in_scope: &(dyn for<'u> Fn(&'u Url) -> bool + Send + Sync),
        address: IpAddr,
    ) -> FetchResult {
        self.counted(self.fetcher.fetch_vhost(request, in_scope, address)).await
    }

    /// The addresses the fetcher would dial for `host:port`: a `--connect-to` entry first (its host
    /// and port), then a `--resolve` entry, an IP literal, and finally the system resolver.
    async fn resolve(&self, host: &Host, port: u16) -> Result<Vec<IpAddr>, FetchFailure> {
        let cfg = self.fetcher.config();
        let name = host.as_url_host();
        let over = cfg.connect_to.iter().find(|c| c.matches(&name, port));
        let dial_port = over.and_then(|c| c.to_port).unwrap_or(port);
        let dial_host = over.and_then(|c| c.to_host.clone()).unwrap_or(name);
        if let Some(r) = cfg.resolve.iter().find(|r| r.matches(&dial_host, dial_port)) {
            return Ok(r.addrs.clone());
        }
        if let Ok(ip) = dial_host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
            return Ok(vec![ip]);
        }
        match tokio::net::lookup_host((dial_host.as_str(), dial_port)).await {
            Ok(addrs) => {
                let mut ips: Vec<IpAddr> = addrs.map(|a| a.ip()).collect();
                ips.dedup();
                if ips.is_empty() {
                    Err(FetchFailure { class: FailureClass::DnsNoAnswer, message: format!("{dial_host}: no address") })
                } else {
                    Ok(ips)
                }
            }
            Err(e) => Err(FetchFailure { class: FailureClass::DnsFailure, message: format!("{dial_host}: {e}") }),
        }
    }

    fn set_host_delay(&self, host: &str, delay: Duration) {
        self.fetcher.set_host_delay(host, delay);
    }

    fn rate_limited_for(&self, host: &str) -> Option<Duration> {
        self.fetcher.rate_limited(host).map(|l| l.remaining(wellknown_core::Timestamp::now()))
    }
}
