//! `wellknown-store`: the candidate graph on disk.
//!
//! What is kept (see `schema.rs` and `docs/ARCHITECTURE.md`):
//!
//! * **scans**: start, end (none while running or after a kill), the plan (targets, scope, probes,
//!   depth, ...) and the summary;
//! * **units** of each scan (origins, issuers) with their state: `pending`, `done`, `beyond_depth`,
//!   `out_of_scope`; a unit is `done` only once every record of it is stored, which is what
//!   `wellknown scan --resume` relies on;
//! * **documents**: URL, probe, fetched-at, status, redirect chain, media type, size, content hash,
//!   failure, kind, validity, facts, and their **diagnostics**;
//! * **nodes** (documents and candidate values), **relations** (`document --relation--> value`),
//!   **evidence** (append-only: one row per sighting, with its scan, document, time and locator);
//! * **verifications** (one verdict per URL node and scan) and **virtual-host attempts**;
//! * **leases**: which process runs a scan, so one scan is resumed by one process at a time
//!   ([`lease`]).
//!
//! Every backend implements [`Store`]: writes are row-level operations keyed by natural keys
//! ([`Write`]); everything derived (confidence, diff, candidate lists, exports) runs as SQL in the
//! database, the same statements for every backend ([`query`], spelled per [`query::Dialect`]),
//! whose rows stream back through [`Store::stream`] into backend-neutral code ([`analysis`],
//! [`export`]): nothing loads the whole graph. [`SqliteStore`] is the default backend;
//! `wellknown-store-postgres` implements the same trait over the same schema.
//!
//! The engine's records become writes through [`ingest::writes_for`].

pub mod analysis;
pub mod confidence;
pub mod export;
mod id_cache;
pub mod ingest;
pub mod lease;
pub mod model;
pub mod query;
mod schema;
mod sqlite;
mod sqlite_stream;

pub use lease::{Acquired, Lease};
pub use model::{
    DOCUMENT_NODE, DiagnosticWrite, DocumentRow, EvidenceRow, GraphData, NodeRow, RelationRow, RelationWrite, ScanId,
    ScanRow, StoredVerification, UnitRow, UnitState, VerificationRow, VhostRow, Write,
};
pub use schema::VERSION as SCHEMA_VERSION;
pub use sqlite::{SQLITE_MAGIC, SqliteStore, is_sqlite_database};

use wellknown_core::Timestamp;

/// An error of the store, with a message for people (backend errors are folded into the text so
/// the trait does not name any backend's types).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    message: String,
}

impl StoreError {
    /// An error with `message`.
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError { message: message.into() }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// A graph store. Implemented by [`SqliteStore`]; shaped so a PostgreSQL backend can implement it
/// over the same schema (natural keys in writes, one transaction per [`Store::write`] batch, plain
/// rows out).
pub trait Store: Send {
    /// Records a new scan with its plan (opaque JSON the caller reads back on resume) and its seed
    /// units (state `pending`). Returns the scan's id.
    ///
    /// Errors: the backend's.
    fn begin_scan(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
    ) -> Result<ScanId, StoreError>;

    /// [`Store::begin_scan`], the new scan's lease held by `lease` from the start (one
    /// transaction where the backend has them: no other process can take the scan in between).
    ///
    /// Errors: the backend's.
    fn begin_scan_with_lease(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
        lease: &Lease,
    ) -> Result<ScanId, StoreError> {
        let id = self.begin_scan(started_at, plan, seeds)?;
        self.acquire_lease(id, lease, started_at, &|_| true)?;
        Ok(id)
    }

    /// Takes the lease of scan `scan` for `lease.holder` (writing `lease`), unless another holder's
    /// lease is live at `now` and `dead` does not say its holder is gone (a process id no longer
    /// running on this host): then the scan is being run elsewhere, and that lease is returned.
    /// Atomic: two callers never both hold it.
    ///
    /// Errors: the backend's.
    fn acquire_lease(
        &mut self,
        scan: ScanId,
        lease: &Lease,
        now: Timestamp,
        dead: &dyn Fn(&Lease) -> bool,
    ) -> Result<Acquired, StoreError>;

    /// Moves the expiry of `holder`'s lease of scan `scan` to `expires_at` (the heartbeat). Returns
    /// false when `holder` no longer holds it (it lapsed and another process took it).
    ///
    /// Errors: the backend's.
    fn renew_lease(&mut self, scan: ScanId, holder: &str, expires_at: Timestamp) -> Result<bool, StoreError>;

    /// Gives up `holder`'s lease of scan `scan` (nothing when another holder has it).
    ///
    /// Errors: the backend's.
    fn release_lease(&mut self, scan: ScanId, holder: &str) -> Result<(), StoreError>;

    /// Every lease, by scan id, expired ones included (whether one still holds is
    /// [`Lease::live_at`]).
    ///
    /// Errors: the backend's.
    fn leases(&mut self) -> Result<Vec<(ScanId, Lease)>, StoreError>;

    /// Applies `writes` of scan `scan` in order, in one transaction: all or nothing.
    ///
    /// Errors: the backend's; evidence naming a document the scan has not recorded.
    fn write(&mut self, scan: ScanId, writes: &[Write]) -> Result<(), StoreError>;

    /// Marks the scan finished.
    ///
    /// Errors: no such scan; the backend's.
    fn finish_scan(
        &mut self,
        scan: ScanId,
        finished_at: Timestamp,
        summary: &serde_json::Value,
    ) -> Result<(), StoreError>;

    /// Every scan, oldest first.
    ///
    /// Errors: the backend's.
    fn scans(&mut self) -> Result<Vec<ScanRow>, StoreError>;

    /// The units of a scan, in insertion order.
    ///
    /// Errors: the backend's.
    fn units(&mut self, scan: ScanId) -> Result<Vec<UnitRow>, StoreError>;

    /// Every row of every table, in memory: for tests and small stores only. The commands never
    /// call it; analyses stream through [`Store::stream`] ([`query`]).
    ///
    /// Errors: the backend's; a malformed stored value.
    fn load(&mut self) -> Result<GraphData, StoreError>;

    /// The SQL dialect of [`Store::stream`].
    fn dialect(&self) -> query::Dialect;

    /// Runs the read-only statement `sql` (written for [`Store::dialect`]) with `params` and hands
    /// its rows to `each` one at a time as the database produces them: memory does not grow with
    /// the result. The first error `each` returns stops the statement and is returned.
    ///
    /// Errors: the backend's; a column of a type [`query::SqlValue`] cannot hold.
    fn stream(
        &mut self,
        sql: &str,
        params: &[query::Param],
        each: &mut dyn FnMut(&query::SqlRow) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;

    /// The most recent scan that has not finished (interrupted, killed, or still running), whatever
    /// scans finished after it.
    ///
    /// Errors: the backend's.
    fn last_unfinished_scan(&mut self) -> Result<Option<ScanRow>, StoreError> {
        Ok(self.scans()?.into_iter().rev().find(|s| s.finished_at.is_none()))
    }
}
