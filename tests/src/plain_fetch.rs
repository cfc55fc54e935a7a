//! A plain async fetcher: the baseline the scan benchmark (`cargo xtask bench-scan --latency`)
//! compares the scan with.
//!
//! It sends a fixed list of requests — the ones a scan made, read from the fixture server's log —
//! with the scan's politeness per host and nothing else: at most `per_host` requests in flight to a
//! host, request starts at least `1 / rate` apart (no spacing when `rate` is 0), every host at once.
//! Each request is sent as listed (method, URL); redirects are not followed (their hops are requests
//! of the list), bodies are read to the end and dropped, nothing is interpreted. Connections are
//! opened as a host's requests need them (TCP, then for `https` a rustls handshake with ALPN `h2` and
//! `http/1.1`, the certificate checked against the given CA) and reused for that host. Every
//! connection goes to one address per scheme (the fixture server, or a [`crate::DelayProxy`] in
//! front of it), whatever the URL's host, as `wellknown scan --connect-to` does.
//!
//! Within a host, the requests go in list order; the fetcher knows no dependencies between them,
//! so it may send a request before the one whose answer revealed it.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::{http1, http2};
use hyper::{Method, Request, Uri};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// One request of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// `GET`, `HEAD`, ...
    pub method: Method,
    /// Absolute `http` or `https` URL.
    pub url: Uri,
}

impl Planned {
    /// Parses a line `METHOD URL` (as `fixture-server --log` writes them, without the status).
    ///
    /// Errors: a missing part, an unknown method, or a URL that is not absolute http(s) with a host.
    pub fn parse(line: &str) -> Result<Planned, String> {
        let (method, url) = line.trim().split_once(' ').ok_or_else(|| format!("not `METHOD URL`: {line:?}"))?;
        let method = Method::from_bytes(method.as_bytes()).map_err(|e| format!("{line:?}: {e}"))?;
        let url: Uri = url.trim().parse().map_err(|e| format!("{line:?}: {e}"))?;
        let scheme_ok = matches!(url.scheme_str(), Some("http" | "https"));
        if !scheme_ok || url.host().is_none() {
            return Err(format!("{line:?}: not an absolute http(s) URL"));
        }
        Ok(Planned { method, url })
    }
}

/// How to fetch.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where every `http` connection goes.
    pub http: SocketAddr,
    /// Where every `https` connection goes.
    pub https: SocketAddr,
    /// PEM of the CA that signed the server's certificates (`fixture-server --ca-out`).
    pub ca_pem: Vec<u8>,
    /// Requests in flight per host (at least 1).
    pub per_host: usize,
    /// Request starts per second per host; 0 = no spacing.
    pub rate: f64,
    /// Longest a request may take, connection included; past it the request counts as failed.
    pub timeout: Duration,
}

/// What a run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Requests in the list.
    pub requests: u64,
    /// Requests answered with a whole body (any status).
    pub answered: u64,
    /// Requests that failed: connection, TLS, protocol or timeout.
    pub failed: u64,
    /// Connections opened.
    pub connections: u64,
    /// Hosts (URL host names) in the list.
    pub hosts: u64,
    /// Body bytes read.
    pub body_bytes: u64,
    /// From the first request to the last answer.
    pub elapsed: Duration,
}

#[derive(Default)]
struct Counts {
    answered: AtomicU64,
    failed: AtomicU64,
    connections: AtomicU64,
    body_bytes: AtomicU64,
}

/// One host's queue and start slots, shared by its `per_host` workers.
struct Host {
    name: String,
    queue: Mutex<VecDeque<Planned>>,
    next_start: Mutex<Instant>,
}

/// Sends every request of `list`, each host at once, within the politeness of `options`.
///
/// Errors: the CA PEM holds no usable certificate, or the TLS configuration cannot be built.
/// Failed requests are counted in the [`Outcome`], not returned as errors.
pub async fn fetch_all(list: Vec<Planned>, options: &Options) -> Result<Outcome, String> {
    let tls = Arc::new(tls_config(&options.ca_pem)?);
    let requests = list.len() as u64;
    let mut by_host: BTreeMap<String, VecDeque<Planned>> = BTreeMap::new();
    for p in list {
        let host = p.url.host().unwrap_or_default().to_ascii_lowercase();
        by_host.entry(host).or_default().push_back(p);
    }
    let hosts = by_host.len() as u64;
    let counts = Arc::new(Counts::default());
    let spacing = if options.rate > 0.0 { Duration::from_secs_f64(1.0 / options.rate) } else { Duration::ZERO };
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for (name, queue) in by_host {
        let host = Arc::new(Host { name, queue: Mutex::new(queue), next_start: Mutex::new(started) });
        for _ in 0..options.per_host.max(1) {
            let worker = Worker {
                host: Arc::clone(&host),
                options: options.clone(),
                tls: Arc::clone(&tls),
                counts: Arc::clone(&counts),
                spacing,
                connections: HashMap::new(),
            };
            tasks.spawn(worker.run());
        }
    }
    while tasks.join_next().await.is_some() {}
    Ok(Outcome {
        requests,
        answered: counts.answered.load(Ordering::Relaxed),
        failed: counts.failed.load(Ordering::Relaxed),
        connections: counts.connections.load(Ordering::Relaxed),
        hosts,
        body_bytes: counts.body_bytes.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    })
}

