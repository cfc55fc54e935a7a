//! `wellknown-http`: the fetcher every request of a scan goes through.
//!
//! One [`Fetcher`] per scan: hyper 1 client connections (HTTP/1.1, and HTTP/2 by ALPN) over
//! rustls (ring provider, webpki roots plus configured extra roots), hickory DNS, curl-style
//! `--resolve` overrides, redirects followed by us and recorded hop by hop, `Content-Encoding`
//! decoding with a cap on the decoded bytes, and per-host politeness (concurrency, rate, crawl
//! delay, 429/503 back-off honouring `Retry-After`).
//!
//! Every outcome is a [`wellknown_core::FetchResult`]; failures carry a
//! [`wellknown_core::FailureClass`] (`dns_nxdomain`, `connect_refused`, `tls`, `timeout`,
//! `redirect_loop`, ...) and a message. HTTP error statuses (404, 500, ...) are responses, not
//! failures. See `docs/fetcher.md` for the classes and the politeness model.
//!
//! ```no_run
//! # async fn demo() -> Result<(), wellknown_http::FetcherError> {
//! use wellknown_core::{FetchPolicy, FetchRequest};
//! use wellknown_http::{Fetcher, FetcherConfig};
//!
//! let fetcher = Fetcher::new(FetcherConfig::default())?;
//! let req = FetchRequest::get("https://example.com/robots.txt".parse().unwrap(), FetchPolicy::default());
//! let result = fetcher.fetch(&req, &|_url| true).await;
//! match &result.meta.failure {
//!     None => println!("{:?}: {} bytes", result.meta.status, result.body.len()),
//!     Some(f) => println!("failed: {} ({})", f.class, f.message),
//! }
//! # Ok(()) }
//! ```

mod addr;
mod client;
mod config;
mod connect;
mod connect_proxy;
mod connect_to;
mod dns;
mod error;
mod politeness;
mod pool;
mod proxy;
mod retry_after;
mod socks5;
mod transfer_rate;
mod tunnel;

pub use addr::forbidden_reason;
pub use client::{ACCEPT_ENCODING, Fetcher};
pub use config::{DEFAULT_USER_AGENT, FetcherConfig, OverrideHost, ResolveOverride, ResolveParseError, parse_duration};
pub use connect_to::{ConnectTo, ConnectToParseError};
pub use error::{FetcherError, MAX_FAILURE_MESSAGE_CHARS};
pub use politeness::RateLimit;
pub use proxy::{ProxyConfig, ProxyCredentials, ProxyParseError, ProxyScheme, ProxySource, ProxyUrl};
pub use retry_after::parse_retry_after;
pub use wellknown_decode::{BodyDecoder, Coding, DecodeError, parse_content_encoding};
