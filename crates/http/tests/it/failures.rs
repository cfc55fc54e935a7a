//! Failure classification: DNS, connect, TLS, timeouts, protocol, private addresses; plus
//! `--resolve`, TLS with a trusted throwaway CA, and virtual-host fetches.

use crate::common;

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use common::*;
use wellknown_http::FetcherConfig;

fn message(r: &wellknown_core::FetchResult) -> String {
    r.meta.failure.as_ref().map(|f| f.message.clone()).unwrap_or_default()
}

fn host_echo() -> Handler {
    handler(|req| {
        let host = req.headers().get("host").map(|v| v.to_str().unwrap().to_string());
        let host = host.or_else(|| req.uri().authority().map(|a| a.to_string())).unwrap_or_default();
        resp(200, &[("content-type", "text/plain")], format!("{host} {:?}", req.version()))
    })
}

#[tokio::test]
async fn closed_port_is_connect_refused() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("connect_refused"));
    assert_eq!(r.meta.status, None);
    assert!(r.body.is_empty());
    assert!(r.meta.failure.unwrap().message.contains(&addr.to_string()));
}

#[tokio::test]
async fn full_backlog_is_connect_timeout() {
    // A listener that never accepts: once its backlog is full the kernel drops new SYNs, so the
    // connect neither succeeds nor is refused. Loopback only.
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = sock.listen(1).unwrap();
    let addr = listener.local_addr().unwrap();
    let mut fillers = Vec::new();
    for _ in 0..8 {
        match tokio::time::timeout(Duration::from_millis(200), tokio::net::TcpStream::connect(addr)).await {
            Ok(Ok(s)) => fillers.push(s),
            _ => break,
        }
    }
    let cfg = FetcherConfig { connect_timeout: Duration::from_millis(300), ..test_config() };
    let r = fetch_all(&fetcher(cfg), &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("connect_timeout"), "{:?}", r.meta.failure);
    drop(listener);
}

#[tokio::test]
async fn invalid_name_is_a_dns_failure() {
    // RFC 6761: `.invalid` never resolves; hickory answers NXDOMAIN without any query. Whatever
    // the sandbox's DNS, the class must be a dns_* class.
    let f = fetcher(FetcherConfig { connect_timeout: Duration::from_secs(2), ..FetcherConfig::default() });
    let r = fetch_all(&f, &get("https://no-such-host.wellknown-test.invalid/robots.txt".parse().unwrap())).await;
    let c = class(&r).unwrap();
    assert!(["dns_nxdomain", "dns_no_answer", "dns_failure"].contains(&c), "{c}");
    assert_eq!(c, "dns_nxdomain");
    assert_eq!(r.meta.status, None);
}

#[tokio::test]
async fn dns_answers_are_classified() {
    let http = http_server(host_echo()).await;
    let dns = dns_server(|name| match name {
        "nx.test" => DnsAnswer::NxDomain,
        "empty.test" => DnsAnswer::NoRecords,
        "broken.test" => DnsAnswer::ServFail,
        "ok.test" => DnsAnswer::A(Ipv4Addr::LOCALHOST),
        _ => DnsAnswer::NxDomain,
    })
    .await;
    let f = fetcher(FetcherConfig { dns_servers: vec![dns], ..test_config() });
    let port = http.port();
    let u = |host: &str| format!("http://{host}:{port}/").parse().unwrap();
    assert_eq!(class(&fetch_all(&f, &get(u("nx.test"))).await), Some("dns_nxdomain"));
    assert_eq!(class(&fetch_all(&f, &get(u("empty.test"))).await), Some("dns_no_answer"));
    assert_eq!(class(&fetch_all(&f, &get(u("broken.test"))).await), Some("dns_failure"));
    let r = fetch_all(&f, &get(u("ok.test"))).await;
    assert_eq!(class(&r), None);
    assert_eq!(String::from_utf8(r.body).unwrap(), format!("ok.test:{port} HTTP/1.1"));
    // The same name without allow_private resolves to loopback and is refused after DNS.
    let strict = fetcher(FetcherConfig { dns_servers: vec![dns], allow_private: false, ..test_config() });
    let r = fetch_all(&strict, &get(u("ok.test"))).await;
    assert_eq!(class(&r), Some("private_address"));
    assert!(r.meta.failure.unwrap().message.contains("127.0.0.1 (loopback address)"));
}

