//! Per-unit memory of origins found unreachable at the connection level.
//!
//! When a document request of a unit fails in a way every other path of the same origin (scheme,
//! host, port) would fail too — the name does not resolve (`dns_nxdomain`, `dns_no_answer`,
//! `dns_failure`), the TCP connection is refused or times out (`connect_refused`,
//! `connect_timeout`), the TLS handshake is refused (`tls`), or the address is refused by the
//! private-address rule before anything is sent (`private_address` without `--allow-private`: the
//! origin's host resolves, or is an IP literal, to a loopback, private, link-local... address, so
//! every path is refused alike, and no request waits for its politeness slot) — the unit's later
//! document requests
//! to that origin are not sent. Each still gets its document record, with the same failure class, a
//! message naming the request that failed, and `"not_attempted": true` (`docs/output-schema.md`).
//! A slow answer (`timeout`), an HTTP status, a body over the cap or a redirect failure says nothing
//! about the other paths and never stops requests.
//!
//! A slow origin is learned too: a document request that ends in `timeout` or `slow_transfer` (a
//! held connection, a tar pit) counts, and after [`SLOW_LIMIT`] such requests the origin's other
//! documents are not attempted either (class of the last one, a message saying the origin was too
//! slow), so one tar-pit origin costs about two timeouts, not one per document.
//!
//! Verification requests learn apart: a candidate URL's HEAD that ends in an origin-wide failure,
//! or [`SLOW_LIMIT`] of them that end slow, stop the unit's other verification requests to that
//! origin ([`Reach::skip_verification`]: their verdicts are recorded with `source: none`, nothing
//! sent), so a sitemap of a thousand URLs on a tar pit costs about two timeouts per request slot,
//! not a thousand. What verification learns never stops a document request (a slow dynamic page
//! says little about a small well-known file), while what documents learned stops verification.
//!
//! The memory is a mutex-guarded map consulted before every document request and updated after it,
//! so the decision is race-free: once a failure is recorded, no later request to that origin leaves
//! the unit. The unit's documents run concurrently, so the first document request to an origin goes
//! alone ([`Reach::first`]): the others to that origin wait for its answer (or failure) before they
//! are checked and sent. An unreachable origin is asked once, and a reachable one is asked
//! concurrently from its second request on (its politeness budget spaces requests anyway).

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use tokio::sync::watch;

use url::Url;
use wellknown_core::{FailureClass, FetchFailure, FetchMeta, FetchResult, Origin, Timestamp};

/// The failed request that made an origin unreachable: its URL and failure class.
#[derive(Debug, Clone)]
struct Unreachable {
    url: String,
    class: FailureClass,
    /// Learned from [`SLOW_LIMIT`] slow requests rather than one connection-level failure.
    slow: bool,
}

/// Held by the first document request to an origin; dropping it lets the others go.
pub(crate) struct FirstRequest {
    _done: watch::Sender<()>,
}

/// Requests to one origin ending in `timeout` or `slow_transfer` after which its other documents
/// are not attempted.
pub(crate) const SLOW_LIMIT: usize = 2;

/// What one kind of request (documents, or verification) learned of its origins.
#[derive(Debug, Default)]
struct Learned {
    /// Origins found unreachable, with the first failure that said so.
    origins: HashMap<Origin, Unreachable>,
    /// Slow requests (`timeout`, `slow_transfer`) per origin.
    slow: HashMap<Origin, usize>,
}

impl Learned {
    /// Learns from the result of a request sent to `url` (origin `k`): a failure of an
    /// [`origin_wide`] class before any response (no status, no redirect hop), or the
    /// [`SLOW_LIMIT`]th slow answer, marks the origin unreachable. The first such failure is kept.
    fn learn(&mut self, k: Origin, url: &Url, meta: &FetchMeta) {
        let Some(f) = &meta.failure else { return };
        let slow_answer = slow(f.class);
        if slow_answer {
            let n = self.slow.entry(k.clone()).or_default();
            *n += 1;
            if *n < SLOW_LIMIT {
                return;
            }
        } else if meta.status.is_some() || !meta.redirect_chain.is_empty() || !origin_wide(f.class) {
            return;
        }
        self.origins.entry(k).or_insert_with(|| Unreachable {
            url: url.to_string(),
            class: f.class,
            slow: slow_answer,
        });
    }
}

