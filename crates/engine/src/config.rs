//! Scan settings the engine reads.

use std::sync::Arc;
use std::time::Duration;

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
    /// Units (origins, issuers) scanned at once. Default 128: on a real network a unit spends most
    /// of its time waiting for round trips, and a waiting unit holds little memory.
    pub concurrency: usize,
    /// Documents of one unit fetched (and interpreted) at once: its probes, then its follow-ups as
    /// soon as they are known. Each request still waits for its host's politeness budget
    /// (`--per-host`, `--rate`); this bounds what one unit holds in memory. Default 8.
    pub unit_in_flight: usize,
    /// Wall-clock budget of one unit (`--origin-budget`): when it runs out, the unit's requests in
    /// flight are abandoned and its queued documents and verifications skipped (a `budget` record
    /// `time_per_origin` counts them). Default 300 s.
    pub unit_budget: Duration,
    /// Candidate sightings (first sightings and further evidence) recorded per unit at most
    /// (`--max-candidates`); the rest of the unit's documents are not read for candidates and its
    /// queued follow-ups not fetched. Default 200,000.
    pub max_candidates_per_unit: usize,
    /// Units one document may queue (`--max-revealed-per-document`); further revealed units are
    /// recorded (`inventory`, action `over_budget`), not scanned. Default 100.
    pub max_revealed_per_document: usize,
    /// Units one unit's documents may queue in all (`--max-revealed`). Default 1,000.
    pub max_revealed_per_unit: usize,
    /// Virtual-host tries per revealing origin (`--max-vhost-tries`): names that do not resolve
    /// tried at that origin's address. Default 20.
    pub max_vhost_tries_per_origin: usize,
    /// Per origin that answers 2xx, compare its documents with its answers for a random path under
    /// `/` and `/.well-known/` (two calibration requests), so a server answering every path alike
    /// is reported `catch_all` rather than found (`--no-catch-all-check` turns it off).
    pub catch_all_check: bool,
    /// `--retry-rate-limited`: documents refused as `rate_limited` (a `Retry-After` longer than the
    /// fetcher waits) are asked again at the end of the scan, once their host's delay has passed.
    pub retry_rate_limited: bool,
    /// Maximum follow-up hops from an origin's documents (robots.txt -> sitemap index -> ... ).
    /// Default 8: enough for six nested sitemap index levels behind a robots.txt.
    pub max_follow_up_hops: u32,
    /// Maximum follow-up documents fetched per origin (bounds an index of a million children); the
    /// rest are counted in a `budget` record `follow_ups_per_origin`. Default 10,000: a real nested
    /// sitemap tree (robots.txt -> index -> 51 states -> counties -> cities) needs several thousand.
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
    /// A revealed unit this run would queue (in scope, within `depth`, within the revealed budgets)
    /// is recorded `queued` and left to another process instead of run here: a worker of a shared
    /// scan (`wellknown work`) records it in the store's table for whichever worker leases it.
    pub defer_revealed: bool,
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
            .field("unit_in_flight", &self.unit_in_flight)
            .field("unit_budget", &self.unit_budget)
            .field("max_candidates_per_unit", &self.max_candidates_per_unit)
            .field("max_revealed_per_document", &self.max_revealed_per_document)
            .field("max_revealed_per_unit", &self.max_revealed_per_unit)
            .field("defer_revealed", &self.defer_revealed)
            .field("max_vhost_tries_per_origin", &self.max_vhost_tries_per_origin)
            .field("catch_all_check", &self.catch_all_check)
            .field("retry_rate_limited", &self.retry_rate_limited)
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
    /// The command line's defaults: 128 units at once, 8 documents of a unit at once, 300 s per
    /// unit, verification on (at most 1000 requests per unit, 4 at once), feedback depth 1,
    /// virtual-host attempts on, catch-all check on, robots.txt not obeyed.
    fn default() -> Self {
        ScanConfig {
            scope: Scope::default(),
            probes: Vec::new(),
            issuers: Vec::new(),
            concurrency: 128,
            unit_in_flight: 8,
            unit_budget: Duration::from_secs(300),
            max_candidates_per_unit: 200_000,
            max_revealed_per_document: 100,
            max_revealed_per_unit: 1_000,
            defer_revealed: false,
            max_vhost_tries_per_origin: 20,
            catch_all_check: true,
            retry_rate_limited: false,
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
