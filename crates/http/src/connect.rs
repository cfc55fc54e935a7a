//! Opening a connection: resolve, private-address check, TCP connect, TLS, HTTP handshake.
//! Every step's failure is classified.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Empty;
use hyper::client::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use wellknown_core::{FailureClass, FetchFailure};

use crate::addr::forbidden_reason;
use crate::dns::Dns;
use crate::error::failure;

/// Request body type: the scanner only sends GET and HEAD.
pub(crate) type ReqBody = Empty<Bytes>;

/// A ready HTTP connection.
pub(crate) enum Sender {
    H1(http1::SendRequest<ReqBody>),
    H2(http2::SendRequest<ReqBody>),
}

impl Sender {
    pub(crate) fn is_h2(&self) -> bool {
        matches!(self, Sender::H2(_))
    }

    pub(crate) fn is_closed(&self) -> bool {
        match self {
            Sender::H1(s) => s.is_closed(),
            Sender::H2(s) => s.is_closed(),
        }
    }

    pub(crate) async fn send(
        &mut self,
        req: http::Request<ReqBody>,
    ) -> Result<http::Response<hyper::body::Incoming>, hyper::Error> {
        match self {
            Sender::H1(s) => {
                s.ready().await?;
                s.send_request(req).await
            }
            Sender::H2(s) => {
                s.ready().await?;
                s.send_request(req).await
            }
        }
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

/// Connection settings shared by all requests.
pub(crate) struct Connector {
    pub dns: Dns,
    pub tls: Arc<rustls::ClientConfig>,
    pub allow_private: bool,
    pub connect_timeout: Duration,
    pub connect_overrides: Vec<crate::ConnectTo>,
}

impl Connector {
    /// Resolves, checks, connects and handshakes. Connection tasks run on the tokio runtime.
    pub(crate) async fn connect(&self, ep: &Endpoint<'_>) -> Result<Sender, FetchFailure> {
        // --connect-to: dial another host and/or port; names and certificates stay the URL's.
        let host_text = ep.host.to_string();
        let over = self.connect_overrides.iter().find(|c| c.matches(&host_text, ep.port));
        let dial_port = over.and_then(|c| c.to_port).unwrap_or(ep.port);
        let dial_host: Option<url::Host<String>> =
            over.and_then(|c| c.to_host.as_deref()).and_then(|h| url::Host::parse(h).ok());
        let addrs = match (ep.connect_to, &dial_host) {
            (Some(ip), _) => vec![ip],
            (None, Some(h)) => {
                let h = match h {
                    url::Host::Domain(d) => url::Host::Domain(d.as_str()),
                    url::Host::Ipv4(a) => url::Host::Ipv4(*a),
                    url::Host::Ipv6(a) => url::Host::Ipv6(*a),
                };
                self.dns.resolve(&h, dial_port).await?
            }
            (None, None) => self.dns.resolve(&ep.host, dial_port).await?,
        };
        let addrs = self.permitted(&ep.host, addrs)?;
        let tcp = self.tcp(&addrs, dial_port).await?;
        if ep.https {
            let name = match ep.host {
                url::Host::Domain(d) => ServerName::try_from(d.to_string())
                    .map_err(|e| failure(FailureClass::Tls, format!("invalid TLS server name {d:?}: {e}")))?,
                url::Host::Ipv4(v4) => ServerName::IpAddress(IpAddr::V4(v4).into()),
                url::Host::Ipv6(v6) => ServerName::IpAddress(IpAddr::V6(v6).into()),
            };
            let connector = tokio_rustls::TlsConnector::from(self.tls.clone());
            let tls = match tokio::time::timeout(self.connect_timeout, connector.connect(name, tcp)).await {
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
            handshake(tls, h2).await
        } else {
            handshake(tcp, false).await
        }
    }

    /// Drops refused addresses; fails when none is left.
    fn permitted(&self, host: &url::Host<&str>, addrs: Vec<IpAddr>) -> Result<Vec<IpAddr>, FetchFailure> {
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
                Some((ip, why)) => format!("{host} resolves to {ip} ({why}); refused without allow_private"),
                None => format!("{host}: no address to connect to"),
            };
            return Err(failure(FailureClass::PrivateAddress, msg));
        }
        Ok(ok)
    }

    /// Tries each address in turn, each with the connect timeout. Reports the last failure.
    async fn tcp(&self, addrs: &[IpAddr], port: u16) -> Result<TcpStream, FetchFailure> {
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

/// The TLS reason from a handshake error, e.g. `invalid peer certificate: UnknownIssuer`.
fn tls_failure(e: &io::Error) -> FetchFailure {
    let reason = match e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
        Some(r) => r.to_string(),
        None => e.to_string(),
    };
    failure(FailureClass::Tls, reason)
}

async fn handshake<T>(io: T, h2: bool) -> Result<Sender, FetchFailure>
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
        Ok(Sender::H2(sender))
    } else {
        let (sender, conn) = http1::Builder::new()
            .allow_obsolete_multiline_headers_in_responses(true)
            .allow_spaces_after_header_name_in_responses(true)
            .handshake(io)
            .await
            .map_err(|e| failure(FailureClass::Protocol, format!("HTTP/1.1 handshake failed: {e}")))?;
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!("HTTP/1.1 connection ended: {e}");
            }
        });
        Ok(Sender::H1(sender))
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
