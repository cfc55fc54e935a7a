//! The delay proxy holds every chunk at least half the round trip, and a new connection a whole
//! round trip, as its own counters show; what it forwards arrives whole and in order.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wellknown_tests::{DelayProxy, FixtureServer, fixture_sites};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_through_the_proxy_pays_the_round_trips() {
    let server = FixtureServer::start_async(fixture_sites(), false).await.unwrap();
    let rtt = Duration::from_millis(60);
    let proxy = DelayProxy::start(server.http_addr, rtt).await.unwrap();
    assert_eq!(proxy.counters().min_chunk_hold, None);

    let started = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(proxy.addr).await.unwrap();
    let request = b"GET /robots.txt HTTP/1.1\r\nHost: www.google.com\r\nConnection: close\r\n\r\n";
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let elapsed = started.elapsed();

    let expected = std::fs::read(fixture_sites().join("www.google.com/robots.txt")).unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(answer.ends_with(&expected), "the body arrived whole and in order");

    let c = proxy.counters();
    assert_eq!(c.connections, 1);
    assert_eq!(c.upstream_failures, 0);
    assert_eq!(c.bytes_up, request.len() as u64);
    assert_eq!(c.bytes_down, answer.len() as u64);
    assert!(c.chunks_up >= 1 && c.chunks_down >= 1, "{c:?}");
    assert!(c.min_chunk_hold.unwrap() >= rtt / 2, "{c:?}");
    assert!(c.min_connect_hold.unwrap() >= rtt, "{c:?}");
    // The connection's round trip, then the request's: a lower bound only, never an upper one.
    assert!(elapsed >= rtt * 2, "{elapsed:?}");

    let log = server.requests();
    assert_eq!(log.len(), 1);
    assert_eq!(server.requests_since(0), log);
    assert!(server.requests_since(1).is_empty() && server.requests_since(7).is_empty());
    assert_eq!((log[0].host.as_str(), log[0].path.as_str(), log[0].status), ("www.google.com", "/robots.txt", 200));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_refuses_closes_the_client() {
    // A port nothing listens on: bind one, note it, free it.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let proxy = DelayProxy::start(free, Duration::from_millis(10)).await.unwrap();
    let mut stream = tokio::net::TcpStream::connect(proxy.addr).await.unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    assert!(answer.is_empty());
    let c = proxy.counters();
    assert_eq!((c.connections, c.upstream_failures, c.chunks_up, c.chunks_down), (1, 1, 0, 0));
}