fn tls_config(ca_pem: &[u8]) -> Result<rustls::ClientConfig, String> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert.map_err(|e| format!("CA PEM: {e}"))?).map_err(|e| format!("CA certificate: {e}"))?;
    }
    if roots.is_empty() {
        return Err("CA PEM: no certificate".into());
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

/// A connection ready to send on.
enum Sender {
    H1(http1::SendRequest<Empty<Bytes>>),
    H2(http2::SendRequest<Empty<Bytes>>),
}

/// One of a host's `per_host` request slots, with its own connections (one per scheme).
struct Worker {
    host: Arc<Host>,
    options: Options,
    tls: Arc<rustls::ClientConfig>,
    counts: Arc<Counts>,
    spacing: Duration,
    connections: HashMap<&'static str, Sender>,
}

impl Worker {
    async fn run(mut self) {
        loop {
            let next = self.host.queue.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
            let Some(planned) = next else { return };
            let start = {
                let mut slot = self.host.next_start.lock().unwrap_or_else(PoisonError::into_inner);
                let start = (*slot).max(Instant::now());
                *slot = start + self.spacing;
                start
            };
            tokio::time::sleep_until(start).await;
            let timeout = self.options.timeout;
            match tokio::time::timeout(timeout, self.send(&planned)).await {
                Ok(Ok(bytes)) => {
                    self.counts.answered.fetch_add(1, Ordering::Relaxed);
                    self.counts.body_bytes.fetch_add(bytes, Ordering::Relaxed);
                }
                Ok(Err(_)) | Err(_) => {
                    self.counts.failed.fetch_add(1, Ordering::Relaxed);
                    let scheme = if planned.url.scheme_str() == Some("https") { "https" } else { "http" };
                    self.connections.remove(scheme);
                }
            }
        }
    }

    /// Sends one request on this worker's connection for its scheme (opened when missing or
    /// closed); returns the body bytes read.
    async fn send(&mut self, planned: &Planned) -> Result<u64, String> {
        let scheme = if planned.url.scheme_str() == Some("https") { "https" } else { "http" };
        let usable = match self.connections.get_mut(scheme) {
            Some(Sender::H1(s)) => s.ready().await.is_ok(),
            Some(Sender::H2(s)) => s.ready().await.is_ok(),
            None => false,
        };
        if !usable {
            let sender = self.connect(scheme).await?;
            self.connections.insert(scheme, sender);
        }
        let host = self.host.name.as_str();
        let response = match self.connections.get_mut(scheme) {
            Some(Sender::H1(s)) => {
                let path = planned.url.path_and_query().map_or("/", |p| p.as_str());
                let request = Request::builder()
                    .method(planned.method.clone())
                    .uri(path)
                    .header(hyper::header::HOST, host)
                    .header(hyper::header::USER_AGENT, "plain-fetch")
                    .body(Empty::new())
                    .map_err(|e| e.to_string())?;
                s.send_request(request).await.map_err(|e| e.to_string())?
            }
            Some(Sender::H2(s)) => {
                let request = Request::builder()
                    .method(planned.method.clone())
                    .uri(planned.url.clone())
                    .header(hyper::header::USER_AGENT, "plain-fetch")
                    .body(Empty::new())
                    .map_err(|e| e.to_string())?;
                s.send_request(request).await.map_err(|e| e.to_string())?
            }
            None => return Err("no connection".into()),
        };
        let mut body = response.into_body();
        let mut bytes = 0u64;
        while let Some(frame) = body.frame().await {
            if let Ok(data) = frame.map_err(|e| e.to_string())?.into_data() {
                bytes += data.len() as u64;
            }
        }
        Ok(bytes)
    }

    async fn connect(&self, scheme: &'static str) -> Result<Sender, String> {
        let addr = if scheme == "https" { self.options.https } else { self.options.http };
        let tcp = TcpStream::connect(addr).await.map_err(|e| format!("connect {addr}: {e}"))?;
        let _ = tcp.set_nodelay(true);
        self.counts.connections.fetch_add(1, Ordering::Relaxed);
        if scheme == "http" {
            return handshake_h1(TokioIo::new(tcp)).await;
        }
        let name = ServerName::try_from(self.host.name.clone()).map_err(|e| e.to_string())?;
        let tls = tokio_rustls::TlsConnector::from(Arc::clone(&self.tls))
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS: {e}"))?;
        let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
        if h2 {
            let (sender, conn) =
                http2::handshake(TokioExecutor::new(), TokioIo::new(tls)).await.map_err(|e| e.to_string())?;
            tokio::spawn(conn);
            Ok(Sender::H2(sender))
        } else {
            handshake_h1(TokioIo::new(tls)).await
        }
    }
}

async fn handshake_h1<T>(io: T) -> Result<Sender, String>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (sender, conn) = http1::handshake(io).await.map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    Ok(Sender::H1(sender))
}
