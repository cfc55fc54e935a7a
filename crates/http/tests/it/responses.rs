//! Responses: statuses, headers, metadata, content decoding, body caps, HEAD.

use crate::common;

use common::*;
use wellknown_core::FetchPolicy;

const BR_TEXT: &[u8] = include_bytes!("../data/robots.txt");
const BR_BODY: &[u8] = include_bytes!("../data/robots.txt.br");
const BR_BOMB: &[u8] = include_bytes!("../data/zeros-16MiB.br");

fn deflate_zlib(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn deflate_raw(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

async fn encoded_server() -> std::net::SocketAddr {
    http_server(handler(|req| {
        let ae = req.headers().get("accept-encoding").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        let ua = req.headers().get("user-agent").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        match req.uri().path() {
            "/plain" => resp(200, &[("content-type", "text/plain"), ("x-seen-ae", &ae), ("x-seen-ua", &ua)], "hello"),
            "/gzip" => {
                resp(200, &[("content-type", "text/plain"), ("content-encoding", "gzip")], gzip(b"gzipped body"))
            }
            "/x-gzip" => resp(200, &[("content-encoding", "x-gzip")], gzip(b"x-gzipped body")),
            "/zlib" => resp(200, &[("content-encoding", "deflate")], deflate_zlib(b"zlib body")),
            "/raw-deflate" => resp(200, &[("content-encoding", "deflate")], deflate_raw(b"raw deflate body")),
            "/br" => resp(200, &[("content-encoding", "br")], BR_BODY),
            "/br-bomb" => resp(200, &[("content-encoding", "br")], BR_BOMB),
            "/gzip-bomb" => resp(200, &[("content-encoding", "gzip")], gzip(&vec![0u8; 32 * 1024 * 1024])),
            "/big" => resp(200, &[("content-type", "text/plain")], vec![b'a'; 300_000]),
            "/corrupt" => resp(200, &[("content-encoding", "gzip")], "this is not gzip at all"),
            "/zstd" => resp(200, &[("content-encoding", "zstd")], "opaque"),
            "/echo-accept" => {
                let accept = req.headers().get("accept").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
                let custom = req.headers().get("x-custom").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
                resp(200, &[], format!("{accept}|{custom}|{ae}"))
            }
            "/500" => resp(500, &[("content-type", "text/html")], "<h1>oops</h1>"),
            "/404" => resp(404, &[], "not found"),
            "/401" => resp(401, &[("www-authenticate", "Basic realm=x")], "who are you"),
            _ => resp(404, &[], ""),
        }
    }))
    .await
}

#[tokio::test]
async fn plain_200_fills_metadata() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    let before = jiff::Timestamp::now();
    let r = fetch_all(&f, &get(url(addr, "/plain"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.body, b"hello");
    let m = &r.meta;
    assert_eq!(m.status, Some(200));
    assert_eq!(m.requested_url, url(addr, "/plain"));
    assert_eq!(m.url, url(addr, "/plain"));
    assert!(m.redirect_chain.is_empty());
    assert_eq!(m.content_type.as_deref(), Some("text/plain"));
    assert_eq!(m.content_encoding, None);
    assert_eq!(m.size, 5);
    assert_eq!(m.sha256.as_deref(), Some(sha256_hex(b"hello").as_str()));
    assert!(!m.truncated);
    assert!(m.fetched_at >= before);
    assert!(m.is_success());
}

#[tokio::test]
async fn sends_user_agent_and_accept_encoding() {
    let addr = http_server(handler(|req| {
        let h = |n: &str| req.headers().get(n).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        resp(200, &[], format!("{}\n{}\n{}", h("user-agent"), h("accept-encoding"), h("host")))
    }))
    .await;
    let f = fetcher(test_config());
    let r = fetch_all(&f, &get(url(addr, "/"))).await;
    let text = String::from_utf8(r.body).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], wellknown_http::DEFAULT_USER_AGENT);
    assert!(
        lines[0].starts_with("wellknown/") && lines[0].ends_with("(+https://github.com/wellknown-scanner/wellknown)")
    );
    assert_eq!(lines[1], "gzip, deflate, br");
    assert_eq!(lines[2], addr.to_string());
}

#[tokio::test]
async fn accept_and_extra_headers_are_sent() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    let mut req = get(url(addr, "/echo-accept"));
    req.policy.accept = Some("application/json".into());
    req.headers.push(("X-Custom".into(), "42".into()));
    let r = fetch_all(&f, &req).await;
    assert_eq!(r.body, b"application/json|42|gzip, deflate, br");
    // Without decoding, no Accept-Encoding is offered.
    req.policy.decode_content_encoding = false;
    let r = fetch_all(&f, &req).await;
    assert_eq!(r.body, b"application/json|42|");
}

#[tokio::test]
async fn gzip_deflate_and_br_are_decoded() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    for (path, body) in [
        ("/gzip", &b"gzipped body"[..]),
        ("/x-gzip", b"x-gzipped body"),
        ("/zlib", b"zlib body"),
        ("/raw-deflate", b"raw deflate body"),
        ("/br", BR_TEXT),
    ] {
        let r = fetch_all(&f, &get(url(addr, path))).await;
        assert_eq!(class(&r), None, "{path}");
        assert_eq!(r.body, body, "{path}");
        assert_eq!(r.meta.size, body.len() as u64, "{path}");
        assert_eq!(r.meta.sha256.as_deref(), Some(sha256_hex(body).as_str()), "{path}");
        assert!(r.meta.content_encoding.is_some(), "{path}: header kept as sent");
        assert!(!r.meta.truncated);
    }
}

