//! Opening a connection: resolve, private-address check, TCP connect, TLS, HTTP handshake.
//! Every step's failure is classified.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Empty;
use hyper::client::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use wellknown_core::{FailureClass, FetchFailure};

use crate::addr::forbidden_reason;
use crate::dns::Dns;
use crate::error::failure;
use crate::proxy::ProxyChoice;

/// Request body type: the scanner only sends GET and HEAD.
pub(crate) type ReqBody = Empty<Bytes>;

/// A ready HTTP connection, with what it has read so far; an HTTP/1.1 connection to an HTTP proxy
/// that forwards requests (absolute-form, for `http://` targets) carries its [`Forward`].
pub(crate) enum Sender {
    H1(http1::SendRequest<ReqBody>, Arc<ConnStats>, Option<Arc<Forward>>),
    H2(http2::SendRequest<ReqBody>, Arc<ConnStats>),
}

/// A connection to an HTTP proxy that forwards this connection's requests: they are sent in
/// absolute form (RFC 9112 section 3.2.2) with the proxy's `Proxy-Authorization`.
pub(crate) struct Forward {
    /// `Proxy-Authorization` (Basic, marked sensitive), when the proxy has credentials.
    pub authorization: Option<http::HeaderValue>,
    /// The proxy's `host:port`, for messages.
    pub proxy: String,
}

/// Any byte stream a connection is built on (TCP, TLS to an `https://` proxy, a tunnel).
pub(crate) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

impl Sender {
    /// The proxy forwarding this connection's requests, if any.
    pub(crate) fn forward(&self) -> Option<&Forward> {
        match self {
            Sender::H1(_, _, f) => f.as_deref(),
            Sender::H2(..) => None,
        }
    }

    pub(crate) fn is_h2(&self) -> bool {
        matches!(self, Sender::H2(..))
    }

    pub(crate) fn is_closed(&self) -> bool {
        match self {
            Sender::H1(s, _, _) => s.is_closed(),
            Sender::H2(s, _) => s.is_closed(),
        }
    }

    /// The connection's byte count (shared by every request sent on it).
    pub(crate) fn stats(&self) -> &Arc<ConnStats> {
        match self {
            Sender::H1(_, st, _) | Sender::H2(_, st) => st,
        }
    }

    pub(crate) async fn send(
        &mut self,
        req: http::Request<ReqBody>,
    ) -> Result<http::Response<hyper::body::Incoming>, hyper::Error> {
        match self {
            Sender::H1(s, _, _) => {
                s.ready().await?;
                s.send_request(req).await
            }
            Sender::H2(s, _) => {
                s.ready().await?;
                s.send_request(req).await
            }
        }
    }
}

/// What one connection has read from its socket (TLS records included), counted by [`Counted`]
/// as the bytes arrive, before hyper parses them: a response head dripped one byte a second counts
/// one byte a second. For HTTP/1.1 it also holds the handle that stops the connection's task.
#[derive(Debug, Default)]
pub(crate) struct ConnStats {
    received: AtomicU64,
    task: Mutex<Option<tokio::task::AbortHandle>>,
}

impl ConnStats {
    /// Bytes read from the socket since the connection was opened.
    pub(crate) fn received(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }

    /// Closes an HTTP/1.1 connection now (its task is stopped and the socket dropped), so a
    /// request given up on does not keep reading what a slow server still sends. An HTTP/2
    /// connection is left to its other streams.
    pub(crate) fn close(&self) {
        if let Some(task) = self.task.lock().unwrap_or_else(PoisonError::into_inner).take() {
            task.abort();
        }
    }
}

/// A socket whose reads are counted in its [`ConnStats`].
pub(crate) struct Counted<T> {
    io: T,
    stats: Arc<ConnStats>,
}

