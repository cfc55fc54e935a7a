//! The loopback fixture server for end-to-end tests, benchmarks and `cargo xtask demo`.
//!
//! It serves `ROOT/<host>/<path>` for any `Host` header (port removed, lower case), over plain HTTP
//! and, when asked, over HTTPS with a throwaway CA made by rcgen. A response is shaped by an optional
//! sidecar file `<file>.headers` next to the served file (or standing alone, for responses without a
//! body), with lines `Name: value`. Besides real headers it understands:
//!
//! * `Status: 301` — the status code (default 200, or 404 when neither file nor sidecar exists);
//! * `X-Fixture-Stall: SECONDS` — wait that long before sending the body (timeouts);
//! * `X-Fixture-Repeat: N` — send the body N times (bodies over a cap without a huge file).
//!
//! A query string is looked up as the file `<path>?<query>` first, then as `<path>`. Every request is
//! logged (host, method, path and query) so tests can prove what was, and was not, requested.
//!
//! The server binds to 127.0.0.1 only.
//!
//! [`HostileServer`] is the other fixture: a raw TCP server that drips, holds and rate-limits, for
//! tests of slow and unfriendly peers (`hostile.rs`). [`TestProxy`] is a loopback HTTP (`CONNECT` and
//! absolute-form) or SOCKS5 proxy with optional credentials, a request log, and refusing or stalling
//! behaviours (`test_proxy.rs`). Besides them: [`DelayProxy`], a TCP proxy that
//! adds a round trip of latency to every connection (the scan benchmark's `--latency`), and
//! [`plain_fetch`], the plain async fetcher that benchmark compares the scan with.

mod content_type;
mod delay_proxy;
mod hostile;
pub mod plain_fetch;
mod server;
mod test_proxy;
mod tls;

pub use content_type::guess_content_type;
pub use delay_proxy::{DelayProxy, ProxyCounters};
pub use hostile::{Behaviour, HostileRequest, HostileServer, HostileServerBuilder, WELCOME};
pub use server::{FixtureServer, RequestLog, Served};
pub use test_proxy::{ProxyBehaviour, ProxyProtocol, ProxyRequest, TestProxy, TestProxyBuilder};
pub use tls::TestCa;

use std::path::PathBuf;

/// The repository's fixture tree (`tests/fixtures/sites`).
pub fn fixture_sites() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("sites")
}
