//! Scan settings the engine reads.

use std::sync::Arc;

use url::Url;
use wellknown_core::Scope;

use crate::robots::RobotsGate;

/// What to scan and how far to follow.
#[derive(Clone)]
pub struct ScanConfig {
    /// The user's scope; nothing outside it is fetched.
    pub scope: Scope,
    /// Probe ids to run (empty = every registered probe).
    pub probes: Vec<String>,
    /// Issuer identifiers given by the user (`--issuer`), probed by issuer-based probes.
    pub issuers: Vec<Url>,
    /// Units (origins, issuers) scanned at once.
    pub concurrency: usize,
    /// Maximum follow-up hops from an origin's documents (robots.txt -> sitemap index -> ... ).
    /// Default 8: enough for six nested sitemap index levels behind a robots.txt.
    pub max_follow_up_hops: u32,
    /// Maximum follow-up documents fetched per origin (bounds an index of a million children).
    /// Default 10,000: a real nested sitemap tree (robots.txt -> index -> 51 states -> counties ->
    /// cities) needs several thousand.
    pub max_follow_ups_per_origin: usize,
    /// Also request every IANA-registered well-known suffix on each origin and record which exist.
    pub all_registered: bool,
    /// Verify candidate URLs (`url`, `sitemap`, `endpoint`) in scope (`--no-verify` turns it off).
    pub verify: bool,
    /// Verification requests per unit at most; later candidates get the verdict `skipped`.
    pub max_verifications_per_unit: usize,
    /// Verification requests of one unit in flight at once (per-host politeness still applies).
    pub verify_concurrency: usize,
    /// Feedback depth (`--depth`): hosts, origins and issuers revealed by documents are scanned in
    /// the same run when at most this many hops from the targets (targets are depth 0).
    pub depth: u32,
    /// Try revealed names that do not resolve as virtual hosts of the origin that revealed them.
    pub vhosts: bool,
    /// `--obey-robots`: the robots.txt rules for the scanner's own token, applied to every request
    /// but robots.txt itself. None: robots.txt is read as a document only.
    pub obey_robots: Option<Arc<dyn RobotsGate>>,
}

impl std::fmt::Debug for ScanConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScanConfig")
            .field("scope", &self.scope)
            .field("probes", &self.probes)
            .field("issuers", &self.issuers)
            .field("concurrency", &self.concurrency)
            .field("max_follow_up_hops", &self.max_follow_up_hops)
            .field("max_follow_ups_per_origin", &self.max_follow_ups_per_origin)
            .field("all_registered", &self.all_registered)
            .field("verify", &self.verify)
            .field("max_verifications_per_unit", &self.max_verifications_per_unit)
            .field("verify_concurrency", &self.verify_concurrency)
            .field("depth", &self.depth)
            .field("vhosts", &self.vhosts)
            .field("obey_robots", &self.obey_robots.is_some())
            .finish()
    }
}

impl Default for ScanConfig {
    /// The command line's defaults: verification on (at most 1000 requests per unit, 4 at once),
    /// feedback depth 1, virtual-host attempts on, robots.txt not obeyed.
    fn default() -> Self {
        ScanConfig {
            scope: Scope::default(),
            probes: Vec::new(),
            issuers: Vec::new(),
            concurrency: 16,
            max_follow_up_hops: 8,
            max_follow_ups_per_origin: 10_000,
            all_registered: false,
            verify: true,
            max_verifications_per_unit: 1000,
            verify_concurrency: 4,
            depth: 1,
            vhosts: true,
            obey_robots: None,
        }
    }
}
