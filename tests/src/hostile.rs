//! A hostile HTTP/1.1 server for tests of slow and unfriendly peers: raw tokio TCP on 127.0.0.1,
//! so it can do what a well-behaved server library will not (drip a response head byte by byte,
//! promise more body than it sends, then go silent).
//!
//! Each path is served by a [`Behaviour`]; paths without one are served from a fixture directory
//! (`DIR/<path>`, when [`HostileServerBuilder::files`] names one), else by the catch-all `200 text/plain`
//! "Welcome" (when [`HostileServerBuilder::welcome`] is set), else with a 404. One request per connection
//! (`Connection: close`). Every request is logged before it is answered, so a test can prove what
//! was, and was not, sent.
//!
//! Bounded in time: a connection is closed after at most [`HostileServerBuilder::limit`] (default 30 s)
//! whatever its behaviour, a request head is read for at most 5 s and 16 KiB, and everything stops
//! when the server is dropped.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::content_type::guess_content_type;

/// How the server answers one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Behaviour {
    /// `200 text/plain` with the full `Content-Length`, the head at once, then `body` dripped
    /// `chunk` bytes (at least 1) every `interval`.
    DripBody {
        /// The whole body.
        body: Vec<u8>,
        /// Bytes per write.
        chunk: usize,
        /// Pause before each write.
        interval: Duration,
    },
    /// `200 text/plain` whose response head is dripped one byte every `interval`, then `body` at once.
    DripHead {
        /// The body sent after the head.
        body: Vec<u8>,
        /// Pause before each byte of the head.
        interval: Duration,
    },
    /// A held connection: `200 text/plain` with `Content-Length: declared`, then `sent` (shorter),
    /// then silence until the connection limit.
    Hold {
        /// The `Content-Length` announced.
        declared: u64,
        /// The bytes actually sent.
        sent: Vec<u8>,
    },
    /// `status` (429, 503, ...) with `Retry-After: retry_after` and a short text body.
    RetryAfter {
        /// The status.
        status: u16,
        /// The `Retry-After` value as sent (`"3600"`, or an HTTP-date).
        retry_after: String,
    },
    /// `200 text/plain` "Welcome", as a catch-all site answers any path.
    Welcome,
}

/// The catch-all body (`text/plain`).
pub const WELCOME: &[u8] = b"Welcome";

/// One request the hostile server received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostileRequest {
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// Path and query as requested.
    pub path: String,
    /// The `Host` header as sent (with its port), empty when absent.
    pub host: String,
}

/// Routes and settings, shared by the connections.
#[derive(Debug, Clone, Default)]
struct Plan {
    routes: HashMap<String, Behaviour>,
    files: Option<PathBuf>,
    welcome: bool,
    limit: Duration,
}

/// A hostile server being configured ([`HostileServer::builder`]), then started with
/// [`HostileServerBuilder::start`].
#[derive(Debug, Clone)]
pub struct HostileServerBuilder {
    plan: Plan,
}

/// A running hostile server on 127.0.0.1 (its own thread and runtime). Stops when dropped.
pub struct HostileServer {
    /// The listening address.
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<HostileRequest>>>,
    stop: watch::Sender<bool>,
}

impl HostileServer {
    /// A server with no routes, no files and no catch-all (every path 404), connections limited to
    /// 30 s.
    pub fn builder() -> HostileServerBuilder {
        HostileServerBuilder { plan: Plan { limit: Duration::from_secs(30), ..Plan::default() } }
    }

