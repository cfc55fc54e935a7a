//! The [`Fetcher`]: one client for a whole scan.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Request, Response, Uri};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use sha2::{Digest, Sha256};
use tokio::time::Instant;
use url::{Position, Url};
use wellknown_core::{
    FailureClass, FetchFailure, FetchMeta, FetchRequest, FetchResult, Method, RedirectHop, Timestamp,
};

use crate::config::FetcherConfig;
use crate::connect::{Connector, Endpoint, ProxyRoute, ReqBody, Sender, hyper_failure};
use crate::dns::Dns;
use crate::error::{FetcherError, failure};
use crate::politeness::{HostPermit, Politeness, RateLimit, later};
use crate::pool::{Pool, PoolKey};
use crate::proxy::{ProxyChoice, ProxyConfig};
use crate::retry_after::parse_retry_after;
use crate::transfer_rate::{Meter, RateRule, Stop, seconds, watch};
use wellknown_decode::{BodyDecoder, DecodeError, parse_content_encoding};

/// The `Accept-Encoding` sent when the policy asks for decoded content.
pub const ACCEPT_ENCODING: &str = "gzip, deflate, br";

/// The scan's HTTP client: DNS, connections, TLS, redirects, caps, decoding and per-host
/// politeness. Cheap to clone (an `Arc` inside); every clone shares the same connection pool and
/// the same per-host budgets.
#[derive(Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

struct Inner {
    config: FetcherConfig,
    connector: Connector,
    pool: Pool,
    politeness: Politeness,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher").field("config", &self.inner.config).finish_non_exhaustive()
    }
}

/// A response head received for one hop, with what is needed to read its body.
struct Hop {
    response: Response<Incoming>,
    /// Held until the body is read: the host's concurrency slot.
    _permit: HostPermit,
    deadline: Instant,
    /// The hop's bytes and the minimum-rate rule, also while its body is read.
    meter: Meter,
    sender: Sender,
    key: PoolKey,
    /// Set when this 429/503 asked for a `Retry-After` longer than `max_retry_after`: the host is
    /// now rate-limited and the answer ends the fetch with `rate_limited`.
    limited: Option<RateLimit>,
}

/// A hop that produced no response to read: its failure, and for `rate_limited` the delay asked.
struct HopFailure {
    failure: FetchFailure,
    retry_after_secs: Option<u64>,
}

impl From<FetchFailure> for HopFailure {
    fn from(failure: FetchFailure) -> HopFailure {
        HopFailure { failure, retry_after_secs: None }
    }
}

/// How reading a body ended.
enum BodyEnd {
    Complete,
    /// The decoded cap was reached (more bytes were offered).
    Full,
    /// The raw (encoded) bytes passed the hard cap.
    RawOverCap,
    /// Given up (deadline, silence or trickle): `meta.failure` says why.
    Stopped,
}

impl Fetcher {
    /// Builds the client: resolver (see [`FetcherConfig::dns_servers`]), TLS roots (webpki roots
    /// plus `extra_root_certs_pem` and `extra_root_certs_der`), ring crypto provider, ALPN `h2`
    /// and `http/1.1`.
    ///
    /// Errors: an unreadable or empty PEM file, a certificate rustls rejects as a trust anchor.
    pub fn new(config: FetcherConfig) -> Result<Fetcher, FetcherError> {
        let tls = Arc::new(tls_config(&config, None, ALPN_H2_H1)?);
        let proxy = match &config.proxy {
            Some(p) => Some(proxy_route(&config, p)?),
            None => None,
        };
        let connector = Connector {
            dns: Dns::new(&config),
            tls,
            allow_private: config.allow_private,
            excluded_networks: config.excluded_networks.clone(),
            connect_timeout: config.connect_timeout,
            connect_overrides: config.connect_to.clone(),
            proxy,
        };
        let inner = Inner {
            pool: Pool::new(config.pool_idle_timeout),
            politeness: Politeness::new(config.max_concurrent_per_host, config.max_rate_per_host),
            connector,
            config,
        };
        Ok(Fetcher { inner: Arc::new(inner) })
    }

    /// The configuration this fetcher was built with.
    pub fn config(&self) -> &FetcherConfig {
        &self.inner.config
    }

