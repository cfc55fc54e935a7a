//! The [`ProbeContext`] the engine hands to probes and uses for its own verification requests:
//! scheme and scope checks, `--obey-robots`, virtual-host routing, then the transport.

use std::net::IpAddr;
use std::sync::Arc;

use async_trait::async_trait;
use url::Url;
use wellknown_core::{
    FailureClass, FetchFailure, FetchMeta, FetchPolicy, FetchRequest, FetchResult, Method, Origin, ProbeContext, Scope,
    Timestamp,
};

use crate::reach::Reach;
use crate::robots::{ROBOTS_MAX_BODY, RobotsCache, RobotsGate, RobotsRules, capped, is_robots_txt};
use crate::transport::{Clock, Transport};

/// What every request of a scan shares.
pub(crate) struct Net {
    pub transport: Arc<dyn Transport>,
    pub clock: Arc<dyn Clock>,
    pub scope: Scope,
    pub gate: Option<Arc<dyn RobotsGate>>,
    pub robots: RobotsCache,
}

/// Requests to `host:port` are sent to `address` (virtual-host scan of a name that does not resolve).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Via {
    pub host: String,
    pub port: u16,
    pub address: IpAddr,
}

impl Via {
    fn applies(&self, url: &Url) -> bool {
        url.host_str().is_some_and(|h| h.eq_ignore_ascii_case(&self.host))
            && url.port_or_known_default() == Some(self.port)
    }
}

/// A cheap, cloneable context (`'static`, so verification tasks can be spawned with it). One per
/// unit and routing (a virtual-host context is another one): clones share its [`Reach`].
#[derive(Clone)]
pub(crate) struct ScanContext {
    pub net: Arc<Net>,
    pub via: Option<Via>,
    /// The origins this unit's document requests found unreachable (`reach.rs`).
    pub reach: Arc<Reach>,
}

/// A result for a request refused before any byte was sent.
pub(crate) fn refused(url: &Url, class: FailureClass, message: String, now: Timestamp) -> FetchResult {
    let mut meta = FetchMeta::synthetic(url.clone(), None, now);
    meta.status = None;
    meta.failure = Some(FetchFailure { class, message });
    FetchResult { meta, body: Vec::new() }
}

impl ScanContext {
    /// The virtual-host address requests to `url` are sent to, if any.
    fn via_for(&self, url: &Url) -> Option<IpAddr> {
        self.via.as_ref().filter(|v| v.applies(url)).map(|v| v.address)
    }

    /// Sends through the transport (routed to the virtual-host address when it applies). No checks.
    async fn send(&self, request: &FetchRequest) -> FetchResult {
        let scope = &self.net.scope;
        let pred = move |u: &Url| scope.contains_url(u);
        match &self.via {
            Some(v) if v.applies(&request.url) => self.net.transport.fetch_vhost(request, &pred, v.address).await,
            _ => self.net.transport.fetch(request, &pred).await,
        }
    }

    /// The robots.txt rules of `url`'s origin (read once per scan), when the scan obeys robots.txt.
    async fn rules_for(&self, url: &Url) -> Option<Arc<dyn RobotsRules>> {
        let gate = self.net.gate.as_ref()?;
        let origin = Origin::from_url(url).ok()?;
        let cell = self.net.robots.cell(&origin, self.via_for(url));
        let rules = cell
            .get_or_init(|| async {
                let policy = FetchPolicy { max_body_bytes: ROBOTS_MAX_BODY, ..FetchPolicy::default() };
                let result = self.send(&FetchRequest::get(origin.robots_url(), policy)).await;
                self.adopt(gate.as_ref(), &origin, &result)
            })
            .await;
        Some(Arc::clone(rules))
    }

    /// Rules from a robots.txt fetch, with its Crawl-delay applied to the host.
    fn adopt(&self, gate: &dyn RobotsGate, origin: &Origin, result: &FetchResult) -> Arc<dyn RobotsRules> {
        let ok = result.meta.is_success() && result.meta.failure.is_none();
        let rules = gate.rules(&result.meta, if ok { &result.body } else { &[] });
        if let Some(delay) = rules.crawl_delay() {
            self.net.transport.set_host_delay(&origin.host().as_url_host(), capped(delay));
        }
        rules
    }

    /// The full check-then-send path of verification and virtual-host requests.
    pub(crate) async fn request(&self, request: FetchRequest) -> FetchResult {
        self.checked(request, false).await
    }

    /// The check-then-send path. For a `document` request (a probe's), an origin this unit already
    /// found unreachable is not requested again ([`Reach::skip`]), and a connection-level failure is
    /// remembered ([`Reach::learn`]); these come after the scheme, scope and robots checks, so those
    /// refusals stay what they are.
    async fn checked(&self, request: FetchRequest, document: bool) -> FetchResult {
        let now = || self.net.clock.now();
        if !matches!(request.url.scheme(), "http" | "https") {
            let msg = format!("not an http(s) URL: {}", request.url);
            return refused(&request.url, FailureClass::UnsupportedUrl, msg, now());
        }
        if !self.net.scope.contains_url(&request.url) {
            let msg = format!("{} is outside the scan scope; recorded, not requested", request.url);
            return refused(&request.url, FailureClass::OutOfScope, msg, now());
        }
        let robots_txt = is_robots_txt(&request.url);
        if !robots_txt
            && let Some(rules) = self.rules_for(&request.url).await
            && !rules.allowed(&request.url)
        {
            let msg = format!("{} is disallowed by its robots.txt for this scanner (--obey-robots)", request.url);
            return refused(&request.url, FailureClass::RobotsDisallowed, msg, now());
        }
        let first = if document { self.reach.first(&request.url).await } else { None };
        if document && let Some(skipped) = self.reach.skip(&request.url, now()) {
            return skipped;
        }
        if self.reach.is_closed() {
            let msg = format!("{}: not sent: the unit's time budget (--origin-budget) ran out", request.url);
            return refused(&request.url, FailureClass::Timeout, msg, now());
        }
        let result = self.send(&request).await;
        if document {
            self.reach.learn(&request.url, &result.meta);
        }
        drop(first);
        if robots_txt
            && request.method == Method::Get
            && let Some(gate) = &self.net.gate
            && let Ok(origin) = Origin::from_url(&request.url)
        {
            let cell = self.net.robots.cell(&origin, self.via_for(&request.url));
            let _ = cell.get_or_init(|| async { self.adopt(gate.as_ref(), &origin, &result) }).await;
        }
        result
    }
}

#[async_trait]
impl ProbeContext for ScanContext {
    async fn fetch(&self, request: FetchRequest) -> FetchResult {
        self.checked(request, true).await
    }

    fn now(&self) -> Timestamp {
        self.net.clock.now()
    }
}