    /// Every request received so far, in order of arrival.
    pub fn requests(&self) -> Vec<HostileRequest> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// How many requests asked for `path` (path and query, as sent).
    pub fn count(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path == path).count()
    }

    /// `http://127.0.0.1:PORT<path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl HostileServerBuilder {
    /// Serves `path` (path and query, as requested) with `behaviour`.
    pub fn route(mut self, path: &str, behaviour: Behaviour) -> Self {
        self.plan.routes.insert(path.to_string(), behaviour);
        self
    }

    /// Serves the files of `dir` (`dir/<path>`, Content-Type guessed from the name) for paths
    /// without a route.
    pub fn files(mut self, dir: impl Into<PathBuf>) -> Self {
        self.plan.files = Some(dir.into());
        self
    }

    /// Answers every path without a route or file with `200 text/plain` "Welcome".
    pub fn welcome(mut self) -> Self {
        self.plan.welcome = true;
        self
    }

    /// Closes every connection after at most `limit`, whatever it is doing (default 30 s).
    pub fn limit(mut self, limit: Duration) -> Self {
        self.plan.limit = limit;
        self
    }

    /// Binds 127.0.0.1:0 and serves on a thread of its own.
    ///
    /// Errors: the runtime or the listener could not be made.
    pub fn start(self) -> Result<HostileServer, String> {
        let plan = Arc::new(self.plan);
        let log: Arc<Mutex<Vec<HostileRequest>>> = Arc::default();
        let (stop, stop_rx) = watch::channel(false);
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        std_listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let addr = std_listener.local_addr().map_err(|e| e.to_string())?;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        let thread_log = Arc::clone(&log);
        std::thread::spawn(move || {
            rt.block_on(async move {
                let Ok(listener) = TcpListener::from_std(std_listener) else { return };
                accept_loop(listener, plan, thread_log, stop_rx).await;
            });
        });
        Ok(HostileServer { addr, log, stop })
    }
}

impl Drop for HostileServer {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

async fn accept_loop(
    listener: TcpListener,
    plan: Arc<Plan>,
    log: Arc<Mutex<Vec<HostileRequest>>>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.changed() => return,
        };
        let Ok((stream, _)) = accepted else { continue };
        let (plan, log, mut stop) = (Arc::clone(&plan), Arc::clone(&log), stop.clone());
        tokio::spawn(async move {
            let limit = plan.limit;
            tokio::select! {
                _ = tokio::time::timeout(limit, serve(stream, &plan, &log)) => {}
                _ = stop.changed() => {}
            }
        });
    }
}

/// Reads one request head and answers it.
async fn serve(mut stream: TcpStream, plan: &Plan, log: &Mutex<Vec<HostileRequest>>) {
    let Some(req) = read_head(&mut stream).await else { return };
    log.lock().unwrap_or_else(PoisonError::into_inner).push(req.clone());
    let behaviour = plan.routes.get(&req.path).cloned();
    let _ = match behaviour {
        Some(b) => act(&mut stream, &b, &req.method).await,
        None => match plan.files.as_deref().and_then(|dir| file(dir, &req.path)) {
            Some((body, ct)) => respond(&mut stream, 200, ct, &[], &body, &req.method).await,
            None if plan.welcome => act(&mut stream, &Behaviour::Welcome, &req.method).await,
            None => respond(&mut stream, 404, "text/plain", &[], b"not found", &req.method).await,
        },
    };
    let _ = stream.shutdown().await;
}

/// The request line and `Host` of one request head (at most 16 KiB, within 5 s).
async fn read_head(stream: &mut TcpStream) -> Option<HostileRequest> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return false,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
            if buf.len() > 16 * 1024 {
                return false;
            }
        }
        true
    })
    .await;
    if read != Ok(true) {
        return None;
    }
    let text = String::from_utf8_lossy(&buf);
    let mut lines = text.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let host = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("host"))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    Some(HostileRequest { method, path, host })
}

/// The file for `path` under `dir`, with its Content-Type; None for a missing file or a path that
/// climbs out of `dir`.
fn file(dir: &Path, path: &str) -> Option<(Vec<u8>, &'static str)> {
    let path = path.split('?').next().unwrap_or(path);
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy().to_string();
    if decoded.split('/').any(|s| s == "..") {
        return None;
    }
    let body = std::fs::read(dir.join(decoded.trim_start_matches('/'))).ok()?;
    Some((body, guess_content_type(path)))
}

fn head_bytes(status: u16, content_type: &str, length: u64, extra: &[(&str, &str)]) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        429 => "Too Many Requests",
        503 => "Service Unavailable",
        _ => "Status",
    };
    let mut h = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nConnection: close\r\n"
    );
    for (k, v) in extra {
        h.push_str(&format!("{k}: {v}\r\n"));
    }
    h.push_str("\r\n");
    h.into_bytes()
}