    /// Sets the minimum spacing between request starts to `host` (e.g. a robots.txt
    /// `Crawl-delay` the engine decided to honour). The effective spacing is the larger of this
    /// and `1 / max_rate_per_host`. `Duration::ZERO` clears it. `host` is matched
    /// case-insensitively against URL hosts (as the `url` crate writes them, `[v6]` for IPv6).
    pub fn set_host_delay(&self, host: &str, delay: Duration) {
        self.inner.politeness.set_delay(host, (!delay.is_zero()).then_some(delay));
    }

    /// The rate limit of `host` while it lasts: it answered 429 or 503 with a `Retry-After` longer
    /// than [`FetcherConfig::max_retry_after`], and the delay has not passed. Until then every
    /// request to it fails at once with `rate_limited` (nothing is sent) and `None` is answered
    /// once the delay is over. `host` is the politeness key: a URL host as the `url` crate writes
    /// it (`[v6]` for IPv6), matched case-insensitively, or for [`Fetcher::fetch_vhost`] the forced
    /// address (`192.0.2.1`, `2001:db8::1`).
    pub fn rate_limited(&self, host: &str) -> Option<RateLimit> {
        self.inner.politeness.limited(host)
    }

    /// Fetches `req`, following redirects as its policy says. Never fails as a Rust error: every
    /// outcome is a [`FetchResult`] whose `meta.failure` classifies what went wrong.
    ///
    /// `in_scope` is asked before the first request and before following every redirect; a
    /// refusal ends the fetch with `out_of_scope`.
    pub async fn fetch(&self, req: &FetchRequest, in_scope: &(dyn Fn(&Url) -> bool + Send + Sync)) -> FetchResult {
        self.run(req, in_scope, None).await
    }

    /// Like [`Fetcher::fetch`] but connects to `connect_to` (on the URL's port) instead of
    /// resolving the URL's host, while sending that host as `Host` and TLS SNI: virtual-host
    /// probing of a revealed name against a known address. Redirects to the same host and port
    /// keep using `connect_to`; others are resolved normally. The private-address rule applies to
    /// `connect_to`. Politeness is keyed by `connect_to` (the server actually hit).
    pub async fn fetch_vhost(
        &self,
        req: &FetchRequest,
        in_scope: &(dyn Fn(&Url) -> bool + Send + Sync),
        connect_to: IpAddr,
    ) -> FetchResult {
        self.run(req, in_scope, Some(connect_to)).await
    }

