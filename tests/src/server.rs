//! The HTTP(S) fixture server itself.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::content_type::guess_content_type;
use crate::tls::TestCa;

/// One request the server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// `http` or `https`.
    pub scheme: &'static str,
    /// Host header without port, lower case.
    pub host: String,
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// Path and query as requested.
    pub path: String,
    /// Status answered.
    pub status: u16,
    /// The User-Agent header ("" without one).
    pub user_agent: String,
    /// When the request arrived.
    pub received: std::time::Instant,
    /// When its answer was ready (after any stall the fixture asks for).
    pub answered: std::time::Instant,
}

/// The shared request log.
pub type RequestLog = Arc<Mutex<Vec<Served>>>;

/// A running fixture server on 127.0.0.1. Stops when dropped.
pub struct FixtureServer {
    /// Plain HTTP listener.
    pub http_addr: SocketAddr,
    /// HTTPS listener, when started with TLS.
    pub https_addr: Option<SocketAddr>,
    /// PEM of the CA that signed the HTTPS certificate (give it to `--ca-cert`).
    pub ca_pem: Option<String>,
    log: RequestLog,
    stop: watch::Sender<bool>,
    _thread: Option<std::thread::JoinHandle<()>>,
}

struct Site {
    root: PathBuf,
    log: RequestLog,
}

impl FixtureServer {
    /// Starts serving `root` on a background thread with its own runtime (usable from plain `#[test]`s).
    /// With `tls`, also serves HTTPS with a certificate for every host directory under `root`,
    /// `localhost`, `127.0.0.1` and `*.test`, signed by a fresh [`TestCa`].
    ///
    /// Errors: binding or certificate generation failed.
    pub fn start(root: impl Into<PathBuf>, tls: bool) -> Result<FixtureServer, String> {
        let root = root.into();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let rt = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = tx.send(Err(e.to_string()));
                    return;
                }
            };
            rt.block_on(async move {
                match FixtureServer::start_async(root, tls).await {
                    Ok(server) => {
                        let mut stop = server.stop.subscribe();
                        let _ = tx.send(Ok(server));
                        let _ = stop.wait_for(|s| *s).await;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                    }
                }
            });
        });
        let mut server = rx.recv().map_err(|e| e.to_string())??;
        server._thread = Some(thread);
        Ok(server)
    }

    /// Starts serving on the current tokio runtime.
    ///
    /// Errors: binding or certificate generation failed.
    pub async fn start_async(root: PathBuf, tls: bool) -> Result<FixtureServer, String> {
        let log: RequestLog = Arc::new(Mutex::new(Vec::new()));
        let site = Arc::new(Site { root: root.clone(), log: Arc::clone(&log) });
        let (stop, stop_rx) = watch::channel(false);
        let http = bind_loopback().map_err(|e| e.to_string())?;
        let http_addr = http.local_addr().map_err(|e| e.to_string())?;
        tokio::spawn(accept_loop(http, None, Arc::clone(&site), stop_rx.clone()));
        let (mut https_addr, mut ca_pem) = (None, None);
        if tls {
            let ca = TestCa::new()?;
            let mut names: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "*.test".into()];
            if let Ok(dir) = std::fs::read_dir(&root) {
                for e in dir.flatten() {
                    if let Some(n) = e.file_name().to_str() {
                        names.push(n.to_string());
                        // And its MTA-STS policy host (RFC 8461: the `mta-sts.txt` probe asks
                        // `mta-sts.<host>`), which answers 404 rather than fail TLS. Not a wildcard:
                        // a random sibling name must still fail (the virtual-host baseline).
                        if n.parse::<std::net::IpAddr>().is_err() {
                            names.push(format!("mta-sts.{n}"));
                        }
                    }
                }
            }
            let leaf = ca.leaf(&names)?;
            let _ = rustls::crypto::ring::default_provider().install_default();
            let config =
                rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                    .with_safe_default_protocol_versions()
                    .map_err(|e| e.to_string())?
                    .with_no_client_auth()
                    .with_single_cert(leaf.chain, leaf.key)
                    .map_err(|e| e.to_string())?;
            let mut config = config;
            config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
            let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
            let listener = bind_loopback().map_err(|e| e.to_string())?;
            https_addr = Some(listener.local_addr().map_err(|e| e.to_string())?);
            ca_pem = Some(ca.pem().to_string());
            tokio::spawn(accept_loop(listener, Some(acceptor), Arc::clone(&site), stop_rx));
        }
        Ok(FixtureServer { http_addr, https_addr, ca_pem, log, stop, _thread: None })
    }

    /// Every request answered so far.
    pub fn requests(&self) -> Vec<Served> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The requests answered after the first `seen` (for a server binary that prints its log as it
    /// grows, without copying all of it each time).
    pub fn requests_since(&self, seen: usize) -> Vec<Served> {
        let log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        log.get(seen..).map(<[Served]>::to_vec).unwrap_or_default()
    }

    /// The shared log (for a server binary that prints it).
    pub fn log(&self) -> RequestLog {
        Arc::clone(&self.log)
    }

    /// `--resolve` arguments mapping `host` to this server's HTTP and HTTPS ports.
    pub fn resolve_args(&self, host: &str) -> Vec<String> {
        let mut v = vec!["--resolve".to_string(), format!("{host}:{}:127.0.0.1", self.http_addr.port())];
        if let Some(a) = self.https_addr {
            v.push("--resolve".into());
            v.push(format!("{host}:{}:127.0.0.1", a.port()));
        }
        v
    }
}

