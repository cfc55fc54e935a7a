//! Opening a connection through a proxy: reaching the proxy (TCP, and TLS for an `https://`
//! proxy), then a SOCKS5 `CONNECT`, an HTTP `CONNECT` tunnel, or (HTTP proxy, `http://` target) a
//! connection whose requests the proxy forwards. Failures of the proxy get their own classes
//! (`proxy_refused`, `proxy_connect`, `proxy_auth_required`, `proxy_tunnel`, `proxy_socks`); the
//! target's TLS through the proxy keeps `tls`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use rustls::pki_types::ServerName;
use tokio_socks::TargetAddr;
use wellknown_core::{FailureClass, FetchFailure};

use crate::connect::{ConnStats, Connector, Counted, Endpoint, Forward, Io, ProxyRoute, Route, Sender, handshake};
use crate::error::failure;
use crate::proxy::{ProxyCredentials, ProxyScheme, ProxyUrl};
use crate::socks5::{self, SocksTarget};
use crate::tunnel;

impl Connector {
    /// Connects to `ep` through `proxy`.
    ///
    /// `socks5`: the target's name is resolved here (`--connect-to`, `--resolve`, DNS) and its
    /// addresses pass the private-address rule before each is asked of the proxy in turn. Every
    /// other scheme sends the name to the proxy, which resolves it: only an IP-literal target or a
    /// virtual-host address can be checked by the rule.
    pub(crate) async fn through(
        &self,
        route: &ProxyRoute,
        proxy: &ProxyUrl,
        ep: &Endpoint<'_>,
    ) -> Result<Sender, FetchFailure> {
        let stats = Arc::new(ConnStats::default());
        let shown = proxy.authority();
        match proxy.scheme {
            ProxyScheme::Socks5 | ProxyScheme::Socks5h => {
                let with_credentials = proxy.credentials.is_some();
                let targets: Vec<SocksTarget> = if proxy.scheme == ProxyScheme::Socks5 {
                    let (addrs, port) = self.dial_addrs(ep).await?;
                    addrs.into_iter().map(|ip| TargetAddr::Ip(SocketAddr::new(ip, port))).collect()
                } else {
                    vec![match self.named_target(ep)? {
                        (Some(ip), _) => TargetAddr::Ip(SocketAddr::new(ip, ep.port)),
                        (None, name) => {
                            let asked = format!("{name}:{}", ep.port);
                            socks5::named(name, ep.port)
                                .map_err(|e| socks5::failure_of(&shown, &asked, with_credentials, e))?
                        }
                    }]
                };
                let mut last = failure(FailureClass::ProxySocks, format!("proxy {shown}: no address to ask for"));
                for target in &targets {
                    let io = self.open_proxy(route, proxy, &stats).await?;
                    let asked = socks5::connect(io, target, proxy.credentials.as_ref());
                    match tokio::time::timeout(self.connect_timeout, asked).await {
                        Err(_) => {
                            return Err(failure(
                                FailureClass::ProxyConnect,
                                format!(
                                    "proxy {shown}: no SOCKS5 answer for {target} within {:?}",
                                    self.connect_timeout
                                ),
                            ));
                        }
                        Ok(Ok(io)) => return self.secure(io, ep, &route.tls_target, stats).await,
                        // The target refused or is unreachable: its next address may do.
                        Ok(Err(e)) if socks5::reply(&e).is_some() => {
                            last = socks5::failure_of(&shown, target, with_credentials, e)
                        }
                        Ok(Err(e)) => return Err(socks5::failure_of(&shown, target, with_credentials, e)),
                    }
                }
                Err(last)
            }
            ProxyScheme::Http | ProxyScheme::Https => {
                let io = self.open_proxy(route, proxy, &stats).await?;
                let authorization = proxy.credentials.as_ref().map(ProxyCredentials::basic);
                let (ip, name) = self.named_target(ep)?;
                if !ep.https && ep.connect_to.is_none() {
                    // The proxy forwards this connection's requests (absolute form); a virtual-host
                    // try, which must reach one address, is tunnelled instead.
                    let forward = Forward { authorization, proxy: shown };
                    return handshake(io, false, stats, Some(Arc::new(forward))).await;
                }
                let authority = match ip {
                    Some(ip) => SocketAddr::new(ip, ep.port).to_string(),
                    None => format!("{name}:{}", ep.port),
                };
                let opened = tunnel::open(io, &shown, &authority, authorization.as_ref());
                let tunnel = tokio::time::timeout(self.connect_timeout, opened).await.map_err(|_| {
                    failure(
                        FailureClass::ProxyConnect,
                        format!("proxy {shown}: no answer to CONNECT {authority} within {:?}", self.connect_timeout),
                    )
                })??;
                self.secure(tunnel, ep, &route.tls_target, stats).await
            }
        }
    }