    async fn run(
        &self,
        req: &FetchRequest,
        in_scope: &(dyn Fn(&Url) -> bool + Send + Sync),
        connect_to: Option<IpAddr>,
    ) -> FetchResult {
        let mut meta = FetchMeta {
            requested_url: req.url.clone(),
            url: req.url.clone(),
            redirect_chain: Vec::new(),
            status: None,
            content_type: None,
            content_encoding: None,
            fetched_at: Timestamp::now(),
            size: 0,
            sha256: None,
            truncated: false,
            failure: None,
            declared_by: Vec::new(),
            unfollowed_location: None,
            location_credentials: Vec::new(),
            retry_after_secs: None,
        };
        let mut url = req.url.clone();
        url.set_fragment(None);
        if !is_http(&url) {
            return failed(
                meta,
                failure(FailureClass::UnsupportedUrl, format!("{url}: not an http(s) URL with a host")),
            );
        }
        if !in_scope(&url) {
            return failed(meta, failure(FailureClass::OutOfScope, format!("{url} is outside the scan's scope")));
        }
        let origin_host = (url.host_str().map(str::to_string), url.port_or_known_default());
        let mut visited: HashSet<String> = HashSet::new();
        visited.insert(url.as_str().to_string());
        loop {
            meta.url = url.clone();
            let forced =
                connect_to.filter(|_| (url.host_str().map(str::to_string), url.port_or_known_default()) == origin_host);
            let hop = match self.exchange(&url, req, forced).await {
                Ok(h) => h,
                Err(f) => {
                    meta.retry_after_secs = f.retry_after_secs;
                    return failed(meta, f.failure);
                }
            };
            let status = hop.response.status().as_u16();
            if let Some(limit) = &hop.limited {
                record_head(&mut meta, &hop.response);
                meta.retry_after_secs = Some(limit.retry_after_secs);
                let why = format!(
                    "{url} answered {status} with Retry-After: {} s, longer than the fetcher waits ({:?}); not \
                     retried, and {} is rate-limited until {:.0}",
                    limit.retry_after_secs,
                    self.inner.config.max_retry_after,
                    url.host_str().unwrap_or_default(),
                    limit.until
                );
                self.recycle(hop.response, hop.sender, hop.key, hop.deadline).await;
                return failed(meta, failure(FailureClass::RateLimited, why));
            }
            if req.policy.follow_redirects && matches!(status, 301 | 302 | 303 | 307 | 308) {
                let location = hop.response.headers().get(header::LOCATION).map(|v| location_text(v.as_bytes()));
                // This response's hop index, as in the locator `{"redirect": N}`.
                let hop_index = u32::try_from(meta.redirect_chain.len()).unwrap_or(u32::MAX);
                let shown = location.as_deref().map(redact_userinfo);
                if shown.as_ref().is_some_and(|(_, had)| *had) {
                    meta.location_credentials.push(hop_index);
                }
                let next = location.as_deref().filter(|l| !l.is_empty()).and_then(|l| url.join(l).ok());
                let Some(mut next) = next else {
                    // Not followed: the answer is this response (status kept, `url` = the URL fetched).
                    record_head(&mut meta, &hop.response);
                    self.recycle(hop.response, hop.sender, hop.key, hop.deadline).await;
                    let why = match shown {
                        None => format!("{url} answered {status} without a Location"),
                        Some((l, _)) => format!("{url} answered {status} with an unusable Location {l:?}"),
                    };
                    return failed(meta, failure(FailureClass::InvalidRedirect, why));
                };
                next.set_fragment(None);
                drop_userinfo(&mut next);
                if !is_http(&next) {
                    // Not followed either, for the same reason: nothing here can fetch it. The target
                    // is kept apart, so `url` and `status` still name the response that redirected.
                    record_head(&mut meta, &hop.response);
                    self.recycle(hop.response, hop.sender, hop.key, hop.deadline).await;
                    let why = format!("{url} answered {status} with a redirect to {next}: not an http(s) URL");
                    meta.unfollowed_location = Some(next);
                    return failed(meta, failure(FailureClass::InvalidRedirect, why));
                }
                self.recycle(hop.response, hop.sender, hop.key, hop.deadline).await;
                meta.redirect_chain.push(RedirectHop { url: url.clone(), status });
                meta.url = next.clone();
                if !visited.insert(next.as_str().to_string()) {
                    return failed(
                        meta,
                        failure(FailureClass::RedirectLoop, format!("{url} redirects back to {next}")),
                    );
                }
                if meta.redirect_chain.len() > usize::from(req.policy.max_redirects) {
                    return failed(
                        meta,
                        failure(
                            FailureClass::TooManyRedirects,
                            format!("more than {} redirects (next: {next})", req.policy.max_redirects),
                        ),
                    );
                }
                if !in_scope(&next) {
                    return failed(
                        meta,
                        failure(
                            FailureClass::OutOfScope,
                            format!("{url} redirects to {next}, outside the scan's scope"),
                        ),
                    );
                }
                url = next;
                continue;
            }
            return self.complete(meta, hop, req).await;
        }
    }