async fn respond(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    extra: &[(&str, &str)],
    body: &[u8],
    method: &str,
) -> std::io::Result<()> {
    stream.write_all(&head_bytes(status, content_type, body.len() as u64, extra)).await?;
    if method != "HEAD" {
        stream.write_all(body).await?;
    }
    stream.flush().await
}

async fn act(stream: &mut TcpStream, behaviour: &Behaviour, method: &str) -> std::io::Result<()> {
    match behaviour {
        Behaviour::DripBody { body, chunk, interval } => {
            stream.write_all(&head_bytes(200, "text/plain", body.len() as u64, &[])).await?;
            stream.flush().await?;
            if method == "HEAD" {
                return Ok(());
            }
            for piece in body.chunks((*chunk).max(1)) {
                tokio::time::sleep(*interval).await;
                stream.write_all(piece).await?;
                stream.flush().await?;
            }
            Ok(())
        }
        Behaviour::DripHead { body, interval } => {
            for byte in head_bytes(200, "text/plain", body.len() as u64, &[]) {
                tokio::time::sleep(*interval).await;
                stream.write_all(&[byte]).await?;
                stream.flush().await?;
            }
            if method != "HEAD" {
                stream.write_all(body).await?;
            }
            stream.flush().await
        }
        Behaviour::Hold { declared, sent } => {
            stream.write_all(&head_bytes(200, "text/plain", *declared, &[])).await?;
            stream.write_all(sent).await?;
            stream.flush().await?;
            // Silence; the connection limit (or the server's drop) ends it.
            std::future::pending::<()>().await;
            Ok(())
        }
        Behaviour::RetryAfter { status, retry_after } => {
            respond(stream, *status, "text/plain", &[("Retry-After", retry_after)], b"slow down", method).await
        }
        Behaviour::Welcome => respond(stream, 200, "text/plain", &[], WELCOME, method).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One raw request, the answer read to its end (or until `within`).
    fn get(server: &HostileServer, path: &str, within: Duration) -> Vec<u8> {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(within)).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: a.test\r\n\r\n").unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        out
    }

    #[test]
    fn routes_files_welcome_and_the_log() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("robots.txt"), "User-agent: *\n").unwrap();
        let server = HostileServer::builder()
            .route("/busy", Behaviour::RetryAfter { status: 429, retry_after: "3600".into() })
            .route(
                "/drip",
                Behaviour::DripBody { body: b"abcdef".to_vec(), chunk: 4, interval: Duration::from_millis(1) },
            )
            .files(dir.path())
            .welcome()
            .start()
            .unwrap();
        let s = Duration::from_secs(5);
        let busy = String::from_utf8(get(&server, "/busy", s)).unwrap();
        assert!(busy.starts_with("HTTP/1.1 429 Too Many Requests\r\n"), "{busy}");
        assert!(busy.contains("\r\nRetry-After: 3600\r\n"), "{busy}");
        assert!(String::from_utf8(get(&server, "/drip", s)).unwrap().ends_with("\r\n\r\nabcdef"));
        assert!(String::from_utf8(get(&server, "/robots.txt", s)).unwrap().ends_with("\r\n\r\nUser-agent: *\n"));
        let other = String::from_utf8(get(&server, "/.well-known/security.txt", s)).unwrap();
        assert!(other.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 7\r\n"), "{other}");
        assert!(other.ends_with("\r\n\r\nWelcome"));
        let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
        assert_eq!(paths, ["/busy", "/drip", "/robots.txt", "/.well-known/security.txt"]);
        assert_eq!(server.requests()[0].host, "a.test");
        assert_eq!(server.count("/drip"), 1);
    }

    #[test]
    fn a_held_connection_ends_at_the_limit_and_unrouted_paths_are_404() {
        let server = HostileServer::builder()
            .route("/held", Behaviour::Hold { declared: 1000, sent: b"part".to_vec() })
            .limit(Duration::from_millis(200))
            .start()
            .unwrap();
        let held = String::from_utf8(get(&server, "/held", Duration::from_secs(5))).unwrap();
        assert!(held.contains("\r\nContent-Length: 1000\r\n") && held.ends_with("\r\n\r\npart"), "{held}");
        let missing = String::from_utf8(get(&server, "/nothing", Duration::from_secs(5))).unwrap();
        assert!(missing.starts_with("HTTP/1.1 404 Not Found\r\n"), "{missing}");
    }
}