impl<T> Counted<T> {
    /// `io` whose reads are added to `stats`.
    pub(crate) fn new(io: T, stats: Arc<ConnStats>) -> Counted<T> {
        Counted { io, stats }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Counted<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        let read = buf.filled().len().saturating_sub(before);
        if read > 0 {
            self.stats.received.fetch_add(read as u64, Ordering::Relaxed);
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Counted<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// Where to connect.
pub(crate) struct Endpoint<'a> {
    pub https: bool,
    pub host: url::Host<&'a str>,
    pub port: u16,
    /// Connect here instead of resolving `host` (virtual-host probing).
    pub connect_to: Option<IpAddr>,
}

/// How the addresses of a connection were found, for the private-address refusal message.
pub(crate) enum Route {
    /// A DNS lookup of the URL's host.
    Dns,
    /// The URL's host is an IP literal.
    Literal,
    /// A `--resolve` override of the URL's host.
    Resolve,
    /// A `--connect-to` override naming an IP address.
    ConnectTo,
    /// A `--connect-to` override naming another host, resolved by DNS or (`pinned`) by `--resolve`.
    ConnectToName { name: String, pinned: bool },
    /// A virtual-host attempt: the address of the origin that revealed the name.
    Vhost,
}

impl Route {
    /// `<host> resolves to <ip> (<why>)`, or what else routed `host` to `ip`.
    fn describe(&self, host: &url::Host<&str>, ip: IpAddr, why: &str) -> String {
        match self {
            Route::Dns => format!("{host} resolves to {ip} ({why})"),
            Route::Literal => format!("{host} ({why})"),
            Route::Resolve => format!("{host} is mapped to {ip} ({why}) by --resolve"),
            Route::ConnectTo => format!("{host} is routed to {ip} ({why}) by --connect-to"),
            Route::ConnectToName { name, pinned: false } => {
                format!("{host} is routed by --connect-to to {name}, which resolves to {ip} ({why})")
            }
            Route::ConnectToName { name, pinned: true } => {
                format!("{host} is routed by --connect-to to {name}, which --resolve maps to {ip} ({why})")
            }
            Route::Vhost => format!("{host} is tried as a virtual host at {ip} ({why})"),
        }
    }
}

/// Connection settings shared by all requests.
pub(crate) struct Connector {
    pub dns: Dns,
    pub tls: Arc<rustls::ClientConfig>,
    pub allow_private: bool,
    pub excluded_networks: Vec<ipnet::IpNet>,
    pub connect_timeout: Duration,
    pub connect_overrides: Vec<crate::ConnectTo>,
    /// The proxies, when requests go through one.
    pub proxy: Option<ProxyRoute>,
}

/// What connecting through a proxy needs: which proxy serves which target, and the TLS settings
/// for targets reached through it (the extra proxy CA trusted) and for an `https://` proxy.
pub(crate) struct ProxyRoute {
    pub choice: ProxyChoice,
    /// For the target's TLS through the proxy: ALPN `h2` and `http/1.1`.
    pub tls_target: Arc<rustls::ClientConfig>,
    /// For the TLS to an `https://` proxy: ALPN `http/1.1` (the proxy is spoken to in HTTP/1.1).
    pub tls_proxy: Arc<rustls::ClientConfig>,
}

impl Connector {
    /// Resolves, checks, connects and handshakes, directly or through the proxy chosen for the
    /// target. Connection tasks run on the tokio runtime.
    pub(crate) async fn connect(&self, ep: &Endpoint<'_>) -> Result<Sender, FetchFailure> {
        if let Some(route) = &self.proxy
            && let Some(proxy) = route.choice.for_target(ep.https, &ep.host.to_string(), ep.port)
        {
            return self.through(route, proxy, ep).await;
        }
        let (addrs, dial_port) = self.dial_addrs(ep).await?;
        let stats = Arc::new(ConnStats::default());
        let tcp = Counted { io: self.tcp(&addrs, dial_port).await?, stats: Arc::clone(&stats) };
        self.secure(tcp, ep, &self.tls, stats).await
    }

    /// The addresses to dial for `ep` (after `--connect-to`, `--resolve` or DNS, and the
    /// private-address rule) and the port.
    pub(crate) async fn dial_addrs(&self, ep: &Endpoint<'_>) -> Result<(Vec<IpAddr>, u16), FetchFailure> {
        // --connect-to: dial another host and/or port; names and certificates stay the URL's.
        let host_text = ep.host.to_string();
        let over = self.connect_overrides.iter().find(|c| c.matches(&host_text, ep.port));
        let dial_port = over.and_then(|c| c.to_port).unwrap_or(ep.port);
        let dial_host: Option<url::Host<String>> =
            over.and_then(|c| c.to_host.as_deref()).and_then(|h| url::Host::parse(h).ok());
        let (addrs, route) = match (ep.connect_to, &dial_host) {
            (Some(ip), _) => (vec![ip], Route::Vhost),
            (None, Some(h)) => {
                let h = match h {
                    url::Host::Domain(d) => url::Host::Domain(d.as_str()),
                    url::Host::Ipv4(a) => url::Host::Ipv4(*a),
                    url::Host::Ipv6(a) => url::Host::Ipv6(*a),
                };
                let route = match h {
                    url::Host::Domain(_) => {
                        Route::ConnectToName { name: h.to_string(), pinned: self.dns.overridden(&h, dial_port) }
                    }
                    _ => Route::ConnectTo,
                };
                (self.dns.resolve(&h, dial_port).await?, route)
            }
            (None, None) => {
                let route = match ep.host {
                    url::Host::Domain(_) if self.dns.overridden(&ep.host, dial_port) => Route::Resolve,
                    url::Host::Domain(_) => Route::Dns,
                    _ => Route::Literal,
                };
                (self.dns.resolve(&ep.host, dial_port).await?, route)
            }
        };
        Ok((self.permitted(&ep.host, addrs, &route)?, dial_port))
    }

    /// TLS with the target for https (with `tls`), then the HTTP handshake.
    pub(crate) async fn secure<T>(
        &self,
        io: T,
        ep: &Endpoint<'_>,
        tls: &Arc<rustls::ClientConfig>,
        stats: Arc<ConnStats>,
    ) -> Result<Sender, FetchFailure>
    where
        T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        if ep.https {
            let name = match ep.host {
                url::Host::Domain(d) => ServerName::try_from(d.to_string())
                    .map_err(|e| failure(FailureClass::Tls, format!("invalid TLS server name {d:?}: {e}")))?,
                url::Host::Ipv4(v4) => ServerName::IpAddress(IpAddr::V4(v4).into()),
                url::Host::Ipv6(v6) => ServerName::IpAddress(IpAddr::V6(v6).into()),
            };
            let connector = tokio_rustls::TlsConnector::from(Arc::clone(tls));
            let tls = match tokio::time::timeout(self.connect_timeout, connector.connect(name, io)).await {
                Err(_) => {
                    return Err(failure(
                        FailureClass::ConnectTimeout,
                        format!("TLS handshake did not complete within {:?}", self.connect_timeout),
                    ));
                }
                Ok(Err(e)) => return Err(tls_failure(&e)),
                Ok(Ok(s)) => s,
            };
            let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
            handshake(tls, h2, stats, None).await
        } else {
            handshake(io, false, stats, None).await
        }
    }

    /// Drops refused addresses; fails when none is left, saying how the address was reached.
    pub(crate) fn permitted(
        &self,
        host: &url::Host<&str>,
        addrs: Vec<IpAddr>,
        route: &Route,
    ) -> Result<Vec<IpAddr>, FetchFailure> {
        let mut excluded = None;
        let addrs: Vec<IpAddr> = addrs
            .into_iter()
            .filter(|ip| match self.excluded_networks.iter().find(|n| n.contains(ip)) {
                Some(net) => {
                    excluded.get_or_insert((*ip, *net));
                    false
                }
                None => true,
            })
            .collect();
        if addrs.is_empty()
            && let Some((ip, net)) = excluded
        {
            let why = format!("excluded by the scope rule !{net}");
            return Err(failure(
                FailureClass::OutOfScope,
                format!("{}; not requested", route.describe(host, ip, &why)),
            ));
        }
        if self.allow_private {
            return Ok(addrs);
        }
        let mut refused = None;
        let ok: Vec<IpAddr> = addrs
            .into_iter()
            .filter(|ip| match forbidden_reason(*ip) {
                Some(why) => {
                    refused.get_or_insert((*ip, why));
                    false
                }
                None => true,
            })
            .collect();
        if ok.is_empty() {
            let msg = match refused {
                Some((ip, why)) => format!("{}; refused without --allow-private", route.describe(host, ip, why)),
                None => format!("{host}: no address to connect to"),
            };
            return Err(failure(FailureClass::PrivateAddress, msg));
        }
        Ok(ok)
    }

    /// Tries each address in turn, each with the connect timeout. Reports the last failure.
    pub(crate) async fn tcp(&self, addrs: &[IpAddr], port: u16) -> Result<TcpStream, FetchFailure> {
        let mut last = failure(FailureClass::Connect, "no address to connect to");
        for &ip in addrs {
            let sa = SocketAddr::new(ip, port);
            match tokio::time::timeout(self.connect_timeout, TcpStream::connect(sa)).await {
                Ok(Ok(s)) => {
                    let _ = s.set_nodelay(true);
                    return Ok(s);
                }
                Ok(Err(e)) => {
                    let class = if e.kind() == io::ErrorKind::ConnectionRefused {
                        FailureClass::ConnectRefused
                    } else {
                        FailureClass::Connect
                    };
                    last = failure(class, format!("connect to {sa}: {e}"));
                }
                Err(_) => {
                    last = failure(
                        FailureClass::ConnectTimeout,
                        format!("connect to {sa}: no answer within {:?}", self.connect_timeout),
                    );
                }
            }
        }
        Err(last)
    }
}

/// The TLS reason from a handshake error, e.g. `invalid peer certificate: UnknownIssuer` (the
/// message is then capped like every failure message).
pub(crate) fn tls_failure(e: &io::Error) -> FetchFailure {
    let reason = match e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
        Some(r) => tls_reason(r),
        None => e.to_string(),
    };
    failure(FailureClass::Tls, reason)
}