    /// One hop: politeness, request, response head; 429/503 retried after the back-off, or the
    /// host marked rate-limited when the `Retry-After` is longer than `max_retry_after`.
    async fn exchange(&self, url: &Url, req: &FetchRequest, connect_to: Option<IpAddr>) -> Result<Hop, HopFailure> {
        let cfg = &self.inner.config;
        let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
        let budget_key = connect_to.map_or_else(|| host.clone(), |ip| ip.to_string());
        let parts = RequestParts::new(url, req, cfg)?;
        let rule = RateRule::new(cfg.min_transfer_rate, cfg.slow_transfer_grace);
        let mut retries = 0;
        loop {
            self.refuse_if_limited(url, &budget_key)?;
            let permit = self.inner.politeness.acquire(&budget_key).await;
            // Another request may have been told to wait while this one queued.
            self.refuse_if_limited(url, &budget_key)?;
            let started = Instant::now();
            let deadline = later(started, cfg.timeout);
            let meter = Meter::new(rule, started);
            let sent = watch(&meter, deadline, self.send(url, &parts, connect_to, &meter)).await;
            let (response, sender, key) = match sent {
                Err(stop) => {
                    meter.close_connection();
                    return Err(self.stopped(url, stop, &meter, None).into());
                }
                Ok(r) => r?,
            };
            let status = response.status().as_u16();
            if status == 429 || status == 503 {
                let asked = response
                    .headers()
                    .get(header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| parse_retry_after(v, Timestamp::now()));
                if let Some(asked) = asked.filter(|d| *d > cfg.max_retry_after) {
                    let limit = RateLimit::new(status, asked.as_secs(), Timestamp::now());
                    tracing::debug!(%url, status, ?asked, "Retry-After over the cap: host rate-limited");
                    self.inner.politeness.limit(&budget_key, limit.clone(), asked);
                    return Ok(Hop { response, _permit: permit, deadline, meter, sender, key, limited: Some(limit) });
                }
                let wait = asked.unwrap_or(cfg.default_backoff);
                self.inner.politeness.back_off(&budget_key, wait);
                if retries < cfg.max_retries_on_429_503 {
                    retries += 1;
                    tracing::debug!(%url, status, ?wait, "backing off before retry");
                    drop(permit);
                    self.recycle(response, sender, key, deadline).await;
                    continue;
                }
            }
            return Ok(Hop { response, _permit: permit, deadline, meter, sender, key, limited: None });
        }
    }

    /// Fails at once, nothing sent, while `budget_key` is rate-limited.
    fn refuse_if_limited(&self, url: &Url, budget_key: &str) -> Result<(), HopFailure> {
        let Some(limit) = self.inner.politeness.limited(budget_key) else { return Ok(()) };
        let why = format!(
            "{url}: not requested: {budget_key} answered {} with Retry-After: {} s at {:.0}; rate-limited until {:.0}",
            limit.status, limit.retry_after_secs, limit.since, limit.until
        );
        Err(HopFailure {
            failure: failure(FailureClass::RateLimited, why),
            retry_after_secs: Some(limit.retry_after_secs),
        })
    }

    /// The failure of a hop given up by [`watch`]; `status` is known once the head arrived.
    fn stopped(&self, url: &Url, stop: Stop, meter: &Meter, status: Option<u16>) -> FetchFailure {
        let cfg = &self.inner.config;
        let part = match status {
            None => "response head not complete".to_string(),
            Some(s) => format!("body not complete (status {s})"),
        };
        let total = meter.received();
        match stop {
            Stop::Deadline => match status {
                None => failure(FailureClass::Timeout, format!("{url}: no response within {:?}", cfg.timeout)),
                Some(_) => failure(FailureClass::Timeout, format!("{url}: {part} within {:?}", cfg.timeout)),
            },
            Stop::Silent { span } => failure(
                FailureClass::Timeout,
                format!(
                    "{url}: nothing received in the last {}, {} after the start ({total} bytes before); {part}",
                    seconds(span),
                    seconds(meter.elapsed())
                ),
            ),
            Stop::Slow { bytes, span } => failure(
                FailureClass::SlowTransfer,
                format!(
                    "{url}: {bytes} bytes in the last {}, below the minimum rate of {} bytes/s; {part} after {} \
                     ({total} bytes received)",
                    seconds(span),
                    cfg.min_transfer_rate,
                    seconds(meter.elapsed())
                ),
            ),
        }
    }

    /// Sends on a pooled connection when one is idle (falling back to a new one if it fails),
    /// else on a new connection.
    async fn send(
        &self,
        url: &Url,
        parts: &RequestParts,
        connect_to: Option<IpAddr>,
        meter: &Meter,
    ) -> Result<(Response<Incoming>, Sender, PoolKey), FetchFailure> {
        let host = url.host().ok_or_else(|| failure(FailureClass::UnsupportedUrl, format!("{url}: no host")))?;
        let https = url.scheme() == "https";
        let port = url.port_or_known_default().unwrap_or(if https { 443 } else { 80 });
        let key = PoolKey { https, host: host.to_string(), port, connect_to };
        if let Some(mut s) = self.inner.pool.checkout(&key) {
            meter.attach(s.stats());
            match s.send(parts.request_on(&s)?).await {
                Ok(resp) => return proxy_refusal(url, &s, &resp).map_or(Ok((resp, s, key)), Err),
                Err(e) => tracing::debug!(%url, "reused connection failed ({e}); reconnecting"),
            }
        }
        let ep = Endpoint { https, host, port, connect_to };
        let mut s = self.inner.connector.connect(&ep).await?;
        meter.attach(s.stats());
        if let Sender::H2(h, stats) = &s {
            self.inner.pool.checkin(key.clone(), Sender::H2(h.clone(), Arc::clone(stats)));
        }
        let resp = s.send(parts.request_on(&s)?).await.map_err(|e| hyper_failure(&e))?;
        proxy_refusal(url, &s, &resp).map_or(Ok((resp, s, key)), Err)
    }

