//! Name resolution with classified failures: `--resolve` overrides first, IP literals as they are,
//! everything else through hickory-resolver.

use std::net::IpAddr;
use std::time::Duration;

use hickory_resolver::config::{NameServerConfig, ResolverConfig};
use hickory_resolver::name_server::TokioConnectionProvider;
use hickory_resolver::proto::ProtoErrorKind;
use hickory_resolver::proto::op::ResponseCode;
use hickory_resolver::proto::xfer::Protocol;
use hickory_resolver::{ResolveError, TokioResolver};
use wellknown_core::{FailureClass, FetchFailure};

use crate::config::{FetcherConfig, ResolveOverride};
use crate::error::failure;

/// Resolver shared by every request of a fetcher.
pub(crate) struct Dns {
    resolver: TokioResolver,
    overrides: Vec<ResolveOverride>,
}

impl Dns {
    /// Builds the resolver: `config.dns_servers` when given, else the system configuration, else
    /// (system configuration unreadable) hickory's default public resolvers.
    pub(crate) fn new(config: &FetcherConfig) -> Dns {
        let provider = TokioConnectionProvider::default();
        let mut builder = if !config.dns_servers.is_empty() {
            let mut rc = ResolverConfig::new();
            for &addr in &config.dns_servers {
                rc.add_name_server(NameServerConfig::new(addr, Protocol::Udp));
                rc.add_name_server(NameServerConfig::new(addr, Protocol::Tcp));
            }
            TokioResolver::builder_with_config(rc, provider)
        } else {
            match TokioResolver::builder(provider.clone()) {
                Ok(b) => b,
                Err(e) => {
                    tracing::warn!("system DNS configuration unusable ({e}); using public resolvers");
                    TokioResolver::builder_with_config(ResolverConfig::default(), provider)
                }
            }
        };
        let opts = builder.options_mut();
        // One lookup must not outlive the connect budget by much: cap the per-query timeout.
        opts.timeout = opts.timeout.min(config.connect_timeout.max(Duration::from_millis(100)));
        opts.attempts = opts.attempts.clamp(1, 2);
        Dns { resolver: builder.build(), overrides: config.resolve.clone() }
    }

    /// True when a `--resolve` override gives the addresses of `host` (as the `url` crate writes
    /// it) on `port`, instead of DNS.
    pub(crate) fn overridden(&self, host: &url::Host<&str>, port: u16) -> bool {
        let host_str = host.to_string();
        self.overrides.iter().any(|o| o.matches(&host_str, port))
    }

    /// Addresses to connect to for `host` (as the `url` crate writes it) on `port`.
    ///
    /// Order of precedence: a matching `--resolve` override (no DNS), an IP literal (no DNS), then
    /// an A/AAAA lookup. Multi-label names are looked up as absolute names (no search list).
    pub(crate) async fn resolve(&self, host: &url::Host<&str>, port: u16) -> Result<Vec<IpAddr>, FetchFailure> {
        let host_str = host.to_string();
        if let Some(o) = self.overrides.iter().find(|o| o.matches(&host_str, port)) {
            return Ok(o.addrs.clone());
        }
        let name = match host {
            url::Host::Ipv4(v4) => return Ok(vec![IpAddr::V4(*v4)]),
            url::Host::Ipv6(v6) => return Ok(vec![IpAddr::V6(*v6)]),
            url::Host::Domain(d) => *d,
        };
        let query = if name.contains('.') && !name.ends_with('.') { format!("{name}.") } else { name.to_string() };
        match self.resolver.lookup_ip(query.as_str()).await {
            Ok(lookup) => {
                let addrs: Vec<IpAddr> = lookup.iter().collect();
                if addrs.is_empty() {
                    Err(failure(FailureClass::DnsNoAnswer, format!("{name}: no A or AAAA records")))
                } else {
                    Ok(addrs)
                }
            }
            Err(e) => Err(classify(name, &e)),
        }
    }
}

/// Maps a hickory error to `dns_nxdomain`, `dns_no_answer` or `dns_failure`.
fn classify(name: &str, e: &ResolveError) -> FetchFailure {
    if let Some(proto) = e.proto()
        && let ProtoErrorKind::NoRecordsFound { response_code, .. } = proto.kind()
    {
        return match *response_code {
            ResponseCode::NXDomain => failure(FailureClass::DnsNxdomain, format!("{name}: no such domain (NXDOMAIN)")),
            ResponseCode::NoError => {
                failure(FailureClass::DnsNoAnswer, format!("{name}: the name exists but has no A or AAAA records"))
            }
            other => failure(FailureClass::DnsFailure, format!("{name}: resolver answered {other}")),
        };
    }
    failure(FailureClass::DnsFailure, format!("{name}: DNS lookup failed: {e}"))
}