#[derive(Debug, Default)]
struct State {
    /// What the unit's document requests learned.
    documents: Learned,
    /// Origins whose last document request had a response that was not slow: asked concurrently.
    calm: HashSet<Origin>,
    /// The request that goes first to an origin, reserved by the engine for its `First` probe
    /// ([`Reach::reserve`]), with the sender its guard will hold.
    reserved: HashMap<Origin, (String, watch::Sender<()>)>,
    /// Origins asked one request at a time (no calm answer yet): the one in flight, whose sender
    /// drops when it is over.
    probing: HashMap<Origin, watch::Receiver<()>>,
    /// Requested URLs answered without a request, not yet claimed by a document record.
    skipped: HashSet<String>,
    /// What its verification requests learned: stops verification only.
    verification: Learned,
}

/// What one unit (in one routing: a virtual-host context has its own) learned about its origins.
#[derive(Debug, Default)]
pub(crate) struct Reach {
    state: Mutex<State>,
    /// Set when the unit's time budget ran out: nothing more is sent in this context.
    closed: std::sync::atomic::AtomicBool,
}

/// True for the failure classes that fail identically for every path of an origin: DNS, a refused
/// or timed-out TCP connect (or TLS handshake), a refused TLS handshake, an address refused by the
/// private-address rule (a redirect into one is not learned: it has a redirect hop), and every
/// failure of the proxy or of its handshake for the origin (`proxy_*`: the next path would get the
/// same answer).
pub(crate) fn origin_wide(class: FailureClass) -> bool {
    use FailureClass as F;
    matches!(
        class,
        F::DnsNxdomain
            | F::DnsNoAnswer
            | F::DnsFailure
            | F::ConnectRefused
            | F::ConnectTimeout
            | F::Tls
            | F::PrivateAddress
            | F::ProxyRefused
            | F::ProxyConnect
            | F::ProxyAuthRequired
            | F::ProxyTunnel
            | F::ProxySocks
    )
}

/// True for the failure classes of a slow answer: nothing within the timeout, or a trickle.
fn slow(class: FailureClass) -> bool {
    matches!(class, FailureClass::Timeout | FailureClass::SlowTransfer)
}

/// The answer, unsent, of a request to `url` of an origin `first` found unreachable.
fn not_attempted(url: &Url, first: &Unreachable, now: Timestamp) -> FetchResult {
    let mut meta = FetchMeta::synthetic(url.clone(), None, now);
    meta.status = None;
    let message = if first.slow {
        format!(
            "not attempted: the origin answered too slowly {SLOW_LIMIT} times, last at {} ({})",
            first.url,
            first.class.as_str()
        )
    } else if first.class == FailureClass::PrivateAddress {
        format!(
            "not attempted: the origin's address was refused as private at {} (private_address; --allow-private \
             lifts the refusal)",
            first.url
        )
    } else {
        format!("not attempted: the origin was unreachable at {} ({})", first.url, first.class.as_str())
    };
    meta.failure = Some(FetchFailure { class: first.class, message });
    FetchResult { meta, body: Vec::new() }
}

/// The origin requests are grouped by (scheme, host, port, default ports equal to none).
fn key(url: &Url) -> Option<Origin> {
    Origin::from_url(url).ok()
}

impl Reach {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The result of a request to `url` when its origin is already known unreachable: no status,
    /// the failure class of the request that found it, a message naming that request, fetched at
    /// `now`. None when the request should be sent.
    pub(crate) fn skip(&self, url: &Url, now: Timestamp) -> Option<FetchResult> {
        let k = key(url)?;
        let mut state = self.state();
        let first = state.documents.origins.get(&k)?.clone();
        state.skipped.insert(url.as_str().to_string());
        Some(not_attempted(url, &first, now))
    }

    /// [`Reach::skip`] for a verification request: the origin is known unreachable from a document
    /// request or from a verification request of this unit. Not claimed by a document record.
    pub(crate) fn skip_verification(&self, url: &Url, now: Timestamp) -> Option<FetchResult> {
        let k = key(url)?;
        let state = self.state();
        let first = state.documents.origins.get(&k).or_else(|| state.verification.origins.get(&k))?;
        Some(not_attempted(url, first, now))
    }

    /// Learns from the result of a verification request sent to `url`, as [`Reach::learn`] does
    /// from a document request, into the memory only verification consults.
    pub(crate) fn learn_verification(&self, url: &Url, meta: &FetchMeta) {
        if let Some(k) = key(url) {
            self.state().verification.learn(k, url, meta);
        }
    }

    /// Learns from the result of a document request sent to `url`: whether its origin answered
    /// calmly (asked concurrently from then on), and [`Learned::learn`].
    pub(crate) fn learn(&self, url: &Url, meta: &FetchMeta) {
        let Some(k) = key(url) else { return };
        let calm = meta.failure.as_ref().is_none_or(|f| !slow(f.class))
            && (meta.status.is_some() || !meta.redirect_chain.is_empty());
        let mut state = self.state();
        if calm {
            state.calm.insert(k.clone());
        } else {
            state.calm.remove(&k);
        }
        state.documents.learn(k, url, meta);
    }

