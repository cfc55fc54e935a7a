//! Slow and unfriendly servers (the hostile fixture server of `wellknown-tests`): trickles end as
//! `slow_transfer`, silence as `timeout`, a long `Retry-After` as `rate_limited` for the host.

use std::time::Duration;

use url::Url;
use wellknown_http::{Fetcher, FetcherConfig};
use wellknown_tests::{Behaviour, HostileServer};

use crate::common::*;

/// Rate judged from 1 s after the start, over the last 0.5 s: at least 512 bytes.
fn slow_config() -> FetcherConfig {
    FetcherConfig {
        min_transfer_rate: 1024,
        slow_transfer_grace: Duration::from_secs(1),
        timeout: Duration::from_secs(10),
        ..test_config()
    }
}

fn at(server: &HostileServer, path: &str) -> Url {
    server.url(path).parse().unwrap()
}

#[tokio::test]
async fn a_dripped_body_is_a_slow_transfer_with_the_bytes_received() {
    // The head at once, then 10 bytes at 0.7 s and 10 more at 1.4 s: judged at 1 s, the window
    // (0.5 s, 1 s] holds the first 10 bytes, far below 512.
    let body = b"0123456789abcdefghij".to_vec();
    let server = HostileServer::builder()
        .route("/drip", Behaviour::DripBody { body, chunk: 10, interval: Duration::from_millis(700) })
        .start()
        .unwrap();
    let r = fetch_all(&fetcher(slow_config()), &get(at(&server, "/drip"))).await;
    assert_eq!(class(&r), Some("slow_transfer"), "{:?}", r.meta.failure);
    assert_eq!(r.meta.status, Some(200));
    assert_eq!(r.body, b"0123456789", "the bytes received are kept");
    assert!(r.meta.truncated);
    assert_eq!(r.meta.size, 10);
    assert_eq!(r.meta.sha256.as_deref(), Some(sha256_hex(b"0123456789").as_str()));
    assert_eq!(r.meta.retry_after_secs, None);
    let msg = r.meta.failure.unwrap().message;
    let prefix = format!("{}: 10 bytes in the last 0.", server.url("/drip"));
    assert!(msg.starts_with(&prefix), "{msg}");
    assert!(
        msg.contains(" s, below the minimum rate of 1024 bytes/s; body not complete (status 200) after 1."),
        "{msg}"
    );
    assert_eq!(server.count("/drip"), 1);
}

#[tokio::test]
async fn a_dripped_head_is_a_slow_transfer() {
    let server = HostileServer::builder()
        .route("/head", Behaviour::DripHead { body: b"late".to_vec(), interval: Duration::from_millis(40) })
        .start()
        .unwrap();
    let r = fetch_all(&fetcher(slow_config()), &get(at(&server, "/head"))).await;
    assert_eq!(class(&r), Some("slow_transfer"), "{:?}", r.meta.failure);
    assert_eq!(r.meta.status, None, "the head never completed");
    assert!(r.body.is_empty());
    assert_eq!((r.meta.size, r.meta.sha256.as_deref()), (0, None));
    let msg = r.meta.failure.unwrap().message;
    assert!(msg.contains("below the minimum rate of 1024 bytes/s; response head not complete after 1."), "{msg}");
}

#[tokio::test]
async fn a_held_connection_is_a_timeout_not_a_slow_transfer() {
    // Content-Length 1000, 7 bytes, then silence: nothing in the window judged at 1 s.
    let server = HostileServer::builder()
        .route("/held", Behaviour::Hold { declared: 1000, sent: b"partial".to_vec() })
        .start()
        .unwrap();
    let r = fetch_all(&fetcher(slow_config()), &get(at(&server, "/held"))).await;
    assert_eq!(class(&r), Some("timeout"), "{:?}", r.meta.failure);
    assert_eq!(r.meta.status, Some(200));
    assert_eq!(r.body, b"partial");
    assert!(r.meta.truncated);
    let msg = r.meta.failure.unwrap().message;
    let prefix = format!("{}: nothing received in the last 0.", server.url("/held"));
    assert!(msg.starts_with(&prefix), "stopped by the rate rule, not the 10 s timeout: {msg}");
    assert!(msg.ends_with("; body not complete (status 200)"), "{msg}");
}

