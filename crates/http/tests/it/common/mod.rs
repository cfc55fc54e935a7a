//! Loopback test servers: a hyper HTTP server, a TLS server with a throwaway rcgen CA, a raw TCP
//! server for misbehaving peers, and a tiny UDP DNS responder. Nothing leaves 127.0.0.1.
#![allow(dead_code)]

use std::convert::Infallible;
use std::future::Future;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};
use url::Url;
use wellknown_core::{FetchPolicy, FetchRequest, FetchResult, Method};
use wellknown_http::{Fetcher, FetcherConfig};

pub type Resp = Response<Full<Bytes>>;
pub type Handler = Arc<dyn Fn(Request<Incoming>) -> Pin<Box<dyn Future<Output = Resp> + Send>> + Send + Sync>;

/// A sync handler wrapped as an async one.
pub fn handler<F>(f: F) -> Handler
where
    F: Fn(&Request<Incoming>) -> Resp + Send + Sync + 'static,
{
    Arc::new(move |req| {
        let r = f(&req);
        Box::pin(async move { r })
    })
}

pub fn resp(status: u16, headers: &[(&str, &str)], body: impl Into<Bytes>) -> Resp {
    let mut b = Response::builder().status(StatusCode::from_u16(status).unwrap());
    for (k, v) in headers {
        b = b.header(*k, *v);
    }
    b.body(Full::new(body.into())).unwrap()
}

/// A plain HTTP/1.1 server on 127.0.0.1:0.
pub async fn http_server(h: Handler) -> SocketAddr {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let h = h.clone();
            tokio::spawn(async move {
                let svc = service_fn(move |req| {
                    let h = h.clone();
                    async move { Ok::<_, Infallible>(h(req).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), svc).await;
            });
        }
    });
    addr
}

/// A raw TCP server: each connection reads the request head, then `script` writes what it wants.
pub async fn raw_server<F, Fut>(script: F) -> SocketAddr
where
    F: Fn(TcpStream) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let script = Arc::new(script);
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else { return };
            let script = script.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 1024];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                script(stream).await;
            });
        }
    });
    addr
}

/// Writes `bytes` then keeps the connection open for `hold`.
pub async fn write_and_hold(mut s: TcpStream, bytes: &'static [u8], hold: Duration) {
    let _ = s.write_all(bytes).await;
    let _ = s.flush().await;
    tokio::time::sleep(hold).await;
}

/// A throwaway certificate authority and leaf certificates it signs.
pub struct TestCa {
    pub cert: rcgen::Certificate,
    pub key: rcgen::KeyPair,
}

impl TestCa {
    pub fn new() -> TestCa {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.distinguished_name.push(rcgen::DnType::CommonName, "wellknown test CA");
        params.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::CrlSign];
        let cert = params.self_signed(&key).unwrap();
        TestCa { cert, key }
    }

    pub fn der(&self) -> Vec<u8> {
        self.cert.der().to_vec()
    }

    /// A leaf for `names`, valid now unless `expired`.
    pub fn leaf(&self, names: &[&str], expired: bool) -> (CertificateDer<'static>, PrivateKeyDer<'static>) {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params =
            rcgen::CertificateParams::new(names.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        if expired {
            params.not_before = rcgen::date_time_ymd(2001, 1, 1);
            params.not_after = rcgen::date_time_ymd(2002, 1, 1);
        }
        let cert = params.signed_by(&key, &self.cert, &self.key).unwrap();
        (cert.der().clone(), PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())))
    }
}

/// A self-signed leaf (no CA anyone trusts).
pub fn self_signed(names: &[&str]) -> (CertificateDer<'static>, PrivateKeyDer<'static>) {
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(names.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    let cert = params.self_signed(&key).unwrap();
    (cert.der().clone(), PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())))
}