/// A listener on 127.0.0.1 (a free port) with a backlog of 4,096 connections (the kernel's
/// `somaxconn` caps it), not tokio's 1,024: a benchmark opens thousands of connections at once.
pub(crate) fn bind_loopback() -> std::io::Result<TcpListener> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from(([127, 0, 0, 1], 0)))?;
    socket.listen(4096)
}

impl Drop for FixtureServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

async fn accept_loop(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    site: Arc<Site>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => return,
        };
        let Ok((stream, _)) = accepted else { continue };
        let site = Arc::clone(&site);
        let tls = tls.clone();
        tokio::spawn(async move {
            let scheme = if tls.is_some() { "https" } else { "http" };
            let svc = hyper::service::service_fn(move |req| {
                let site = Arc::clone(&site);
                async move { Ok::<_, Infallible>(site.answer(scheme, req).await) }
            });
            let builder = auto::Builder::new(TokioExecutor::new());
            match tls {
                Some(acceptor) => {
                    if let Ok(s) = acceptor.accept(stream).await {
                        let _ = builder.serve_connection(TokioIo::new(s), svc).await;
                    }
                }
                None => {
                    let _ = builder.serve_connection(TokioIo::new(stream), svc).await;
                }
            }
        });
    }
}

/// A parsed sidecar: status, headers, and fixture controls.
#[derive(Default)]
struct Sidecar {
    status: Option<u16>,
    headers: Vec<(String, String)>,
    stall: Option<f64>,
    repeat: usize,
}

fn read_sidecar(path: &Path) -> Option<Sidecar> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut s = Sidecar { repeat: 1, ..Sidecar::default() };
    for line in text.lines() {
        let Some((k, v)) = line.split_once(':') else { continue };
        let (k, v) = (k.trim(), v.trim());
        match k.to_ascii_lowercase().as_str() {
            "status" => s.status = v.parse().ok(),
            "x-fixture-stall" => s.stall = v.parse().ok(),
            "x-fixture-repeat" => s.repeat = v.parse().unwrap_or(1),
            _ => s.headers.push((k.to_string(), v.to_string())),
        }
    }
    Some(s)
}

impl Site {
    async fn answer(&self, scheme: &'static str, req: Request<Incoming>) -> Response<Full<Bytes>> {
        let host = req
            .headers()
            .get(hyper::header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_string)
            .or_else(|| req.uri().authority().map(|a| a.to_string()))
            .unwrap_or_default();
        let host = strip_port(&host).to_ascii_lowercase();
        let path_q = req.uri().path_and_query().map(|p| p.as_str().to_string()).unwrap_or_else(|| "/".into());
        let method = req.method().as_str().to_string();
        let user_agent =
            req.headers().get(hyper::header::USER_AGENT).and_then(|h| h.to_str().ok()).unwrap_or_default().to_string();
        let received = std::time::Instant::now();
        let resp = self.lookup(&host, req.uri().path(), req.uri().query(), req.method() == hyper::Method::HEAD).await;
        let status = resp.status().as_u16();
        self.log.lock().unwrap_or_else(PoisonError::into_inner).push(Served {
            scheme,
            host,
            method,
            path: path_q,
            status,
            user_agent,
            received,
            answered: std::time::Instant::now(),
        });
        resp
    }

    async fn lookup(&self, host: &str, path: &str, query: Option<&str>, head: bool) -> Response<Full<Bytes>> {
        let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy().to_string();
        if host.is_empty() || host.contains('/') || host.starts_with('.') || decoded.split('/').any(|s| s == "..") {
            return plain(StatusCode::BAD_REQUEST, "bad request");
        }
        let base = self.root.join(host).join(decoded.trim_start_matches('/'));
        let mut candidates = Vec::new();
        if let Some(q) = query {
            let mut with_q = base.clone().into_os_string();
            with_q.push("?");
            with_q.push(q);
            candidates.push(PathBuf::from(with_q));
        }
        candidates.push(base);
        for file in candidates {
            let mut side = file.clone().into_os_string();
            side.push(".headers");
            let sidecar = read_sidecar(Path::new(&side));
            let body = if file.is_file() { std::fs::read(&file).ok() } else { None };
            if body.is_none() && sidecar.is_none() {
                continue;
            }
            let sidecar = sidecar.unwrap_or(Sidecar { repeat: 1, ..Sidecar::default() });
            let body = body.unwrap_or_default();
            let mut builder = Response::builder().status(sidecar.status.unwrap_or(200));
            let has_ct = sidecar.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type"));
            if !has_ct && !body.is_empty() {
                builder = builder.header("content-type", guess_content_type(path));
            }
            for (k, v) in &sidecar.headers {
                builder = builder.header(k.as_str(), v.as_str());
            }
            if let Some(secs) = sidecar.stall {
                tokio::time::sleep(Duration::from_secs_f64(secs.clamp(0.0, 600.0))).await;
            }
            let body = if head { Vec::new() } else { body.repeat(sidecar.repeat.max(1)) };
            return builder
                .body(Full::new(Bytes::from(body)))
                .unwrap_or_else(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "bad sidecar"));
        }
        let mut resp = plain(StatusCode::NOT_FOUND, "not found");
        if head {
            *resp.body_mut() = Full::new(Bytes::new());
        }
        resp
    }
}

fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.split_once(']').map(|(h, _)| &host[..h.len() + 1]).unwrap_or(host);
    }
    host.rsplit_once(':').map(|(h, _)| h).unwrap_or(host)
}

fn plain(status: StatusCode, text: &'static str) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *r.status_mut() = status;
    r.headers_mut().insert("content-type", hyper::header::HeaderValue::from_static("text/html; charset=utf-8"));
    r
}