    /// Discards a response that is not returned (a redirect, a retried 429/503). A small HTTP/1.1
    /// body is read to its end (at most 64 KiB, at most one second) so the connection can serve
    /// the next hop; otherwise the connection is dropped.
    async fn recycle(&self, response: Response<Incoming>, sender: Sender, key: PoolKey, deadline: Instant) {
        if !matches!(sender, Sender::H1(..)) {
            return;
        }
        let mut body = response.into_body();
        let limit = deadline.min(later(Instant::now(), Duration::from_secs(1)));
        let drained = tokio::time::timeout_at(limit, async {
            let mut seen = 0usize;
            while let Some(frame) = body.frame().await {
                let Ok(frame) = frame else { return false };
                if let Some(data) = frame.data_ref() {
                    seen += data.len();
                    if seen > 64 * 1024 {
                        return false;
                    }
                }
            }
            true
        })
        .await;
        if drained == Ok(true) {
            self.inner.pool.checkin(key, sender);
        }
    }

    /// Reads the final response's body within the hop's deadline and fills the metadata.
    async fn complete(&self, mut meta: FetchMeta, hop: Hop, req: &FetchRequest) -> FetchResult {
        let cfg = &self.inner.config;
        let Hop { response, _permit, deadline, meter, sender, key, limited: _ } = hop;
        record_head(&mut meta, &response);
        let hard_cap = cfg.max_body_bytes_hard_cap;
        let hard_is_limit = req.policy.max_body_bytes >= hard_cap;
        let cap = usize::try_from(req.policy.max_body_bytes.min(hard_cap)).unwrap_or(usize::MAX);
        let codings = match (&meta.content_encoding, req.policy.decode_content_encoding) {
            (Some(ce), true) => parse_content_encoding(ce).unwrap_or_else(|unknown| {
                tracing::debug!(url = %meta.url, coding = %unknown, "unknown content coding; body kept as received");
                Vec::new()
            }),
            _ => Vec::new(),
        };
        let mut decoder = BodyDecoder::new(&codings, cap);
        let mut body = response.into_body();
        let read = watch(&meter, deadline, async {
            let mut raw: u64 = 0;
            loop {
                match body.frame().await {
                    None => break Ok(BodyEnd::Complete),
                    Some(Err(e)) => break Err(hyper_failure(&e)),
                    Some(Ok(frame)) => {
                        let Ok(data) = frame.into_data() else { continue };
                        raw = raw.saturating_add(data.len() as u64);
                        if raw > hard_cap && !codings.is_empty() {
                            break Ok(BodyEnd::RawOverCap);
                        }
                        match decoder.push(&data) {
                            Ok(()) => {}
                            Err(DecodeError::Full) => break Ok(BodyEnd::Full),
                            Err(DecodeError::Corrupt(m)) => break Err(failure(FailureClass::Protocol, m)),
                        }
                    }
                }
            }
        })
        .await;
        meta.fetched_at = Timestamp::now();
        let end = match read {
            Err(stop) => {
                // Given up mid-body: the bytes read so far are kept, flagged truncated.
                meter.close_connection();
                let f = self.stopped(&meta.url, stop, &meter, meta.status);
                meta.failure = Some(f);
                meta.truncated = true;
                BodyEnd::Stopped
            }
            Ok(Err(f)) => return failed(meta, f),
            Ok(Ok(BodyEnd::Complete)) => match decoder.finish() {
                Ok(()) => {
                    if let Sender::H1(..) = sender {
                        self.inner.pool.checkin(key, sender);
                    }
                    BodyEnd::Complete
                }
                Err(DecodeError::Full) => BodyEnd::Full,
                Err(DecodeError::Corrupt(m)) => return failed(meta, failure(FailureClass::Protocol, m)),
            },
            Ok(Ok(other)) => other,
        };
        let body = decoder.into_bytes();
        match end {
            BodyEnd::Complete | BodyEnd::Stopped => {}
            BodyEnd::Full if !hard_is_limit => meta.truncated = true,
            BodyEnd::Full | BodyEnd::RawOverCap => {
                meta.truncated = true;
                meta.failure = Some(failure(
                    FailureClass::BodyTooLarge,
                    format!("{}: body larger than the hard cap of {hard_cap} bytes", meta.url),
                ));
            }
        }
        meta.size = body.len() as u64;
        if req.method == Method::Get {
            meta.sha256 = Some(hex::encode(Sha256::digest(&body)));
        }
        FetchResult { meta, body }
    }
}

