//! Per-host politeness: 429/503 back-off with Retry-After, concurrency and rate limits.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use wellknown_http::FetcherConfig;

#[tokio::test]
async fn retry_after_429_then_200() {
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let addr = http_server(handler(move |_| {
        if h.fetch_add(1, Ordering::SeqCst) == 0 {
            resp(429, &[("retry-after", "1")], "slow down")
        } else {
            resp(200, &[], "welcome back")
        }
    }))
    .await;
    let f = fetcher(test_config());
    let started = Instant::now();
    let r = fetch_all(&f, &get(url(addr, "/"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.meta.status, Some(200));
    assert_eq!(r.body, b"welcome back");
    assert_eq!(hits.load(Ordering::SeqCst), 2);
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(900), "Retry-After honoured ({waited:?})");
    assert!(waited < Duration::from_secs(10));
}

#[tokio::test]
async fn retries_exhausted_return_the_status_and_later_requests_wait() {
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let addr = http_server(handler(move |req| {
        h.fetch_add(1, Ordering::SeqCst);
        if req.uri().path() == "/busy" { resp(503, &[], "busy") } else { resp(200, &[], "ok") }
    }))
    .await;
    let cfg = FetcherConfig { max_retries_on_429_503: 2, default_backoff: Duration::from_millis(200), ..test_config() };
    let f = fetcher(cfg);
    let started = Instant::now();
    let r = fetch_all(&f, &get(url(addr, "/busy"))).await;
    assert_eq!(class(&r), None, "a 503 is a response, not a failure");
    assert_eq!(r.meta.status, Some(503));
    assert_eq!(r.body, b"busy");
    assert_eq!(hits.load(Ordering::SeqCst), 3, "one try and two retries");
    assert!(started.elapsed() >= Duration::from_millis(350));
    // The last 503 blocked the host for the default back-off: the next request waits too.
    let t = Instant::now();
    let r = fetch_all(&f, &get(url(addr, "/ok"))).await;
    assert_eq!(r.meta.status, Some(200));
    assert!(t.elapsed() >= Duration::from_millis(150), "{:?}", t.elapsed());
}

#[tokio::test]
async fn retry_after_over_a_configured_cap_is_rate_limited_until_it_passes() {
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let addr = http_server(handler(move |_| {
        if h.fetch_add(1, Ordering::SeqCst) == 0 { resp(429, &[("retry-after", "1")], "") } else { resp(200, &[], "") }
    }))
    .await;
    let f = fetcher(FetcherConfig { max_retry_after: Duration::from_millis(200), ..test_config() });
    let r = fetch_all(&f, &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("rate_limited"));
    assert_eq!((r.meta.status, r.meta.retry_after_secs), (Some(429), Some(1)));
    assert_eq!(hits.load(Ordering::SeqCst), 1, "not retried");
    // The limit ends on the runtime's clock: move it past the second instead of sleeping through it
    // (this test's runtime is single-threaded, which pausing needs), then let it run on for the
    // real requests that follow.
    tokio::time::pause();
    tokio::time::advance(Duration::from_millis(1100)).await;
    tokio::time::resume();
    assert_eq!(f.rate_limited("127.0.0.1"), None, "the delay has passed");
    let r = fetch_all(&f, &get(url(addr, "/"))).await;
    assert_eq!((class(&r), r.meta.status), (None, Some(200)));
    assert_eq!(hits.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn concurrency_per_host_never_exceeds_the_limit() {
    let current = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let total = Arc::new(AtomicUsize::new(0));
    // Requests are held in pairs: each waits for a second one to be in flight beside it (an event,
    // not a pause that a slow machine could outlast), so the limit is reached whenever it allows
    // two; a fetcher that allowed only one would leave each waiting until the timeout.
    let pair = Arc::new(tokio::sync::Barrier::new(2));
    let (c, p, t) = (current.clone(), peak.clone(), total.clone());
    let h: Handler = Arc::new(move |_req| {
        let (c, p, t, pair) = (c.clone(), p.clone(), t.clone(), pair.clone());
        Box::pin(async move {
            let now = c.fetch_add(1, Ordering::SeqCst) + 1;
            p.fetch_max(now, Ordering::SeqCst);
            t.fetch_add(1, Ordering::SeqCst);
            let _ = tokio::time::timeout(Duration::from_secs(5), pair.wait()).await;
            c.fetch_sub(1, Ordering::SeqCst);
            resp(200, &[], "ok")
        })
    });
    let addr = http_server(h).await;
    let f = fetcher(FetcherConfig { max_concurrent_per_host: 2, ..test_config() });
    let mut tasks = Vec::new();
    for i in 0..12 {
        let f = f.clone();
        tasks.push(tokio::spawn(async move {
            let r = fetch_all(&f, &get(url(addr, &format!("/{i}")))).await;
            r.meta.status
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), Some(200));
    }
    assert_eq!(total.load(Ordering::SeqCst), 12);
    let peak = peak.load(Ordering::SeqCst);
    assert!(peak <= 2, "peak concurrency {peak}");
    assert_eq!(peak, 2, "the limit is used");
}

#[tokio::test]
async fn rate_spaces_request_starts() {
    let addr = http_server(handler(|_| resp(200, &[], "ok"))).await;
    let f = fetcher(FetcherConfig { max_rate_per_host: 20.0, ..test_config() });
    let started = Instant::now();
    for _ in 0..5 {
        assert_eq!(fetch_all(&f, &get(url(addr, "/"))).await.meta.status, Some(200));
    }
    // Five starts at 20/s are spaced 50 ms apart: at least 200 ms in all.
    assert!(started.elapsed() >= Duration::from_millis(190), "{:?}", started.elapsed());
}

#[tokio::test]
async fn host_delay_applies() {
    let addr = http_server(handler(|_| resp(200, &[], "ok"))).await;
    let f = fetcher(test_config());
    f.set_host_delay("127.0.0.1", Duration::from_millis(150));
    let started = Instant::now();
    for _ in 0..3 {
        fetch_all(&f, &get(url(addr, "/"))).await;
    }
    assert!(started.elapsed() >= Duration::from_millis(290), "{:?}", started.elapsed());
    f.set_host_delay("127.0.0.1", Duration::ZERO);
}
