//! Scan settings the engine reads.

use url::Url;
use wellknown_core::Scope;

/// What to scan and how far to follow.
#[derive(Debug, Clone)]
pub struct ScanConfig {
    /// The user's scope; nothing outside it is fetched.
    pub scope: Scope,
    /// Probe ids to run (empty = every registered probe).
    pub probes: Vec<String>,
    /// Issuer identifiers given by the user (`--issuer`), probed by issuer-based probes.
    pub issuers: Vec<Url>,
    /// Origins scanned at once.
    pub concurrency: usize,
    /// Maximum follow-up hops from an origin's documents (robots.txt -> sitemap index -> ... ).
    /// Default 8: enough for six nested sitemap index levels behind a robots.txt.
    pub max_follow_up_hops: u32,
    /// Maximum follow-up documents fetched per origin (bounds an index of a million children).
    pub max_follow_ups_per_origin: usize,
    /// Also request every IANA-registered well-known suffix on each origin and record which exist.
    pub all_registered: bool,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig {
            scope: Scope::default(),
            probes: Vec::new(),
            issuers: Vec::new(),
            concurrency: 16,
            max_follow_up_hops: 8,
            max_follow_ups_per_origin: 2000,
            all_registered: false,
        }
    }
}