/// True for an http(s) URL with a host.
fn is_http(url: &Url) -> bool {
    matches!(url.scheme(), "http" | "https") && url.host().is_some()
}

/// Drops the user name and password of `url` (RFC 3986 section 3.2.1 deprecates `user:password@`;
/// nothing here sends them, and they must not be copied into records).
fn drop_userinfo(url: &mut Url) {
    if !url.username().is_empty() || url.password().is_some() {
        let _ = url.set_username("");
        let _ = url.set_password(None);
    }
}

/// A `Location` header's bytes as text, losslessly, with surrounding whitespace dropped: UTF-8
/// stays as it is, and every byte that is not part of valid UTF-8 becomes `%XX` (its percent-encoded
/// self, as curl requests it), so `/chan\xFFge` names `/chan%FFge`, the URL the server sent, rather
/// than `/chan%EF%BF%BDge` (U+FFFD). RFC 9110 section 10.2.2 (the field is a URI reference; RFC 3986
/// section 2.1 percent-encoding).
fn location_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.trim_ascii().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `location` (a `Location` header as sent) without the user information of its authority, if it
/// has one (`https://user:secret@host/x` gives `https://host/x`), and whether it had one. Textual, so
/// it also applies to a `Location` no URL parser accepts.
fn redact_userinfo(location: &str) -> (String, bool) {
    let Some(slashes) = location.find("//") else { return (location.to_string(), false) };
    let prefix = &location[..slashes];
    // An authority starts after `scheme://` or at a leading `//` (a network-path reference).
    let scheme_ok = prefix.is_empty()
        || prefix.strip_suffix(':').is_some_and(|s| {
            s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        });
    if !scheme_ok {
        return (location.to_string(), false);
    }
    let start = slashes + 2;
    let rest = &location[start..];
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => (format!("{}{}", &location[..start], &rest[at + 1..]), true),
        None => (location.to_string(), false),
    }
}

/// Ends a fetch with `f`: no body.
fn failed(mut meta: FetchMeta, f: FetchFailure) -> FetchResult {
    tracing::debug!(url = %meta.url, class = %f.class, message = %f.message, "fetch failed");
    meta.failure = Some(f);
    meta.fetched_at = Timestamp::now();
    meta.size = 0;
    meta.sha256 = None;
    FetchResult { meta, body: Vec::new() }
}

