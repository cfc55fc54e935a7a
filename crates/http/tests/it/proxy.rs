//! Fetching through the loopback proxies of `wellknown-tests`: an `https://` proxy trusted through
//! the proxy CA (`ProxyConfig::ca_der`), which is trusted for nothing fetched directly; the
//! target's certificate failures through a proxy keep `tls`; the proxy's own TLS failure is
//! `proxy_connect`; a 407 to a forwarded request is `proxy_auth_required`; the minimum transfer rate
//! still holds through a SOCKS5 tunnel; and an IP-literal target is refused by the private-address
//! rule before a proxy that resolves names is asked.

use std::net::SocketAddr;
use std::time::Duration;

use wellknown_http::{FetcherConfig, ProxyConfig, ProxyUrl};
use wellknown_tests::{Behaviour, HostileServer, ProxyProtocol, TestProxy};

use crate::common::*;

fn through(proxy: &str, ca_der: Vec<Vec<u8>>) -> FetcherConfig {
    let mut p = ProxyConfig::every_request(proxy.parse::<ProxyUrl>().unwrap());
    p.ca_der = ca_der;
    FetcherConfig { proxy: Some(p), ..test_config() }
}

fn site(addr: SocketAddr, scheme: &str, path: &str) -> url::Url {
    format!("{scheme}://site.test:{}{path}", addr.port()).parse().unwrap()
}

#[tokio::test]
async fn an_https_proxy_and_the_sites_behind_it_are_trusted_through_the_proxy_ca_only() {
    let ca = TestCa::new();
    let target = https_server(ca.leaf(&["site.test"], false), handler(|_| resp(200, &[], "behind the proxy"))).await;
    let (cert, key) = ca.leaf(&["127.0.0.1"], false);
    let proxy = TestProxy::builder(ProxyProtocol::Http)
        .route("site.test", None, target)
        .tls(vec![cert], key)
        .unwrap()
        .start()
        .unwrap();
    let url = site(target, "https", "/x");
    let r = fetch_all(&fetcher(through(&format!("https://{}", proxy.addr), vec![ca.der()])), &get(url.clone())).await;
    assert_eq!(class(&r), None, "{:?}", r.meta.failure);
    assert_eq!((r.meta.status, r.body.as_slice()), (Some(200), b"behind the proxy".as_slice()));
    assert_eq!(proxy.requests()[0].target, format!("site.test:{}", target.port()));

    // Directly, the proxy CA is not trusted: the target's certificate fails as ever.
    let direct = FetcherConfig {
        resolve: vec![format!("site.test:{}:127.0.0.1", target.port()).parse().unwrap()],
        proxy: None,
        ..test_config()
    };
    let r = fetch_all(&fetcher(direct), &get(url.clone())).await;
    assert_eq!(class(&r), Some("tls"), "{:?}", r.meta.failure);

    // Through a plain http proxy without the CA: the target's failure keeps its class.
    let plain = TestProxy::builder(ProxyProtocol::Http).route("site.test", None, target).start().unwrap();
    let r = fetch_all(&fetcher(through(&format!("http://{}", plain.addr), vec![])), &get(url.clone())).await;
    assert_eq!(class(&r), Some("tls"), "{:?}", r.meta.failure);
    assert!(r.meta.failure.unwrap().message.contains("UnknownIssuer"));

    // The https proxy's own certificate, not trusted: the proxy's failure.
    let r = fetch_all(&fetcher(through(&format!("https://{}", proxy.addr), vec![])), &get(url)).await;
    assert_eq!(class(&r), Some("proxy_connect"), "{:?}", r.meta.failure);
    let msg = r.meta.failure.unwrap().message;
    assert!(msg.starts_with(&format!("proxy {}: TLS: invalid peer certificate: UnknownIssuer", proxy.addr)), "{msg}");
}