#[tokio::test]
async fn raw_bytes_when_decoding_is_off() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    let policy = FetchPolicy { decode_content_encoding: false, ..FetchPolicy::default() };
    let r = fetch_all(&f, &wellknown_core::FetchRequest::get(url(addr, "/gzip"), policy)).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.body, gzip(b"gzipped body"));
    assert_eq!(r.meta.content_encoding.as_deref(), Some("gzip"));
}

#[tokio::test]
async fn unknown_coding_is_returned_as_received() {
    let addr = encoded_server().await;
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/zstd"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.body, b"opaque");
    assert_eq!(r.meta.content_encoding.as_deref(), Some("zstd"));
}

#[tokio::test]
async fn corrupt_gzip_is_a_protocol_failure() {
    let addr = encoded_server().await;
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/corrupt"))).await;
    assert_eq!(class(&r), Some("protocol"));
    assert!(r.meta.failure.unwrap().message.contains("gzip"));
    assert!(r.body.is_empty());
    assert_eq!(r.meta.status, Some(200));
}

#[tokio::test]
async fn compression_bombs_stop_at_the_cap() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    for path in ["/gzip-bomb", "/br-bomb"] {
        let policy = FetchPolicy { max_body_bytes: 100_000, ..FetchPolicy::default() };
        let r = fetch_all(&f, &wellknown_core::FetchRequest::get(url(addr, path), policy)).await;
        assert_eq!(class(&r), None, "{path}: a policy cap is not a failure");
        assert!(r.meta.truncated, "{path}");
        assert_eq!(r.body.len(), 100_000, "{path}");
        assert!(r.body.iter().all(|&b| b == 0));
        assert_eq!(r.meta.size, 100_000);
        assert_eq!(r.meta.sha256.as_deref(), Some(sha256_hex(&r.body).as_str()));
    }
}

#[tokio::test]
async fn body_over_policy_cap_is_truncated() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    let policy = FetchPolicy { max_body_bytes: 1000, ..FetchPolicy::default() };
    let r = fetch_all(&f, &wellknown_core::FetchRequest::get(url(addr, "/big"), policy)).await;
    assert_eq!(class(&r), None);
    assert!(r.meta.truncated);
    assert_eq!(r.body, vec![b'a'; 1000]);
    assert_eq!(r.meta.status, Some(200));
}

#[tokio::test]
async fn body_over_hard_cap_is_body_too_large() {
    let addr = encoded_server().await;
    let f = fetcher(wellknown_http::FetcherConfig { max_body_bytes_hard_cap: 2048, ..test_config() });
    // The policy allows more than the hard cap: the hard cap applies and it is a failure.
    let r = fetch_all(&f, &get(url(addr, "/big"))).await;
    assert_eq!(class(&r), Some("body_too_large"));
    assert!(r.meta.truncated);
    assert_eq!(r.body.len(), 2048, "bytes up to the cap are kept");
    assert_eq!(r.meta.size, 2048);
    // A smaller body passes.
    let r = fetch_all(&f, &get(url(addr, "/plain"))).await;
    assert_eq!(class(&r), None);
}

#[tokio::test]
async fn error_statuses_are_responses() {
    let addr = encoded_server().await;
    let f = fetcher(test_config());
    for (path, status, body) in
        [("/500", 500, &b"<h1>oops</h1>"[..]), ("/404", 404, b"not found"), ("/401", 401, b"who are you")]
    {
        let r = fetch_all(&f, &get(url(addr, path))).await;
        assert_eq!(class(&r), None, "{path}");
        assert_eq!(r.meta.status, Some(status));
        assert_eq!(r.body, body);
        assert!(!r.meta.is_success());
    }
}

#[tokio::test]
async fn head_has_no_body() {
    let addr = http_server(handler(|req| {
        assert_eq!(req.method(), http::Method::HEAD);
        resp(200, &[("content-type", "text/plain"), ("content-length", "5")], "")
    }))
    .await;
    let r = fetch_all(&fetcher(test_config()), &head(url(addr, "/x"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(r.meta.status, Some(200));
    assert!(r.body.is_empty());
    assert_eq!(r.meta.size, 0);
    assert_eq!(r.meta.sha256, None);
    assert_eq!(r.meta.content_type.as_deref(), Some("text/plain"));
}

#[tokio::test]
async fn connections_are_reused() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    // Count distinct connections with a raw server that speaks keep-alive HTTP/1.1.
    let conns = Arc::new(AtomicUsize::new(0));
    let c2 = conns.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            c2.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let svc = hyper::service::service_fn(|req: http::Request<hyper::body::Incoming>| async move {
                    let r = match req.uri().path() {
                        "/moved" => resp(301, &[("location", "/")], "moved to /"),
                        _ => resp(200, &[], "ok"),
                    };
                    Ok::<_, std::convert::Infallible>(r)
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), svc)
                    .await;
            });
        }
    });
    let f = fetcher(test_config());
    for _ in 0..5 {
        let r = fetch_all(&f, &get(url(addr, "/"))).await;
        assert_eq!(r.body, b"ok");
    }
    assert_eq!(conns.load(Ordering::SeqCst), 1, "sequential requests share one connection");
    // A redirect's small body is drained so the next hop reuses the connection.
    let r = fetch_all(&f, &get(url(addr, "/moved"))).await;
    assert_eq!(r.body, b"ok");
    assert_eq!(r.meta.redirect_chain.len(), 1);
    assert_eq!(conns.load(Ordering::SeqCst), 1, "redirect hop reused the connection");
}