fn record_head(meta: &mut FetchMeta, response: &Response<Incoming>) {
    let text = |name: header::HeaderName| {
        response.headers().get(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    meta.status = Some(response.status().as_u16());
    meta.content_type = text(header::CONTENT_TYPE);
    meta.content_encoding = text(header::CONTENT_ENCODING);
    meta.fetched_at = Timestamp::now();
}

/// What is sent for one hop, prepared once (it may be sent on HTTP/1.1 or HTTP/2).
struct RequestParts {
    method: http::Method,
    origin_form: Uri,
    absolute: Uri,
    headers: HeaderMap,
}

impl RequestParts {
    fn new(url: &Url, req: &FetchRequest, cfg: &FetcherConfig) -> Result<RequestParts, FetchFailure> {
        let bad = |what: &str| failure(FailureClass::UnsupportedUrl, format!("{url}: {what}"));
        let path = &url[Position::BeforePath..Position::AfterQuery];
        let path = if path.is_empty() { "/" } else { path };
        let origin_form: Uri = path.parse().map_err(|_| bad("path cannot be sent as a request target"))?;
        let host = url.host_str().ok_or_else(|| bad("no host"))?;
        let authority = match url.port() {
            Some(p) => format!("{host}:{p}"),
            None => host.to_string(),
        };
        let absolute: Uri = format!("{}://{authority}{path}", url.scheme())
            .parse()
            .map_err(|_| bad("cannot be sent as a request target"))?;
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(&authority).map_err(|_| bad("invalid host"))?);
        let ua = HeaderValue::from_str(&cfg.user_agent).unwrap_or_else(|_| HeaderValue::from_static("wellknown"));
        headers.insert(header::USER_AGENT, ua);
        if req.policy.decode_content_encoding {
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(ACCEPT_ENCODING));
        }
        if let Some(accept) = &req.policy.accept
            && let Ok(v) = HeaderValue::from_str(accept)
        {
            headers.insert(header::ACCEPT, v);
        }
        for (name, value) in &req.headers {
            match (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value)) {
                (Ok(n), Ok(v)) if n != header::HOST => {
                    headers.insert(n, v);
                }
                _ => tracing::debug!(%name, "request header skipped (invalid or Host)"),
            }
        }
        let method = match req.method {
            Method::Get => http::Method::GET,
            Method::Head => http::Method::HEAD,
        };
        Ok(RequestParts { method, origin_form, absolute, headers })
    }

    /// The request to send on `sender`: for HTTP/2 with `:authority`; through a proxy that
    /// forwards requests in absolute form with its `Proxy-Authorization`; else in origin form.
    fn request_on(&self, sender: &Sender) -> Result<Request<ReqBody>, FetchFailure> {
        let Some(forward) = sender.forward() else { return self.request(sender.is_h2()) };
        let mut r = self.request(false)?;
        *r.uri_mut() = self.absolute.clone();
        if let Some(auth) = &forward.authorization {
            r.headers_mut().insert(header::PROXY_AUTHORIZATION, auth.clone());
        }
        Ok(r)
    }

    fn request(&self, h2: bool) -> Result<Request<ReqBody>, FetchFailure> {
        let uri = if h2 { self.absolute.clone() } else { self.origin_form.clone() };
        let mut headers = self.headers.clone();
        if h2 {
            // HTTP/2 carries the authority in the :authority pseudo-header.
            headers.remove(header::HOST);
        }
        let mut r = Request::builder()
            .method(self.method.clone())
            .uri(uri)
            .body(ReqBody::new())
            .map_err(|e| failure(FailureClass::UnsupportedUrl, format!("request could not be built: {e}")))?;
        *r.headers_mut() = headers;
        Ok(r)
    }
}

/// ALPN offered to targets: HTTP/2, then HTTP/1.1.
const ALPN_H2_H1: &[&[u8]] = &[b"h2", b"http/1.1"];

/// A 407 from a proxy that forwards requests: the proxy's answer, not the target's
/// (`proxy_auth_required`).
fn proxy_refusal(url: &Url, sender: &Sender, response: &Response<Incoming>) -> Option<FetchFailure> {
    let forward = sender.forward()?;
    if response.status() != http::StatusCode::PROXY_AUTHENTICATION_REQUIRED {
        return None;
    }
    let why = if forward.authorization.is_some() {
        "the credentials were refused"
    } else {
        "the proxy wants credentials (none given)"
    };
    Some(failure(FailureClass::ProxyAuthRequired, format!("proxy {}: {url}: answered 407: {why}", forward.proxy)))
}

/// The connector's proxy settings: refuses `--resolve` and `--connect-to` with a proxy that
/// resolves names itself, and builds the TLS settings of connections through the proxy (the
/// proxy's CA trusted besides the usual roots).
fn proxy_route(config: &FetcherConfig, proxy: &ProxyConfig) -> Result<ProxyRoute, FetcherError> {
    let resolving = proxy.proxies().into_iter().find(|p| p.scheme.resolves_names());
    if let Some(p) = resolving
        && (!config.resolve.is_empty() || !config.connect_to.is_empty())
    {
        let flag = if config.resolve.is_empty() { "--connect-to" } else { "--resolve" };
        return Err(FetcherError::Proxy(format!(
            "{flag} cannot be used with the proxy {p}: a {}:// proxy resolves names itself, so the scanner \
             cannot choose the address; use a socks5:// proxy (names resolved by the scanner), or --no-proxy",
            p.scheme.as_str()
        )));
    }
    Ok(ProxyRoute {
        choice: ProxyChoice::new(proxy.clone()),
        tls_target: Arc::new(tls_config(config, Some(proxy), ALPN_H2_H1)?),
        tls_proxy: Arc::new(tls_config(config, Some(proxy), &[b"http/1.1"])?),
    })
}