#[tokio::test]
async fn the_rate_rule_can_be_turned_off() {
    let server = HostileServer::builder()
        .route("/held", Behaviour::Hold { declared: 1000, sent: b"partial".to_vec() })
        .start()
        .unwrap();
    let cfg = FetcherConfig { min_transfer_rate: 0, timeout: Duration::from_millis(1500), ..slow_config() };
    let r = fetch_all(&fetcher(cfg), &get(at(&server, "/held"))).await;
    assert_eq!(class(&r), Some("timeout"));
    let msg = r.meta.failure.unwrap().message;
    assert_eq!(msg, format!("{}: body not complete (status 200) within 1.5s", server.url("/held")));
}

#[tokio::test]
async fn a_retry_after_over_the_cap_rate_limits_the_host_and_nothing_more_is_sent() {
    let server = HostileServer::builder()
        .route("/busy", Behaviour::RetryAfter { status: 429, retry_after: "3600".into() })
        .welcome()
        .start()
        .unwrap();
    let f: Fetcher = fetcher(test_config());
    assert_eq!(f.config().max_retry_after, Duration::from_secs(60), "the default cap");
    let r = fetch_all(&f, &get(at(&server, "/busy"))).await;
    assert_eq!(class(&r), Some("rate_limited"), "{:?}", r.meta.failure);
    assert_eq!(r.meta.status, Some(429));
    assert_eq!(r.meta.retry_after_secs, Some(3600));
    assert!(r.body.is_empty());
    let limit = f.rate_limited("127.0.0.1").expect("the host is rate-limited");
    assert_eq!((limit.status, limit.retry_after_secs), (429, 3600));
    assert_eq!(limit.until.duration_since(limit.since).as_secs(), 3600);
    let msg = r.meta.failure.unwrap().message;
    assert_eq!(
        msg,
        format!(
            "{} answered 429 with Retry-After: 3600 s, longer than the fetcher waits (60s); not retried, and \
             127.0.0.1 is rate-limited until {:.0}",
            server.url("/busy"),
            limit.until
        )
    );
    // Any later request to the host fails at once, nothing sent.
    let r = fetch_all(&f, &get(at(&server, "/robots.txt"))).await;
    assert_eq!(class(&r), Some("rate_limited"));
    assert_eq!((r.meta.status, r.meta.retry_after_secs), (None, Some(3600)));
    let msg = r.meta.failure.unwrap().message;
    assert_eq!(
        msg,
        format!(
            "{}: not requested: 127.0.0.1 answered 429 with Retry-After: 3600 s at {:.0}; rate-limited until {:.0}",
            server.url("/robots.txt"),
            limit.since,
            limit.until
        )
    );
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/busy"], "the second request was never sent");
    // Another host has its own budget.
    assert_eq!(f.rate_limited("localhost"), None);
}

#[tokio::test]
async fn a_retry_after_within_the_cap_is_waited_for_and_retried() {
    let server = HostileServer::builder()
        .route("/busy", Behaviour::RetryAfter { status: 503, retry_after: "1".into() })
        .start()
        .unwrap();
    let f = fetcher(test_config());
    let r = fetch_all(&f, &get(at(&server, "/busy"))).await;
    assert_eq!(class(&r), None, "the last 503 is a response");
    assert_eq!(r.meta.status, Some(503));
    assert_eq!(r.meta.retry_after_secs, None);
    assert_eq!(r.body, b"slow down");
    assert_eq!(server.count("/busy"), 2, "one try and one retry");
    assert_eq!(f.rate_limited("127.0.0.1"), None);
}
