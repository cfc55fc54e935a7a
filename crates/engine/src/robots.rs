//! `--obey-robots`: the scanner obeying robots.txt for its own product token.
//!
//! The engine never interprets bytes itself, so the rules come from a [`RobotsGate`] the caller hands
//! in (the binary implements it with the `robots` plugin's RFC 9309 matcher). The engine decides
//! *when* rules apply:
//!
//! * every request of the scan except `/robots.txt` itself is checked against the rules of the
//!   request URL's origin, for documents and verification requests alike; a disallowed URL is not
//!   requested and comes back as a `robots_disallowed` failure;
//! * an origin's rules are read once per scan: from the `robots` probe's own fetch when it ran
//!   first on that origin, otherwise by a GET of `<origin>/robots.txt` made for the purpose;
//! * what the fetch outcome means follows RFC 9309 section 2.3.1 (the gate decides: 2xx = the
//!   rules, 4xx = allow all, 5xx / unreachable = disallow all);
//! * a `Crawl-delay` in the groups that apply becomes the minimum spacing between request starts to
//!   that host ([`crate::Transport::set_host_delay`]), capped at [`MAX_CRAWL_DELAY`]; it is never
//!   shortened below the configured per-host rate.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::OnceCell;
use url::Url;
use wellknown_core::{FetchMeta, Origin};

/// The longest Crawl-delay honoured: larger values are treated as this (a value of hours would stall
/// a scan that the user started with authority over the hosts).
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(60);

/// Body cap for robots.txt fetched to decide access (RFC 9309 section 2.5: at least 500 KiB parsed).
pub const ROBOTS_MAX_BODY: u64 = 512 * 1024;

/// Turns a robots.txt fetch into the rules for the scanner's own product token.
pub trait RobotsGate: Send + Sync {
    /// The rules of the robots.txt fetched with outcome `meta` and body `body` (the body is empty
    /// when there was no 2xx). Must follow RFC 9309 section 2.3.1 for unavailable and unreachable
    /// files.
    fn rules(&self, meta: &FetchMeta, body: &[u8]) -> Arc<dyn RobotsRules>;
}

/// The robots.txt rules of one origin, for the scanner's product token.
pub trait RobotsRules: Send + Sync {
    /// True when the scanner may fetch `url` (a URL of the origin the rules belong to).
    fn allowed(&self, url: &Url) -> bool;

    /// The Crawl-delay that applies to the scanner, if any.
    fn crawl_delay(&self) -> Option<Duration>;
}

/// True for `<origin>/robots.txt` (no query; `/%72obots.txt` too, the same resource:
/// [`wellknown_core::origin::is_robots_location`]): always fetched, never checked against itself,
/// and the only request whose outcome gives an origin its rules. A file at any other path
/// (`/folder/robots.txt`, `/Robots.txt`) governs nothing (RFC 9309 section 2.3); a `/robots.txt`
/// redirected elsewhere is still the origin's (section 2.3.1.2): the rules are keyed on the request.
pub(crate) fn is_robots_txt(url: &Url) -> bool {
    wellknown_core::origin::is_robots_location(url)
}

type Cell = Arc<OnceCell<Arc<dyn RobotsRules>>>;

/// Rules read so far, one cell per origin (and virtual-host address, when the origin is reached
/// through one) so concurrent requests to a new origin fetch its robots.txt once.
#[derive(Default)]
pub(crate) struct RobotsCache {
    cells: Mutex<HashMap<(Origin, Option<IpAddr>), Cell>>,
}

impl RobotsCache {
    pub(crate) fn cell(&self, origin: &Origin, via: Option<IpAddr>) -> Cell {
        let mut map = self.cells.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(map.entry((origin.clone(), via)).or_default())
    }
}

/// Crawl-delay to apply: the declared value capped at [`MAX_CRAWL_DELAY`].
pub(crate) fn capped(delay: Duration) -> Duration {
    delay.min(MAX_CRAWL_DELAY)
}