    /// Waits until `url`'s origin may be asked concurrently: once a first document request of this
    /// unit has had an answer that was not slow. Until then (no request yet, or the last one timed
    /// out or trickled) requests to the origin go one at a time: the caller that gets the guard
    /// makes the next one, and the others wait until it is dropped (after [`Reach::learn`]), then
    /// check again. So an origin that fails is asked once, and a tar pit about [`SLOW_LIMIT`]
    /// times, whatever the number of documents queued for it.
    pub(crate) async fn first(&self, url: &Url) -> Option<FirstRequest> {
        let k = key(url)?;
        loop {
            let mut rx = {
                let mut state = self.state();
                if state.calm.contains(&k) || state.documents.origins.contains_key(&k) {
                    return None;
                }
                if state.reserved.get(&k).is_some_and(|(u, _)| u == url.as_str())
                    && let Some((_, tx)) = state.reserved.remove(&k)
                {
                    return Some(FirstRequest { _done: tx });
                }
                match state.probing.get(&k) {
                    Some(rx) if rx.has_changed().is_ok() => rx.clone(),
                    _ => {
                        let (tx, rx) = watch::channel(());
                        state.probing.insert(k, rx);
                        return Some(FirstRequest { _done: tx });
                    }
                }
            };
            // Ends when that request's guard is dropped (answered, failed or abandoned).
            while rx.changed().await.is_ok() {}
        }
    }