/// The rustls client configuration: ring, webpki roots plus the configured extras (and, for
/// connections through a proxy, the proxy's extra roots), ALPN `alpn`.
fn tls_config(
    config: &FetcherConfig,
    proxy: Option<&ProxyConfig>,
    alpn: &[&[u8]],
) -> Result<rustls::ClientConfig, FetcherError> {
    let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let proxy_pem = proxy.map(|p| p.ca_pem.as_slice()).unwrap_or_default();
    let proxy_der = proxy.map(|p| p.ca_der.as_slice()).unwrap_or_default();
    for path in config.extra_root_certs_pem.iter().chain(proxy_pem) {
        let file_err = |reason: String| FetcherError::RootCertFile { path: path.clone(), reason };
        let mut n = 0;
        for cert in CertificateDer::pem_file_iter(path).map_err(|e| file_err(e.to_string()))? {
            let cert = cert.map_err(|e| file_err(e.to_string()))?;
            roots.add(cert).map_err(|e| FetcherError::RootCert(e.to_string()))?;
            n += 1;
        }
        if n == 0 {
            return Err(file_err("no certificate found".to_string()));
        }
    }
    for der in config.extra_root_certs_der.iter().chain(proxy_der) {
        roots.add(CertificateDer::from(der.clone())).map_err(|e| FetcherError::RootCert(e.to_string()))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| FetcherError::Tls(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    tls.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(tls)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>(_: &T) {}

    #[test]
    fn fetcher_is_send_sync_and_its_future_is_send() {
        fn is_send_sync<T: Send + Sync + Clone>() {}
        is_send_sync::<Fetcher>();
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let f = Fetcher::new(FetcherConfig::default()).unwrap();
            let req = FetchRequest::get("http://example.invalid/".parse().unwrap(), Default::default());
            let scope = |_: &Url| true;
            let fut = f.fetch(&req, &scope);
            assert_send(&fut);
        });
    }

    #[test]
    fn builds_outside_a_runtime() {
        let f = Fetcher::new(FetcherConfig::default()).unwrap();
        assert_eq!(f.config().max_concurrent_per_host, 2);
    }

    #[test]
    fn a_location_keeps_its_bytes() {
        assert_eq!(location_text(b" /chan\xffge\t"), "/chan%FFge");
        assert_eq!(location_text("/caf\u{e9}".as_bytes()), "/caf\u{e9}", "valid UTF-8 as it is");
        assert_eq!(location_text(b"/a\xc3"), "/a%C3", "a truncated sequence byte by byte");
        assert_eq!(location_text(b"/x%FFy"), "/x%FFy");
        assert_eq!(location_text(b""), "");
    }

    #[test]
    fn userinfo_is_redacted_from_a_location_as_sent() {
        for (location, want, had) in [
            ("https://user:secret@[::1]:99999/x", "https://[::1]:99999/x", true),
            ("//u@host.example/a@b", "//host.example/a@b", true),
            ("HTTP://a:b@c:d@host.example?q=@", "HTTP://host.example?q=@", true),
            ("https://host.example/path@x", "https://host.example/path@x", false),
            ("mailto:x@other.test", "mailto:x@other.test", false),
            ("/relative/a@b//c@d", "/relative/a@b//c@d", false),
            ("", "", false),
        ] {
            assert_eq!(redact_userinfo(location), (want.to_string(), had), "{location}");
        }
    }

    #[test]
    fn request_parts() {
        let cfg = FetcherConfig::default();
        let req = FetchRequest::get("https://Example.com:8443/a%20b?q=1#frag".parse().unwrap(), Default::default());
        let p = RequestParts::new(&req.url, &req, &cfg).unwrap();
        assert_eq!(p.origin_form, "/a%20b?q=1");
        assert_eq!(p.absolute, "https://example.com:8443/a%20b?q=1");
        assert_eq!(p.headers[header::HOST], "example.com:8443");
        assert_eq!(p.headers[header::ACCEPT_ENCODING], ACCEPT_ENCODING);
        assert!(p.request(true).unwrap().headers().get(header::HOST).is_none());
    }
}