/// Names of a certificate listed in a `NotValidForName` message; the rest are counted.
const NAMES_SHOWN: usize = 3;

/// rustls' reason, except that a name mismatch keeps its class and reason
/// (`invalid peer certificate: NotValidForName`) and lists at most [`NAMES_SHOWN`] of the
/// certificate's names with a count of the others, instead of rustls' whole subjectAltName list
/// (hundreds of names on a shared CDN certificate).
fn tls_reason(e: &rustls::Error) -> String {
    use rustls::CertificateError::NotValidForNameContext;
    let rustls::Error::InvalidCertificate(NotValidForNameContext { expected, presented }) = e else {
        return e.to_string();
    };
    let mut msg = format!(
        "invalid peer certificate: NotValidForName: {:?} is not among the certificate's names",
        expected.to_str()
    );
    if presented.is_empty() {
        msg.push_str(" (it has no subjectAltName)");
        return msg;
    }
    msg.push_str(" (");
    for (i, name) in presented.iter().take(NAMES_SHOWN).enumerate() {
        if i > 0 {
            msg.push_str(", ");
        }
        msg.push_str(presented_name(name));
    }
    let more = presented.len().saturating_sub(NAMES_SHOWN);
    if more > 0 {
        msg.push_str(&format!(" ... and {more} more"));
    }
    msg.push(')');
    msg
}

