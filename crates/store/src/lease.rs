//! Leases: which process runs a scan, so one scan is resumed by one process at a time.
//!
//! A process that runs a scan (a new one or `scan --resume`) holds the scan's lease: one row naming
//! it (a holder id, its process id and host) and an expiry that it pushes forward while it runs (a
//! heartbeat). Another process may take the lease only once it has expired, or once the caller knows
//! the holder is dead (a process id no longer running on this host): a killed process never holds a
//! scan for longer than its last expiry.

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use serde::Serialize;
use wellknown_core::Timestamp;

use crate::StoreError;
use crate::model::ScanId;

/// Who runs a scan, and until when the claim holds without being renewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lease {
    /// The holder's id, unique per process run (`<pid>@<host>/<start time>`); only this holder
    /// renews or releases the lease.
    pub holder: String,
    /// The holder's process id.
    pub pid: u32,
    /// The holder's host name.
    pub host: String,
    /// When the holder took the lease.
    pub acquired_at: Timestamp,
    /// When the lease lapses unless renewed.
    pub expires_at: Timestamp,
}

impl Lease {
    /// Whether the lease still holds at `now` (its expiry is later).
    pub fn live_at(&self, now: Timestamp) -> bool {
        self.expires_at > now
    }
}

/// The outcome of [`crate::Store::acquire_lease`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acquired {
    /// The caller holds the lease now (it was free, expired, known dead, or already the caller's).
    Held,
    /// Another holder's live lease: the scan is being run by that process.
    Refused(Lease),
}

fn ts(t: &Timestamp) -> String {
    t.to_string()
}

fn parse_ts(s: &str) -> Result<Timestamp, StoreError> {
    s.parse().map_err(|e| StoreError::new(format!("stored timestamp {s:?}: {e}")))
}

type RawLease = (String, u32, String, String, String);

fn read(conn: &Connection, scan: ScanId) -> Result<Option<Lease>, StoreError> {
    let raw: Option<RawLease> = conn
        .query_row(
            "SELECT holder, pid, host, acquired_at, expires_at FROM leases WHERE scan_id = ?1",
            params![scan],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    raw.map(to_lease).transpose()
}

fn to_lease((holder, pid, host, acquired, expires): RawLease) -> Result<Lease, StoreError> {
    Ok(Lease { holder, pid, host, acquired_at: parse_ts(&acquired)?, expires_at: parse_ts(&expires)? })
}

/// Writes `lease` for `scan` (replacing any other row), inside the caller's transaction.
pub(crate) fn put(conn: &Connection, scan: ScanId, lease: &Lease) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO leases (scan_id, holder, pid, host, acquired_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (scan_id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host,
           acquired_at = excluded.acquired_at, expires_at = excluded.expires_at",
        params![scan, lease.holder, lease.pid, lease.host, ts(&lease.acquired_at), ts(&lease.expires_at)],
    )?;
    Ok(())
}

/// [`crate::Store::acquire_lease`] for SQLite: one `BEGIN IMMEDIATE` transaction (the write lock
/// first), so two processes cannot both find the lease free.
pub(crate) fn acquire(
    conn: &mut Connection,
    scan: ScanId,
    lease: &Lease,
    now: Timestamp,
    dead: &dyn Fn(&Lease) -> bool,
) -> Result<Acquired, StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if let Some(other) = read(&tx, scan)?
        && other.holder != lease.holder
        && other.live_at(now)
        && !dead(&other)
    {
        return Ok(Acquired::Refused(other));
    }
    put(&tx, scan, lease)?;
    tx.commit()?;
    Ok(Acquired::Held)
}

/// [`crate::Store::renew_lease`] for SQLite.
pub(crate) fn renew(conn: &Connection, scan: ScanId, holder: &str, expires_at: Timestamp) -> Result<bool, StoreError> {
    let n = conn.execute(
        "UPDATE leases SET expires_at = ?3 WHERE scan_id = ?1 AND holder = ?2",
        params![scan, holder, ts(&expires_at)],
    )?;
    Ok(n == 1)
}

/// [`crate::Store::release_lease`] for SQLite.
pub(crate) fn release(conn: &Connection, scan: ScanId, holder: &str) -> Result<(), StoreError> {
    conn.execute("DELETE FROM leases WHERE scan_id = ?1 AND holder = ?2", params![scan, holder])?;
    Ok(())
}

/// [`crate::Store::leases`] for SQLite: every lease row, expired ones included, by scan.
/// A store of schema version 2 opened read-only may predate the table: no lease then.
pub(crate) fn all(conn: &Connection) -> Result<Vec<(ScanId, Lease)>, StoreError> {
    let exists: bool =
        conn.query_row("SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'leases'", [], |r| {
            r.get(0)
        })?;
    if !exists {
        return Ok(Vec::new());
    }
    let mut stmt =
        conn.prepare("SELECT scan_id, holder, pid, host, acquired_at, expires_at FROM leases ORDER BY scan_id")?;
    let rows =
        stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))))?;
    let mut out = Vec::new();
    for row in rows {
        let (scan, raw) = row?;
        out.push((scan, to_lease(raw)?));
    }
    Ok(out)
}
