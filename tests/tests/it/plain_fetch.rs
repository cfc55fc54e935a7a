//! The plain fetcher sends exactly the listed requests (method, scheme, host, path), within the
//! per-host limits, over TLS checked against the fixture CA, directly or through a delay proxy.

use std::time::Duration;

use wellknown_tests::plain_fetch::{Options, Planned, fetch_all};
use wellknown_tests::{DelayProxy, FixtureServer, fixture_sites};

const LIST: &str = "\
GET https://www.google.com/robots.txt
HEAD https://www.google.com/robots.txt
GET http://www.google.com/robots.txt
GET https://github.com/robots.txt
GET https://github.com/.well-known/security.txt
";

fn planned() -> Vec<Planned> {
    LIST.lines().map(|l| Planned::parse(l).unwrap()).collect()
}

/// (scheme, method, host, path) of every request the server answered, sorted.
fn served(server: &FixtureServer) -> Vec<(String, String, String, String)> {
    let mut v: Vec<_> =
        server.requests().into_iter().map(|r| (r.scheme.to_string(), r.method, r.host, r.path)).collect();
    v.sort();
    v
}

fn expected() -> Vec<(String, String, String, String)> {
    let mut v: Vec<_> = planned()
        .into_iter()
        .map(|p| {
            let scheme = p.url.scheme_str().unwrap().to_string();
            (scheme, p.method.to_string(), p.url.host().unwrap().to_string(), p.url.path().to_string())
        })
        .collect();
    v.sort();
    v
}

fn body_bytes() -> u64 {
    let size = |p: &str| std::fs::metadata(fixture_sites().join(p)).unwrap().len();
    // Two GETs of Google's robots.txt, one of GitHub's, and the 404 page ("not found").
    2 * size("www.google.com/robots.txt") + size("github.com/robots.txt") + "not found".len() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sends_exactly_the_listed_requests() {
    let server = FixtureServer::start_async(fixture_sites(), true).await.unwrap();
    let options = Options {
        http: server.http_addr,
        https: server.https_addr.unwrap(),
        ca_pem: server.ca_pem.clone().unwrap().into_bytes(),
        per_host: 1,
        rate: 0.0,
        timeout: Duration::from_secs(30),
    };
    let outcome = fetch_all(planned(), &options).await.unwrap();
    assert_eq!((outcome.requests, outcome.answered, outcome.failed, outcome.hosts), (5, 5, 0, 2));
    // One request slot per host: one https and one http connection to Google, one to GitHub.
    assert_eq!(outcome.connections, 3);
    assert_eq!(outcome.body_bytes, body_bytes());
    assert_eq!(served(&server), expected());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_delay_proxies_with_spacing() {
    let server = FixtureServer::start_async(fixture_sites(), true).await.unwrap();
    let rtt = Duration::from_millis(20);
    let http = DelayProxy::start(server.http_addr, rtt).await.unwrap();
    let https = DelayProxy::start(server.https_addr.unwrap(), rtt).await.unwrap();
    let options = Options {
        http: http.addr,
        https: https.addr,
        ca_pem: server.ca_pem.clone().unwrap().into_bytes(),
        per_host: 2,
        rate: 10.0,
        timeout: Duration::from_secs(30),
    };
    let outcome = fetch_all(planned(), &options).await.unwrap();
    assert_eq!((outcome.requests, outcome.answered, outcome.failed), (5, 5, 0));
    assert_eq!(outcome.connections, http.counters().connections + https.counters().connections);
    assert_eq!(http.counters().connections, 1, "one http request, one connection");
    // Three starts to www.google.com at most 10 a second: the third at least 200 ms after the first.
    assert!(outcome.elapsed >= Duration::from_millis(200), "{:?}", outcome.elapsed);
    assert_eq!(outcome.body_bytes, body_bytes());
    assert_eq!(served(&server), expected());
}

#[test]
fn parses_log_lines() {
    let p = Planned::parse("HEAD https://o0001.bench.test/a?b=c").unwrap();
    assert_eq!(
        (p.method.as_str(), p.url.host(), p.url.path_and_query().unwrap().as_str()),
        ("HEAD", Some("o0001.bench.test"), "/a?b=c")
    );
    for bad in ["GET", "GET /relative", "GET ftp://h/x", "G@T https://h/"] {
        assert!(Planned::parse(bad).is_err(), "{bad}");
    }
}