/// An HTTPS server (HTTP/1.1 and HTTP/2 by ALPN) on 127.0.0.1:0 with the given certificate.
pub async fn https_server(cert: (CertificateDer<'static>, PrivateKeyDer<'static>), h: Handler) -> SocketAddr {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut cfg = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.0], cert.1)
        .unwrap();
    cfg.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(cfg));
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let acceptor = acceptor.clone();
            let h = h.clone();
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(stream).await else { return };
                let svc = service_fn(move |req| {
                    let h = h.clone();
                    async move { Ok::<_, Infallible>(h(req).await) }
                });
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(tls), svc)
                    .await;
            });
        }
    });
    addr
}

/// What the fake DNS server answers for a name.
#[derive(Clone, Copy)]
pub enum DnsAnswer {
    NxDomain,
    NoRecords,
    ServFail,
    A(Ipv4Addr),
}

/// A UDP DNS responder on 127.0.0.1:0: `answer(name)` decides (names lower-case, no final dot).
pub async fn dns_server(answer: fn(&str) -> DnsAnswer) -> SocketAddr {
    let sock = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
    let addr = sock.local_addr().unwrap();
    tokio::spawn(async move {
        let mut buf = [0u8; 1500];
        loop {
            let Ok((n, peer)) = sock.recv_from(&mut buf).await else { return };
            if let Some(reply) = dns_reply(&buf[..n], answer) {
                let _ = sock.send_to(&reply, peer).await;
            }
        }
    });
    addr
}

fn dns_reply(q: &[u8], answer: fn(&str) -> DnsAnswer) -> Option<Vec<u8>> {
    if q.len() < 12 {
        return None;
    }
    let mut i = 12;
    let mut labels = Vec::new();
    loop {
        let len = *q.get(i)? as usize;
        i += 1;
        if len == 0 {
            break;
        }
        labels.push(String::from_utf8_lossy(q.get(i..i + len)?).to_ascii_lowercase());
        i += len;
    }
    let qtype = u16::from_be_bytes([*q.get(i)?, *q.get(i + 1)?]);
    let question = q.get(12..i + 4)?;
    let name = labels.join(".");
    let (rcode, a) = match answer(&name) {
        DnsAnswer::NxDomain => (3u16, None),
        DnsAnswer::NoRecords => (0, None),
        DnsAnswer::ServFail => (2, None),
        DnsAnswer::A(ip) => (0, (qtype == 1).then_some(ip)),
    };
    let rd = u16::from_be_bytes([q[2], q[3]]) & 0x0100;
    let flags = 0x8000 | 0x0400 | rd | 0x0080 | rcode;
    let mut out = Vec::new();
    out.extend_from_slice(&q[0..2]);
    out.extend_from_slice(&flags.to_be_bytes());
    out.extend_from_slice(&1u16.to_be_bytes());
    out.extend_from_slice(&(a.is_some() as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(question);
    if let Some(ip) = a {
        out.extend_from_slice(&[0xC0, 0x0C, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4]);
        out.extend_from_slice(&ip.octets());
    }
    Some(out)
}

/// A config for loopback tests: private addresses allowed, short timeouts, no rate limit.
pub fn test_config() -> FetcherConfig {
    FetcherConfig {
        allow_private: true,
        connect_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(5),
        max_rate_per_host: 0.0,
        max_concurrent_per_host: 8,
        ..FetcherConfig::default()
    }
}

pub fn fetcher(cfg: FetcherConfig) -> Fetcher {
    Fetcher::new(cfg).unwrap()
}

pub fn url(addr: SocketAddr, path: &str) -> Url {
    format!("http://{addr}{path}").parse().unwrap()
}

pub fn get(u: Url) -> FetchRequest {
    FetchRequest::get(u, FetchPolicy::default())
}

pub fn head(u: Url) -> FetchRequest {
    FetchRequest { method: Method::Head, ..get(u) }
}

pub async fn fetch_all(f: &Fetcher, req: &FetchRequest) -> FetchResult {
    f.fetch(req, &|_: &Url| true).await
}

pub fn class(r: &FetchResult) -> Option<&'static str> {
    r.meta.failure.as_ref().map(|f| f.class.as_str())
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(data))
}