#[tokio::test]
async fn private_addresses_are_refused_without_allow_private() {
    let http = http_server(host_echo()).await;
    let strict = FetcherConfig { allow_private: false, ..test_config() };
    let f = fetcher(strict.clone());
    let r = fetch_all(&f, &get(url(http, "/"))).await;
    assert_eq!(class(&r), Some("private_address"));
    let msg = r.meta.failure.as_ref().map(|f| f.message.clone()).unwrap_or_default();
    assert_eq!(msg, "127.0.0.1 (loopback address); refused without --allow-private");
    // A --resolve override to loopback is checked too, and the message says where the address came from.
    let cfg = FetcherConfig {
        resolve: vec![format!("public.test:{}:127.0.0.1", http.port()).parse().unwrap()],
        ..strict.clone()
    };
    let f = fetcher(cfg);
    let r = fetch_all(&f, &get(format!("http://public.test:{}/", http.port()).parse().unwrap())).await;
    assert_eq!(class(&r), Some("private_address"));
    assert_eq!(
        message(&r),
        "public.test is mapped to 127.0.0.1 (loopback address) by --resolve; refused without --allow-private"
    );
    // So is a --connect-to route: nothing was resolved.
    let routed = FetcherConfig {
        connect_to: vec![format!(":443:127.0.0.1:{}", http.port()).parse().unwrap()],
        ..strict.clone()
    };
    let r = fetch_all(&fetcher(routed), &get("https://plainsec.test/".parse().unwrap())).await;
    assert_eq!(class(&r), Some("private_address"));
    assert_eq!(
        message(&r),
        "plainsec.test is routed to 127.0.0.1 (loopback address) by --connect-to; refused without --allow-private"
    );
    let routed_by_name = FetcherConfig {
        connect_to: vec![format!(":443:backend.test:{}", http.port()).parse().unwrap()],
        resolve: vec![format!("backend.test:{}:10.0.0.7", http.port()).parse().unwrap()],
        ..strict.clone()
    };
    let r = fetch_all(&fetcher(routed_by_name), &get("https://plainsec.test/".parse().unwrap())).await;
    assert_eq!(
        message(&r),
        "plainsec.test is routed by --connect-to to backend.test, which --resolve maps to 10.0.0.7 (private address \
         (RFC 1918)); refused without --allow-private"
    );
    // And so is a virtual-host address.
    let r = f
        .fetch_vhost(
            &get(format!("http://vhost.test:{}/", http.port()).parse().unwrap()),
            &|_: &url::Url| true,
            IpAddr::V4(Ipv4Addr::LOCALHOST),
        )
        .await;
    assert_eq!(class(&r), Some("private_address"));
    // IPv4-mapped IPv6 loopback is loopback.
    let r = fetch_all(&f, &get(format!("http://[::ffff:127.0.0.1]:{}/", http.port()).parse().unwrap())).await;
    assert_eq!(class(&r), Some("private_address"));
}

#[tokio::test]
async fn resolve_override_maps_a_name() {
    let http = http_server(host_echo()).await;
    let cfg = FetcherConfig {
        resolve: vec![format!("site.test:{}:127.0.0.1", http.port()).parse().unwrap()],
        ..test_config()
    };
    let r = fetch_all(&fetcher(cfg), &get(format!("http://site.test:{}/", http.port()).parse().unwrap())).await;
    assert_eq!(class(&r), None);
    assert_eq!(String::from_utf8(r.body).unwrap(), format!("site.test:{} HTTP/1.1", http.port()));
}

#[tokio::test]
async fn vhost_fetch_sends_the_url_host() {
    let http = http_server(host_echo()).await;
    let f = fetcher(test_config());
    let req = get(format!("http://revealed.test:{}/", http.port()).parse().unwrap());
    let r = f.fetch_vhost(&req, &|_: &url::Url| true, IpAddr::V4(Ipv4Addr::LOCALHOST)).await;
    assert_eq!(class(&r), None);
    assert_eq!(String::from_utf8(r.body).unwrap(), format!("revealed.test:{} HTTP/1.1", http.port()));
}

#[tokio::test]
async fn self_signed_certificate_is_tls_unknown_issuer() {
    let https = https_server(self_signed(&["localhost"]), host_echo()).await;
    let r =
        fetch_all(&fetcher(test_config()), &get(format!("https://localhost:{}/", https.port()).parse().unwrap())).await;
    assert_eq!(class(&r), Some("tls"));
    let msg = r.meta.failure.unwrap().message;
    assert!(msg.contains("UnknownIssuer"), "{msg}");
}

#[tokio::test]
async fn trusted_ca_over_https_with_resolve() {
    let ca = TestCa::new();
    let https = https_server(ca.leaf(&["secure.test"], false), host_echo()).await;
    let port = https.port();
    let cfg = FetcherConfig {
        resolve: vec![format!("secure.test:{port}:127.0.0.1").parse().unwrap()],
        extra_root_certs_der: vec![ca.der()],
        ..test_config()
    };
    let f = fetcher(cfg);
    let u: url::Url = format!("https://secure.test:{port}/robots.txt").parse().unwrap();
    let r = fetch_all(&f, &get(u.clone())).await;
    assert_eq!(class(&r), None, "{:?}", r.meta.failure);
    assert_eq!(r.meta.status, Some(200));
    assert_eq!(String::from_utf8(r.body).unwrap(), format!("secure.test:{port} HTTP/2.0"), "ALPN chose h2");
    // The shared HTTP/2 connection serves the next request too.
    let r = fetch_all(&f, &get(u)).await;
    assert_eq!(r.meta.status, Some(200));
    // Virtual-host fetch over TLS: SNI and :authority are the URL's host.
    let r = f
        .fetch_vhost(
            &get(format!("https://secure.test:{port}/").parse().unwrap()),
            &|_: &url::Url| true,
            IpAddr::V4(Ipv4Addr::LOCALHOST),
        )
        .await;
    assert_eq!(class(&r), None, "{:?}", r.meta.failure);
}