    /// Closes the context: every later request of the unit is refused unsent ([`Reach::is_closed`]).
    pub(crate) fn close(&self) {
        self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// True once [`Reach::close`] was called.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Reserves the first request to `url`'s origin for `url` (robots.txt, whose probe runs
    /// first), so which request goes alone does not depend on which task runs first. The
    /// reservation ends when that request is made and over, or at [`Reach::release`].
    pub(crate) fn reserve(&self, url: &Url) {
        let Some(k) = key(url) else { return };
        let mut state = self.state();
        if state.calm.contains(&k) || state.documents.origins.contains_key(&k) || state.probing.contains_key(&k) {
            return;
        }
        let (tx, rx) = watch::channel(());
        state.probing.insert(k.clone(), rx);
        state.reserved.insert(k, (url.as_str().to_string(), tx));
    }

    /// Ends a reservation of [`Reach::reserve`] whose request was never made (its probe refused it
    /// before sending, or was done): the others waiting go on.
    pub(crate) fn release(&self, url: &Url) {
        if let Some(k) = key(url) {
            self.state().reserved.remove(&k);
        }
    }

    /// True, once, when the document requested at `requested_url` was answered by
    /// [`Reach::skip`] rather than sent.
    pub(crate) fn take_skipped(&self, requested_url: &str) -> bool {
        self.state().skipped.remove(requested_url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn failed(u: &str, class: FailureClass) -> FetchMeta {
        let mut meta = FetchMeta::synthetic(url(u), None, Timestamp::UNIX_EPOCH);
        meta.status = None;
        meta.failure = Some(FetchFailure { class, message: "m".into() });
        meta
    }

    #[test]
    fn an_origin_wide_failure_skips_the_rest_of_that_origin_only() {
        let reach = Reach::default();
        let robots = url("https://a.example/robots.txt");
        assert!(reach.skip(&robots, Timestamp::UNIX_EPOCH).is_none());
        reach.learn(&robots, &failed("https://a.example/robots.txt", FailureClass::ConnectRefused));
        reach.learn(&robots, &failed("https://a.example/other", FailureClass::Tls));
        let r = reach.skip(&url("https://A.example:443/.well-known/security.txt"), Timestamp::UNIX_EPOCH).unwrap();
        let f = r.meta.failure.unwrap();
        assert_eq!(f.class, FailureClass::ConnectRefused, "the first failure is kept");
        assert_eq!(
            f.message,
            "not attempted: the origin was unreachable at https://a.example/robots.txt (connect_refused)"
        );
        assert_eq!(r.meta.status, None);
        assert!(reach.take_skipped("https://a.example/.well-known/security.txt"));
        assert!(!reach.take_skipped("https://a.example/.well-known/security.txt"), "claimed once");
        for other in ["http://a.example/x", "https://a.example:8443/x", "https://b.a.example/x"] {
            assert!(reach.skip(&url(other), Timestamp::UNIX_EPOCH).is_none(), "{other}");
        }
    }

    #[test]
    fn slow_answers_http_failures_and_redirects_do_not_skip() {
        let reach = Reach::default();
        let u = url("https://a.example/x");
        for class in [
            FailureClass::Timeout,
            FailureClass::BodyTooLarge,
            FailureClass::Protocol,
            FailureClass::RedirectLoop,
            FailureClass::OutOfScope,
            FailureClass::Connect,
        ] {
            reach.learn(&u, &failed(u.as_str(), class));
        }
        let mut answered = failed(u.as_str(), FailureClass::Tls);
        answered.status = Some(200);
        reach.learn(&u, &answered);
        let mut hop = failed("https://b.example/", FailureClass::ConnectRefused);
        hop.redirect_chain.push(wellknown_core::RedirectHop { url: u.clone(), status: 302 });
        reach.learn(&u, &hop);
        // A redirect into a private address: the origin answered.
        let mut private_hop = failed("http://127.0.0.1/", FailureClass::PrivateAddress);
        private_hop.redirect_chain.push(wellknown_core::RedirectHop { url: u.clone(), status: 301 });
        reach.learn(&u, &private_hop);
        assert!(reach.skip(&u, Timestamp::UNIX_EPOCH).is_none());
        for class in [FailureClass::DnsNxdomain, FailureClass::DnsNoAnswer, FailureClass::DnsFailure] {
            assert!(origin_wide(class));
        }
        assert!(origin_wide(FailureClass::ConnectTimeout));
    }

    #[test]
    fn a_private_address_refusal_skips_the_rest_of_that_origin_and_names_the_flag() {
        let reach = Reach::default();
        let robots = url("https://127.0.0.1:8443/robots.txt");
        reach.learn(&robots, &failed(robots.as_str(), FailureClass::PrivateAddress));
        let r = reach.skip(&url("https://127.0.0.1:8443/.well-known/security.txt"), Timestamp::UNIX_EPOCH).unwrap();
        let f = r.meta.failure.unwrap();
        assert_eq!(f.class, FailureClass::PrivateAddress);
        assert_eq!(
            f.message,
            "not attempted: the origin's address was refused as private at https://127.0.0.1:8443/robots.txt \
             (private_address; --allow-private lifts the refusal)"
        );
        assert!(reach.take_skipped("https://127.0.0.1:8443/.well-known/security.txt"));
        assert!(reach.skip(&url("https://127.0.0.1:9443/robots.txt"), Timestamp::UNIX_EPOCH).is_none());
    }

    #[test]
    fn verification_learns_apart_and_never_stops_documents() {
        let reach = Reach::default();
        let u = url("https://pit.example/a");
        reach.learn_verification(&u, &failed(u.as_str(), FailureClass::SlowTransfer));
        assert!(reach.skip_verification(&u, Timestamp::UNIX_EPOCH).is_none(), "one slow answer is not enough");
        reach
            .learn_verification(&url("https://pit.example/b"), &failed("https://pit.example/b", FailureClass::Timeout));
        let r = reach.skip_verification(&url("https://pit.example/c"), Timestamp::UNIX_EPOCH).unwrap();
        let f = r.meta.failure.unwrap();
        assert_eq!(f.class, FailureClass::Timeout);
        assert_eq!(
            f.message,
            "not attempted: the origin answered too slowly 2 times, last at https://pit.example/b (timeout)"
        );
        assert!(
            reach.skip(&url("https://pit.example/robots.txt"), Timestamp::UNIX_EPOCH).is_none(),
            "documents still go"
        );
        assert!(!reach.take_skipped("https://pit.example/c"), "a skipped verification is not a document's");
        // An origin-wide failure stops verification at once; what documents learned stops it too.
        let dns = url("https://gone.example/x");
        reach.learn_verification(&dns, &failed(dns.as_str(), FailureClass::DnsNxdomain));
        assert!(reach.skip_verification(&url("https://gone.example/y"), Timestamp::UNIX_EPOCH).is_some());
        let refused = url("https://down.example/robots.txt");
        reach.learn(&refused, &failed(refused.as_str(), FailureClass::ConnectRefused));
        assert!(reach.skip_verification(&url("https://down.example/page"), Timestamp::UNIX_EPOCH).is_some());
        // A failure after a status, or of a class that says nothing of other paths: never learned.
        let mut answered = failed("https://ok.example/x", FailureClass::Tls);
        answered.status = Some(200);
        reach.learn_verification(&url("https://ok.example/x"), &answered);
        reach.learn_verification(&url("https://ok.example/x"), &failed("https://ok.example/x", FailureClass::Protocol));
        assert!(reach.skip_verification(&url("https://ok.example/z"), Timestamp::UNIX_EPOCH).is_none());
    }
}