#[tokio::test]
async fn a_forwarding_proxy_that_wants_credentials_is_proxy_auth_required() {
    let target = http_server(handler(|_| resp(200, &[], "plain"))).await;
    let proxy = TestProxy::builder(ProxyProtocol::Http)
        .route("site.test", None, target)
        .credentials("u", "right")
        .start()
        .unwrap();
    let url = site(target, "http", "/p?q=1");
    let r = fetch_all(&fetcher(through(&format!("http://u:wrong@{}", proxy.addr), vec![])), &get(url.clone())).await;
    assert_eq!(class(&r), Some("proxy_auth_required"), "{:?}", r.meta.failure);
    assert_eq!(
        r.meta.failure.unwrap().message,
        format!("proxy {}: {url}: answered 407: the credentials were refused", proxy.addr)
    );
    assert_eq!(r.meta.status, None, "the proxy's 407 is no status of the site");
    let r = fetch_all(&fetcher(through(&format!("http://u:right@{}", proxy.addr), vec![])), &get(url.clone())).await;
    assert_eq!((r.meta.status, r.body.as_slice()), (Some(200), b"plain".as_slice()));
    let log = proxy.requests();
    assert_eq!(log.last().map(|r| (r.method.as_str(), r.target.as_str())), Some(("GET", url.as_str())));
}

#[tokio::test]
async fn the_minimum_rate_holds_through_a_socks5_tunnel() {
    let server = HostileServer::builder()
        .route(
            "/drip",
            Behaviour::DripBody {
                body: b"0123456789abcdefghij".to_vec(),
                chunk: 10,
                interval: Duration::from_millis(700),
            },
        )
        .start()
        .unwrap();
    let proxy = TestProxy::builder(ProxyProtocol::Socks5).route("site.test", None, server.addr).start().unwrap();
    let cfg = FetcherConfig {
        min_transfer_rate: 1024,
        slow_transfer_grace: Duration::from_secs(1),
        timeout: Duration::from_secs(10),
        ..through(&format!("socks5h://{}", proxy.addr), vec![])
    };
    let r = fetch_all(&fetcher(cfg), &get(site(server.addr, "http", "/drip"))).await;
    assert_eq!(class(&r), Some("slow_transfer"), "{:?}", r.meta.failure);
    assert_eq!(r.body, b"0123456789");
    assert_eq!(proxy.requests()[0].target, format!("site.test:{}", server.addr.port()));
}

#[tokio::test]
async fn an_http_ip_literal_is_forwarded_and_a_virtual_host_try_is_tunnelled_to_its_address() {
    let target = http_server(handler(|req| {
        let host = req.headers().get("host").and_then(|h| h.to_str().ok()).unwrap_or_default().to_string();
        resp(200, &[], host)
    }))
    .await;
    let proxy = TestProxy::builder(ProxyProtocol::Http).start().unwrap();
    let f = fetcher(through(&format!("http://{}", proxy.addr), vec![]));
    let literal: url::Url = format!("http://{target}/a").parse().unwrap();
    let r = fetch_all(&f, &get(literal.clone())).await;
    assert_eq!(r.meta.status, Some(200), "{:?}", r.meta.failure);
    let vhost = site(target, "http", "/b");
    let r = f.fetch_vhost(&get(vhost), &|_: &url::Url| true, target.ip()).await;
    assert_eq!((r.meta.status, r.body.clone()), (Some(200), format!("site.test:{}", target.port()).into_bytes()));
    let log: Vec<(String, String)> = proxy.requests().into_iter().map(|q| (q.method, q.target)).collect();
    assert_eq!(log, vec![("GET".to_string(), literal.to_string()), ("CONNECT".to_string(), target.to_string())]);
}

#[tokio::test]
async fn an_ip_literal_target_is_refused_before_the_proxy_is_asked() {
    let proxy = TestProxy::builder(ProxyProtocol::Http).start().unwrap();
    let cfg = FetcherConfig { allow_private: false, ..through(&format!("http://{}", proxy.addr), vec![]) };
    let r = fetch_all(&fetcher(cfg), &get("https://127.0.0.1:9/".parse().unwrap())).await;
    assert_eq!(class(&r), Some("private_address"), "{:?}", r.meta.failure);
    assert!(proxy.requests().is_empty());
}