#[tokio::test]
async fn ca_from_pem_file() {
    let ca = TestCa::new();
    let https = https_server(ca.leaf(&["pem.test"], false), host_echo()).await;
    let port = https.port();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("wellknown-http-ca-{port}.pem"));
    std::fs::write(&path, ca.cert.pem()).unwrap();
    let cfg = FetcherConfig {
        resolve: vec![format!("pem.test:{port}:127.0.0.1").parse().unwrap()],
        extra_root_certs_pem: vec![path.clone()],
        ..test_config()
    };
    let r = fetch_all(&fetcher(cfg), &get(format!("https://pem.test:{port}/").parse().unwrap())).await;
    assert_eq!(class(&r), None, "{:?}", r.meta.failure);
    // A file without certificates is a configuration error.
    std::fs::write(&path, "not a certificate").unwrap();
    let err = wellknown_http::Fetcher::new(FetcherConfig { extra_root_certs_pem: vec![path.clone()], ..test_config() })
        .unwrap_err();
    assert!(err.to_string().contains("no certificate"), "{err}");
    let _ = std::fs::remove_file(path);
}

#[tokio::test]
async fn expired_and_mismatched_certificates() {
    let ca = TestCa::new();
    let expired = https_server(ca.leaf(&["old.test"], true), host_echo()).await;
    // A shared certificate with 215 names: the message lists three and counts the rest.
    let many: Vec<String> =
        std::iter::once("other.test".to_string()).chain((1..215).map(|i| format!("customer{i}.cdn.example"))).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let other = https_server(ca.leaf(&many, false), host_echo()).await;
    let cfg = FetcherConfig {
        resolve: vec![
            format!("old.test:{}:127.0.0.1", expired.port()).parse().unwrap(),
            format!("wrong.test:{}:127.0.0.1", other.port()).parse().unwrap(),
        ],
        extra_root_certs_der: vec![ca.der()],
        ..test_config()
    };
    let f = fetcher(cfg);
    let r = fetch_all(&f, &get(format!("https://old.test:{}/", expired.port()).parse().unwrap())).await;
    assert_eq!(class(&r), Some("tls"));
    let msg = r.meta.failure.unwrap().message;
    assert!(msg.to_lowercase().contains("expired"), "{msg}");
    let r = fetch_all(&f, &get(format!("https://wrong.test:{}/", other.port()).parse().unwrap())).await;
    assert_eq!(class(&r), Some("tls"));
    let msg = r.meta.failure.unwrap().message;
    assert_eq!(
        msg,
        "invalid peer certificate: NotValidForName: \"wrong.test\" is not among the certificate's names \
         (other.test, customer1.cdn.example, customer2.cdn.example ... and 212 more)"
    );
}

#[tokio::test]
async fn stall_mid_body_is_timeout() {
    let addr = raw_server(|s| {
        write_and_hold(
            s,
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\npartial",
            Duration::from_secs(10),
        )
    })
    .await;
    let f = fetcher(FetcherConfig { timeout: Duration::from_millis(500), ..test_config() });
    let started = std::time::Instant::now();
    let r = fetch_all(&f, &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("timeout"));
    assert_eq!(r.meta.status, Some(200), "the head arrived");
    assert_eq!(r.body, b"partial", "the bytes read are kept");
    assert!(r.meta.truncated);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn stall_before_head_is_timeout() {
    let addr = raw_server(|s| write_and_hold(s, b"", Duration::from_secs(10))).await;
    let f = fetcher(FetcherConfig { timeout: Duration::from_millis(500), ..test_config() });
    let r = fetch_all(&f, &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("timeout"));
    assert_eq!(r.meta.status, None);
}

#[tokio::test]
async fn non_http_answer_is_protocol() {
    let addr = raw_server(|s| write_and_hold(s, b"SSH-2.0-OpenSSH_9.6\r\n", Duration::ZERO)).await;
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("protocol"), "{:?}", r.meta.failure);
}

#[tokio::test]
async fn connection_closed_mid_body_is_protocol() {
    let addr =
        raw_server(|s| write_and_hold(s, b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nshort", Duration::ZERO))
            .await;
    let r = fetch_all(&fetcher(test_config()), &get(url(addr, "/"))).await;
    assert_eq!(class(&r), Some("protocol"), "{:?}", r.meta.failure);
    assert_eq!(r.meta.status, Some(200));
}

#[tokio::test]
async fn http_server_spoken_to_with_tls_is_tls_failure() {
    let http = http_server(host_echo()).await;
    let r =
        fetch_all(&fetcher(test_config()), &get(format!("https://127.0.0.1:{}/", http.port()).parse().unwrap())).await;
    assert_eq!(class(&r), Some("tls"), "{:?}", r.meta.failure);
}