/// `a.example` for webpki's `DnsName("a.example")`, `192.0.2.1` for `IpAddress(192.0.2.1)`; any
/// other form as it is.
fn presented_name(name: &str) -> &str {
    name.strip_prefix("DnsName(\"")
        .and_then(|n| n.strip_suffix("\")"))
        .or_else(|| name.strip_prefix("IpAddress(").and_then(|n| n.strip_suffix(')')))
        .unwrap_or(name)
}

pub(crate) async fn handshake<T>(
    io: T,
    h2: bool,
    stats: Arc<ConnStats>,
    forward: Option<Arc<Forward>>,
) -> Result<Sender, FetchFailure>
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let io = TokioIo::new(io);
    if h2 {
        let (sender, conn) = http2::handshake(TokioExecutor::new(), io)
            .await
            .map_err(|e| failure(FailureClass::Protocol, format!("HTTP/2 handshake failed: {e}")))?;
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!("HTTP/2 connection ended: {e}");
            }
        });
        Ok(Sender::H2(sender, stats))
    } else {
        let (sender, conn) = http1::Builder::new()
            .allow_obsolete_multiline_headers_in_responses(true)
            .allow_spaces_after_header_name_in_responses(true)
            .handshake(io)
            .await
            .map_err(|e| failure(FailureClass::Protocol, format!("HTTP/1.1 handshake failed: {e}")))?;
        let task = tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!("HTTP/1.1 connection ended: {e}");
            }
        });
        *stats.task.lock().unwrap_or_else(PoisonError::into_inner) = Some(task.abort_handle());
        Ok(Sender::H1(sender, stats, forward))
    }
}

/// Classifies an error of sending a request / receiving the response head.
pub(crate) fn hyper_failure(e: &hyper::Error) -> FetchFailure {
    if e.is_timeout() {
        return failure(FailureClass::Timeout, e.to_string());
    }
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    let what = if e.is_parse() || e.is_parse_status() {
        "malformed response"
    } else if e.is_incomplete_message() {
        "connection closed before a complete response"
    } else {
        "HTTP error"
    };
    failure(FailureClass::Protocol, format!("{what}: {msg}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mismatch(presented: Vec<String>) -> rustls::Error {
        let expected = ServerName::try_from("wrong.test").map(|n| n.to_owned()).expect("name");
        rustls::Error::InvalidCertificate(rustls::CertificateError::NotValidForNameContext { expected, presented })
    }

    #[test]
    fn name_mismatch_lists_a_few_names_and_counts_the_rest() {
        let mut names: Vec<String> = (0..215).map(|i| format!("DnsName(\"san{i}.cdn.example\")")).collect();
        names.insert(1, "IpAddress(192.0.2.7)".to_string());
        assert_eq!(
            tls_reason(&mismatch(names)),
            "invalid peer certificate: NotValidForName: \"wrong.test\" is not among the certificate's names \
             (san0.cdn.example, 192.0.2.7, san1.cdn.example ... and 213 more)"
        );
        assert_eq!(
            tls_reason(&mismatch(vec!["DnsName(\"a.example\")".into()])),
            "invalid peer certificate: NotValidForName: \"wrong.test\" is not among the certificate's names \
             (a.example)"
        );
        assert_eq!(
            tls_reason(&mismatch(Vec::new())),
            "invalid peer certificate: NotValidForName: \"wrong.test\" is not among the certificate's names \
             (it has no subjectAltName)"
        );
        let other = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        assert_eq!(tls_reason(&other), "invalid peer certificate: UnknownIssuer");
    }
}
