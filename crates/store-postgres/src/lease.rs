//! Scan leases in PostgreSQL (`wellknown_store::lease` says what they are). Taking one is atomic: the
//! row is inserted if absent, else locked (`SELECT ... FOR UPDATE`) and replaced only when free,
//! expired, known dead or already the caller's.

use postgres::{GenericClient, Row};
use wellknown_core::Timestamp;
use wellknown_store::{Acquired, Lease, ScanId, StoreError};

use crate::pg_error;

fn to_lease(r: &Row) -> Lease {
    Lease {
        holder: r.get("holder"),
        pid: u32::try_from(r.get::<_, i64>("pid")).unwrap_or(u32::MAX),
        host: r.get("host"),
        acquired_at: r.get("acquired_at"),
        expires_at: r.get("expires_at"),
    }
}

/// Writes `lease` for `scan`, replacing another holder's row, inside the caller's transaction.
pub(crate) fn put(c: &mut impl GenericClient, scan: ScanId, lease: &Lease) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO leases (scan_id, holder, pid, host, acquired_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (scan_id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host,
           acquired_at = excluded.acquired_at, expires_at = excluded.expires_at",
        &[&scan, &lease.holder, &i64::from(lease.pid), &lease.host, &lease.acquired_at, &lease.expires_at],
    )
    .map_err(|e| pg_error("writing the lease", &e))?;
    Ok(())
}

/// [`wellknown_store::Store::acquire_lease`].
pub(crate) fn acquire(
    client: &mut postgres::Client,
    scan: ScanId,
    lease: &Lease,
    now: Timestamp,
    dead: &dyn Fn(&Lease) -> bool,
) -> Result<Acquired, StoreError> {
    let mut tx = client.transaction().map_err(|e| pg_error("taking the lease", &e))?;
    let inserted = tx
        .execute(
            "INSERT INTO leases (scan_id, holder, pid, host, acquired_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (scan_id) DO NOTHING",
            &[&scan, &lease.holder, &i64::from(lease.pid), &lease.host, &lease.acquired_at, &lease.expires_at],
        )
        .map_err(|e| pg_error("taking the lease", &e))?;
    if inserted == 0 {
        let row = tx
            .query_one(
                "SELECT holder, pid, host, acquired_at, expires_at FROM leases WHERE scan_id = $1 FOR UPDATE",
                &[&scan],
            )
            .map_err(|e| pg_error("taking the lease", &e))?;
        let other = to_lease(&row);
        if other.holder != lease.holder && other.live_at(now) && !dead(&other) {
            return Ok(Acquired::Refused(other));
        }
        put(&mut tx, scan, lease)?;
    }
    tx.commit().map_err(|e| pg_error("taking the lease", &e))?;
    Ok(Acquired::Held)
}

/// [`wellknown_store::Store::renew_lease`].
pub(crate) fn renew(
    client: &mut postgres::Client,
    scan: ScanId,
    holder: &str,
    expires_at: Timestamp,
) -> Result<bool, StoreError> {
    let n = client
        .execute("UPDATE leases SET expires_at = $3 WHERE scan_id = $1 AND holder = $2", &[&scan, &holder, &expires_at])
        .map_err(|e| pg_error("renewing the lease", &e))?;
    Ok(n == 1)
}

/// [`wellknown_store::Store::release_lease`].
pub(crate) fn release(client: &mut postgres::Client, scan: ScanId, holder: &str) -> Result<(), StoreError> {
    client
        .execute("DELETE FROM leases WHERE scan_id = $1 AND holder = $2", &[&scan, &holder])
        .map_err(|e| pg_error("releasing the lease", &e))?;
    Ok(())
}

/// [`wellknown_store::Store::leases`]: every lease row, by scan.
pub(crate) fn all(client: &mut postgres::Client) -> Result<Vec<(ScanId, Lease)>, StoreError> {
    let rows = client
        .query("SELECT scan_id, holder, pid, host, acquired_at, expires_at FROM leases ORDER BY scan_id", &[])
        .map_err(|e| pg_error("reading the leases", &e))?;
    Ok(rows.iter().map(|r| (r.get("scan_id"), to_lease(r))).collect())
}