    /// What the proxy is asked for when it resolves names: a virtual-host address or an IP-literal
    /// host (both checked by the private-address rule and the scope's excluded networks), else the
    /// host name as is.
    fn named_target(&self, ep: &Endpoint<'_>) -> Result<(Option<IpAddr>, String), FetchFailure> {
        let (ip, route) = match (ep.connect_to, &ep.host) {
            (Some(ip), _) => (ip, Route::Vhost),
            (None, url::Host::Ipv4(v4)) => (IpAddr::V4(*v4), Route::Literal),
            (None, url::Host::Ipv6(v6)) => (IpAddr::V6(*v6), Route::Literal),
            (None, url::Host::Domain(d)) => return Ok((None, d.to_string())),
        };
        self.permitted(&ep.host, vec![ip], &route)?;
        Ok((Some(ip), ip.to_string()))
    }

    /// A connection to the proxy: its name resolved (`--resolve` or DNS; the private-address rule
    /// does not apply to the proxy the user named), TCP, and TLS for an `https://` proxy. Reads are
    /// counted in `stats`.
    async fn open_proxy(
        &self,
        route: &ProxyRoute,
        proxy: &ProxyUrl,
        stats: &Arc<ConnStats>,
    ) -> Result<Box<dyn Io>, FetchFailure> {
        let shown = proxy.authority();
        let reclass = |f: FetchFailure| {
            let class = match f.class {
                FailureClass::ConnectRefused => FailureClass::ProxyRefused,
                _ => FailureClass::ProxyConnect,
            };
            failure(class, format!("proxy {shown}: {}", f.message))
        };
        let host = url::Host::parse(&proxy.host)
            .map_err(|e| failure(FailureClass::ProxyConnect, format!("proxy {shown}: host: {e}")))?;
        let host_ref = match &host {
            url::Host::Domain(d) => url::Host::Domain(d.as_str()),
            url::Host::Ipv4(a) => url::Host::Ipv4(*a),
            url::Host::Ipv6(a) => url::Host::Ipv6(*a),
        };
        let addrs = self.dns.resolve(&host_ref, proxy.port).await.map_err(reclass)?;
        let tcp = Counted::new(self.tcp(&addrs, proxy.port).await.map_err(reclass)?, Arc::clone(stats));
        if proxy.scheme != ProxyScheme::Https {
            return Ok(Box::new(tcp));
        }
        let name = match host {
            url::Host::Domain(d) => ServerName::try_from(d)
                .map_err(|e| failure(FailureClass::ProxyConnect, format!("proxy {shown}: TLS server name: {e}")))?,
            url::Host::Ipv4(v4) => ServerName::IpAddress(IpAddr::V4(v4).into()),
            url::Host::Ipv6(v6) => ServerName::IpAddress(IpAddr::V6(v6).into()),
        };
        let connector = tokio_rustls::TlsConnector::from(Arc::clone(&route.tls_proxy));
        match tokio::time::timeout(self.connect_timeout, connector.connect(name, tcp)).await {
            Err(_) => Err(failure(
                FailureClass::ProxyConnect,
                format!("proxy {shown}: TLS handshake did not complete within {:?}", self.connect_timeout),
            )),
            Ok(Err(e)) => Err(failure(
                FailureClass::ProxyConnect,
                format!("proxy {shown}: TLS: {}", crate::connect::tls_failure(&e).message),
            )),
            Ok(Ok(tls)) => Ok(Box::new(tls)),
        }
    }
}
