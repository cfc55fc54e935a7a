//! The engine's view of the network and of time.

use std::net::IpAddr;
use std::time::Duration;

use async_trait::async_trait;
use url::Url;
use wellknown_core::{FailureClass, FetchFailure, FetchRequest, FetchResult, Host, Timestamp};

/// The scope predicate handed to the transport with every request.
pub type InScope<'a> = &'a (dyn for<'u> Fn(&'u Url) -> bool + Send + Sync);

/// Something that can fetch a URL: `wellknown-http`'s fetcher in production, fakes in tests.
///
/// Only [`Transport::fetch`] is required; the other methods have conservative defaults (no
/// virtual-host support, no resolution, no crawl delay) so a minimal fake stays minimal.
#[async_trait]
pub trait Transport: Send + Sync {
    /// Fetches `request`. `in_scope` must be checked before the first request and before every
    /// redirect hop; a refusal is returned as a [`wellknown_core::FetchFailure`] of class
    /// `out_of_scope`.
    async fn fetch(&self, request: &FetchRequest, in_scope: InScope<'_>) -> FetchResult;

    /// Like [`Transport::fetch`], but connects to `address` instead of resolving the URL's host,
    /// while sending that host as `Host` header and TLS server name (virtual-host probing).
    /// Default: a `dns_failure` result (virtual hosts unsupported).
    async fn fetch_vhost(&self, request: &FetchRequest, in_scope: InScope<'_>, address: IpAddr) -> FetchResult {
        let _ = (in_scope, address);
        let mut meta = wellknown_core::FetchMeta::synthetic(request.url.clone(), None, Timestamp::now());
        meta.status = None;
        meta.failure = Some(FetchFailure {
            class: FailureClass::DnsFailure,
            message: "this transport cannot send a request to a chosen address".into(),
        });
        FetchResult { meta, body: Vec::new() }
    }

    /// The addresses the transport would connect to for `host` on `port` (after its own overrides).
    /// Default: a `dns_failure`.
    ///
    /// Errors: the classified resolution failure.
    async fn resolve(&self, host: &Host, port: u16) -> Result<Vec<IpAddr>, FetchFailure> {
        let _ = port;
        Err(FetchFailure {
            class: FailureClass::DnsFailure,
            message: format!("{host}: this transport does not resolve"),
        })
    }

    /// How long `host` (a URL host, as in [`Transport::set_host_delay`]) stays rate-limited: the
    /// rest of a `Retry-After` the transport would not wait for (`rate_limited`), or None when it
    /// may be asked now. Default: None.
    fn rate_limited_for(&self, host: &str) -> Option<Duration> {
        let _ = host;
        None
    }

    /// Sets the minimum spacing between request starts to `host` (a robots.txt `Crawl-delay` the
    /// scan honours with `--obey-robots`). `Duration::ZERO` clears it. Default: ignored.
    fn set_host_delay(&self, host: &str, delay: Duration) {
        let _ = (host, delay);
    }
}

/// The scan's clock, injectable so tests and `--now` control expiry judgements.
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Timestamp;
}

/// The wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}
