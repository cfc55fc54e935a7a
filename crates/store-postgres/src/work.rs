//! Shared scans: many `wellknown work` processes, on any number of machines, run the units of one
//! scan recorded in the database.
//!
//! Units are grouped by the registrable domain of their host (public suffix list; the host itself
//! when it has none: an IP address, `localhost`, a single label), [`group_of`]. A worker leases
//! whole groups (`unit_groups`, `SELECT … FOR UPDATE SKIP LOCKED`, so workers asking at once never
//! wait for each other nor get the same group), runs their pending units, and releases them; so no
//! two workers ask hosts of one registrable domain at once, and the fetcher's per-host politeness
//! (`--per-host`, `--rate`, back-off) holds across workers. A heartbeat pushes the expiry of the
//! worker's leases forward ([`PostgresStore::renew_groups`]); a lease that expires (its worker was
//! killed or lost the database) is taken over by the next worker that asks. A group leased
//! [`MAX_ATTEMPTS`] times without being released (its worker died each time) is `failed`: its
//! pending units are left, counted, and not leased again.
//!
//! A unit's records and its `done` state are written as the single-process scan writes them: in
//! order, its `done` in the transaction of its last records, so a unit taken over after a crash is
//! redone and its rows rewritten idempotently; `done` is never set twice.

use std::time::Duration;

use wellknown_store::{ScanId, StoreError, UnitRow, Write};

use crate::prepared::Prepared;
use crate::write::{Failure, Tx, retried, server};
use crate::{PostgresStore, pg_error, read};

/// Leases of a group before it counts as failed.
pub const MAX_ATTEMPTS: i32 = 3;

/// The group of a unit (`kind`, `value` as stored): the registrable domain of its host, else the
/// host; a value without a host is a group of its own.
pub fn group_of(kind: &str, value: &str) -> String {
    let host = url::Url::parse(value).ok().and_then(|u| u.host().map(|h| h.to_owned()));
    match host {
        Some(url::Host::Domain(d)) => {
            let d = d.to_ascii_lowercase();
            wellknown_core::scope::registrable_domain(&d).unwrap_or(d)
        }
        Some(url::Host::Ipv4(a)) => a.to_string(),
        Some(url::Host::Ipv6(a)) => a.to_string(),
        None => format!("{kind} {value}"),
    }
}

/// Groups a worker holds, with their pending units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leased {
    /// The scan.
    pub scan: ScanId,
    /// The groups leased.
    pub groups: Vec<String>,
    /// Their pending units, in insertion order.
    pub units: Vec<UnitRow>,
    /// The group of each of `units` (same order), as stored.
    pub unit_groups: Vec<String>,
}

impl Leased {
    /// One `Leased` per group, each with its own units, in lease order (the slots of a worker that
    /// asked together each take one).
    pub fn split(self) -> Vec<Leased> {
        let mut each: Vec<Leased> = self
            .groups
            .iter()
            .map(|g| Leased { scan: self.scan, groups: vec![g.clone()], units: Vec::new(), unit_groups: Vec::new() })
            .collect();
        for (u, g) in self.units.into_iter().zip(self.unit_groups) {
            // A unit comes with its group from the lease (`lease_groups`): always one of them.
            if let Some(l) = each.iter_mut().find(|l| l.groups[0] == g) {
                l.units.push(u);
                l.unit_groups.push(g);
            }
        }
        each
    }
}

/// Where a scan stands, for `wellknown scans` on a shared database.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The scan.
    pub scan: ScanId,
    /// Units waiting for a worker.
    pub pending: i64,
    /// Units in groups leased now, by holder (`<pid>@<host>/<start>`), holders in name order.
    pub leased: Vec<(String, i64)>,
    /// Units done.
    pub done: i64,
    /// Units of failed groups (leased [`MAX_ATTEMPTS`] times without completing).
    pub failed: i64,
    /// Units recorded but not to be scanned (`beyond_depth`, `out_of_scope`, `over_budget`).
    pub recorded: i64,
    /// Units done in the last minute.
    pub done_last_minute: i64,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl PostgresStore {
    /// Leases up to `max` groups of scan `scan` that have pending units and no live lease (and are
    /// not failed) for `holder`, until `ttl` from now; returns them with their pending units (no
    /// group: nothing to take now).
    ///
    /// Errors: the server's.
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn lease_groups(
        &mut self,
        scan: ScanId,
        holder: &str,
        ttl: Duration,
        max: usize,
    ) -> Result<Leased, StoreError> {
        // A group can be open with nothing pending (its units were done without a release: a
        // single-process scan into the database, or a race with a release); such groups are
        // released at once, which closes them, and the lease is asked again.
        loop {
            let (mut leased, idle) = self.with_reconnect(|s| s.lease_groups_once(scan, holder, ttl, max))?;
            if idle.is_empty() {
                return Ok(leased);
            }
            self.release_groups(scan, &idle, holder)?;
            leased.groups.retain(|g| !idle.contains(g));
            if !leased.groups.is_empty() {
                return Ok(leased);
            }
        }
    }

    /// Pushes the expiry of `holder`'s live leases of `groups` (in any scan) to `ttl` from now (the
    /// heartbeat); returns how many it still holds. Only the groups the worker knows it runs: a
    /// lease whose answer was lost (the connection dropped after the commit, and the lease was
    /// asked again) is not renewed, expires and is taken over.
    ///
    /// Errors: the server's.
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn renew_groups(&mut self, holder: &str, ttl: Duration, groups: &[String]) -> Result<u64, StoreError> {
        self.with_reconnect(|s| s.renew_groups_once(holder, ttl, groups))
    }

    /// Releases `holder`'s leases of `groups` of scan `scan` once their units are run: free again
    /// (units revealed meanwhile are leased by whoever asks next), attempts reset.
    ///
    /// Errors: the server's.
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn release_groups(&mut self, scan: ScanId, groups: &[String], holder: &str) -> Result<(), StoreError> {
        self.with_reconnect(|s| s.release_groups_once(scan, groups, holder))
    }

    /// Writes `writes` (the last records of the units of `groups`, their `done` states among them)
    /// and releases `holder`'s leases of `groups`, in one transaction: one commit where
    /// [`wellknown_store::Store::write`] then [`PostgresStore::release_groups`] take two. Either both
    /// happen or neither (the groups stay leased and their units are redone after the lease expires).
    ///
    /// Errors: the server's; a batch the store refuses (as [`wellknown_store::Store::write`]).
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn write_and_release(
        &mut self,
        scan: ScanId,
        writes: &[Write],
        groups: &[String],
        holder: &str,
    ) -> Result<(), StoreError> {
        if writes.is_empty() {
            return self.release_groups(scan, groups, holder);
        }
        let mut sorted = groups.to_vec();
        sorted.sort_unstable();
        self.with_reconnect(|s| {
            crate::write::apply_then(&mut s.client, &mut s.prepared, scan, writes, &sorted, |tx| {
                release_locked(tx, scan, &sorted, holder)
            })
        })
    }

    /// Ends every live lease of `holder` now (a worker known to be gone: its process no longer runs),
    /// so the next worker takes its groups over at once. Returns how many leases it held.
    ///
    /// Errors: the server's.
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn expire_leases_of(&mut self, holder: &str) -> Result<u64, StoreError> {
        self.with_reconnect(|s| s.expire_leases_of_once(holder))
    }

    /// Finishes scan `scan` when nothing is left to do: no live lease, and no pending unit outside
    /// failed groups. The summary says it was shared and counts units (`units_done`,
    /// `units_failed`, `units_recorded`). Returns whether the scan is finished (now or before).
    ///
    /// Errors: the server's.
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn finish_if_complete(&mut self, scan: ScanId) -> Result<bool, StoreError> {
        self.with_reconnect(|s| s.finish_if_complete_once(scan))
    }

    /// Where every scan stands, oldest first.
    ///
    /// Errors: the server's.
    /// Reconnects when the server ended the connection (a restart; `PostgresStore::with_reconnect`).
    pub fn progress(&mut self) -> Result<Vec<Progress>, StoreError> {
        self.with_reconnect(|s| s.progress_once())
    }

    /// Leases up to `max` groups of scan `scan` that have pending units and no live lease (and are
    /// not failed) for `holder`, until `ttl` from now; returns them with their pending units (no
    /// group: nothing to take now).
    ///
    /// Errors: the server's.
    fn lease_groups_once(
        &mut self,
        scan: ScanId,
        holder: &str,
        ttl: Duration,
        max: usize,
    ) -> Result<(Leased, Vec<String>), StoreError> {
        let what = "leasing units";
        let max = i64::try_from(max.max(1)).unwrap_or(i64::MAX);
        // One statement (one round trip, its own transaction): the groups picked and leased, with
        // their pending units. Open groups only, in order, from the partial index: no per-group
        // look at the units, whose semi-join the planner turned into a read of every pending unit
        // at every lease (213 ms a lease with 32 workers on 2,000 groups). An open group found with
        // nothing pending (a race with its release) is leased with no units and released again.
        let rows = Prepared::new(&mut self.client, &mut self.prepared)
            .query(
                "WITH picked AS (
                   SELECT g.scan_id, g.grp FROM unit_groups g
                   WHERE g.scan_id = $1 AND g.open AND (g.leased_by IS NULL OR g.lease_expires < now())
                     AND g.attempts < $2
                   ORDER BY g.id LIMIT $3 FOR UPDATE OF g SKIP LOCKED
                 ),
                 leased AS (
                   UPDATE unit_groups g SET leased_by = $4, leased_at = now(),
                     lease_expires = now() + make_interval(secs => $5), attempts = g.attempts + 1
                   FROM picked WHERE g.scan_id = picked.scan_id AND g.grp = picked.grp
                   RETURNING g.grp, g.id
                 )
                 SELECT l.grp, u.kind, u.value, u.depth, u.revealed_by, u.state, u.in_scope
                 FROM leased l LEFT JOIN LATERAL (
                   SELECT u.id, u.kind, u.value, u.depth, u.revealed_by, u.state, u.in_scope FROM units u
                   WHERE u.scan_id = $1 AND u.grp = l.grp AND u.state = 'pending'
                   OFFSET 0
                 ) u ON true
                 ORDER BY l.id, u.id",
                &[&scan, &MAX_ATTEMPTS, &max, &holder, &secs(ttl)],
            )
            .map_err(|e| pg_error(what, &e))?;
        let mut groups: Vec<String> = Vec::new();
        let mut idle: Vec<String> = Vec::new();
        let mut units = Vec::new();
        let mut unit_groups = Vec::new();
        for r in &rows {
            let grp: String = r.get(0);
            if groups.last() != Some(&grp) {
                groups.push(grp.clone());
            }
            // A group's row without a unit: nothing pending in it.
            if r.get::<_, Option<String>>("value").is_some() {
                units.push(read::unit(r)?);
                unit_groups.push(grp);
            } else {
                idle.push(grp);
            }
        }
        Ok((Leased { scan, groups, units, unit_groups }, idle))
    }

    /// Pushes the expiry of every group `holder` holds to `ttl` from now (the heartbeat); returns
    /// how many it still holds.
    ///
    /// Errors: the server's.
    fn renew_groups_once(&mut self, holder: &str, ttl: Duration, groups: &[String]) -> Result<u64, StoreError> {
        // The rows are locked in (scan, group) order, as releases and writers lock them (a plain
        // UPDATE locks in the order it finds rows, and deadlocked with a release of several groups).
        Prepared::new(&mut self.client, &mut self.prepared)
            .execute(
                "WITH mine AS (
                   SELECT scan_id, grp FROM unit_groups
                   WHERE leased_by = $1 AND grp = ANY($3) AND lease_expires >= now()
                   ORDER BY scan_id, grp FOR UPDATE
                 )
                 UPDATE unit_groups g SET lease_expires = now() + make_interval(secs => $2)
                 FROM mine WHERE g.scan_id = mine.scan_id AND g.grp = mine.grp",
                &[&holder, &secs(ttl), &groups],
            )
            .map_err(|e| pg_error("renewing unit leases", &e))
    }

    /// Releases `holder`'s leases of `groups` of scan `scan` once their units are run: free again
    /// (units revealed meanwhile are leased by whoever asks next), attempts reset.
    ///
    /// Errors: the server's.
    fn release_groups_once(&mut self, scan: ScanId, groups: &[String], holder: &str) -> Result<(), StoreError> {
        retried(|| self.release_groups_tx(scan, groups, holder))
    }

    /// One attempt of [`PostgresStore::release_groups`] (a deadlock or serialization failure is
    /// retried by the caller).
    fn release_groups_tx(&mut self, scan: ScanId, groups: &[String], holder: &str) -> Result<(), Failure> {
        let what = "releasing unit leases";
        let mut sorted = groups.to_vec();
        sorted.sort_unstable();
        let mut tx = self.client.transaction().map_err(server(what))?;
        let mut p = Prepared::new(&mut tx, &mut self.prepared);
        // The row locks first, in one order: a writer adding pending units to one of these groups
        // has committed by now (or waits for this transaction and then reopens the group), so the
        // next statement, with a snapshot of its own, sees every pending unit.
        // A release alone need not wait for the disk (`synchronous_commit` off for this transaction,
        // set in the same statement): were it lost in a server crash, the group would stay leased
        // until its lease expires, and no unit would be run twice (leases and unit writes, which do
        // wait, decide that). It saves one flush per group.
        p.execute(
            "WITH locked AS (
               SELECT 1 FROM unit_groups WHERE scan_id = $1 AND grp = ANY($2) ORDER BY grp FOR UPDATE
             )
             SELECT set_config('synchronous_commit', 'off', true), (SELECT count(*) FROM locked)",
            &[&scan, &sorted],
        )
        .map_err(server(what))?;
        release_locked(&mut p, scan, &sorted, holder)?;
        tx.commit().map_err(server(what))
    }

    /// Ends every live lease of `holder` now (a worker known to be gone: its process no longer runs),
    /// so the next worker takes its groups over at once. Returns how many leases it held.
    ///
    /// Errors: the server's.
    fn expire_leases_of_once(&mut self, holder: &str) -> Result<u64, StoreError> {
        self.client
            .execute(
                "UPDATE unit_groups SET lease_expires = now() - interval '1 millisecond'
                 WHERE leased_by = $1 AND lease_expires >= now()",
                &[&holder],
            )
            .map_err(|e| pg_error("expiring a dead worker's leases", &e))
    }

    /// Finishes scan `scan` when nothing is left to do: no live lease, and no pending unit outside
    /// failed groups. The summary says it was shared and counts units (`units_done`,
    /// `units_failed`, `units_recorded`). Returns whether the scan is finished (now or before).
    ///
    /// Errors: the server's.
    fn finish_if_complete_once(&mut self, scan: ScanId) -> Result<bool, StoreError> {
        let what = "finishing the shared scan";
        let mut tx = self.client.transaction().map_err(|e| pg_error(what, &e))?;
        let row = tx
            .query_one(
                "SELECT
                   (SELECT finished_at IS NOT NULL FROM scans WHERE id = $1),
                   EXISTS (SELECT 1 FROM unit_groups WHERE scan_id = $1 AND leased_by IS NOT NULL AND lease_expires >= now()),
                   EXISTS (SELECT 1 FROM units u JOIN unit_groups g ON g.scan_id = u.scan_id AND g.grp = u.grp
                           WHERE u.scan_id = $1 AND u.state = 'pending' AND g.attempts < $2)",
                &[&scan, &MAX_ATTEMPTS],
            )
            .map_err(|e| pg_error(what, &e))?;
        let (finished, live, pending): (Option<bool>, bool, bool) = (row.get(0), row.get(1), row.get(2));
        match finished {
            None => return Err(StoreError::new(format!("no scan {scan}"))),
            Some(true) => return Ok(true),
            Some(false) if live || pending => return Ok(false),
            Some(false) => {}
        }
        tx.execute(
            "UPDATE scans SET finished_at = now(), summary = json_build_object(
               'shared', true,
               'units_done', (SELECT count(*) FROM units WHERE scan_id = $1 AND state = 'done'),
               'units_failed', (SELECT count(*) FROM units WHERE scan_id = $1 AND state = 'pending'),
               'units_recorded', (SELECT count(*) FROM units WHERE scan_id = $1 AND state NOT IN ('done', 'pending')))
             WHERE id = $1 AND finished_at IS NULL",
            &[&scan],
        )
        .map_err(|e| pg_error(what, &e))?;
        tx.commit().map_err(|e| pg_error(what, &e))?;
        Ok(true)
    }

    /// Where every scan stands, oldest first.
    ///
    /// Errors: the server's.
    fn progress_once(&mut self) -> Result<Vec<Progress>, StoreError> {
        let what = "reading scan progress";
        let rows = self
            .client
            .query(
                "SELECT s.id,
                   count(u.*) FILTER (WHERE u.state = 'pending' AND NOT coalesce(g.lease_expires >= now(), false)
                                      AND g.attempts < $1) AS pending,
                   count(u.*) FILTER (WHERE u.state = 'done') AS done,
                   count(u.*) FILTER (WHERE u.state = 'pending' AND NOT coalesce(g.lease_expires >= now(), false)
                                      AND g.attempts >= $1) AS failed,
                   count(u.*) FILTER (WHERE u.state NOT IN ('done', 'pending')) AS recorded,
                   count(u.*) FILTER (WHERE u.done_at >= now() - interval '1 minute') AS last_minute
                 FROM scans s
                 LEFT JOIN units u ON u.scan_id = s.id
                 LEFT JOIN unit_groups g ON g.scan_id = u.scan_id AND g.grp = u.grp
                 GROUP BY s.id ORDER BY s.id",
                &[&MAX_ATTEMPTS],
            )
            .map_err(|e| pg_error(what, &e))?;
        let holders = self
            .client
            .query(
                "SELECT g.scan_id, g.leased_by, count(u.*) FROM unit_groups g
                 JOIN units u ON u.scan_id = g.scan_id AND u.grp = g.grp AND u.state = 'pending'
                 WHERE g.leased_by IS NOT NULL AND g.lease_expires >= now()
                 GROUP BY g.scan_id, g.leased_by ORDER BY g.scan_id, g.leased_by",
                &[],
            )
            .map_err(|e| pg_error(what, &e))?;
        Ok(rows
            .iter()
            .map(|r| {
                let scan: ScanId = r.get(0);
                Progress {
                    scan,
                    pending: r.get(1),
                    leased: holders
                        .iter()
                        .filter(|h| h.get::<_, ScanId>(0) == scan)
                        .map(|h| (h.get(1), h.get(2)))
                        .collect(),
                    done: r.get(2),
                    failed: r.get(3),
                    recorded: r.get(4),
                    done_last_minute: r.get(5),
                }
            })
            .collect())
    }
}

/// Ends `holder`'s leases of `sorted` (group names in order) in scan `scan`, whose `unit_groups`
/// rows this transaction has locked: each is free again, its attempts reset, and open when a unit
/// of it is still pending (one revealed meanwhile, by this transaction or a committed one).
///
/// Errors: the server's.
fn release_locked(tx: &mut Tx<'_, '_>, scan: ScanId, sorted: &[String], holder: &str) -> Result<(), Failure> {
    tx.execute(
        "UPDATE unit_groups g SET leased_by = NULL, leased_at = NULL, lease_expires = NULL, attempts = 0,
           open = EXISTS (SELECT 1 FROM units u WHERE u.scan_id = g.scan_id AND u.grp = g.grp AND u.state = 'pending')
         WHERE g.scan_id = $1 AND g.grp = ANY($2) AND g.leased_by = $3",
        &[&scan, &sorted, &holder],
    )
    .map_err(server("releasing unit leases"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_group_by_registrable_domain_else_host() {
        assert_eq!(group_of("origin", "https://api.a.example.co.uk"), "example.co.uk");
        assert_eq!(group_of("origin", "http://www.example.co.uk:8080"), "example.co.uk");
        assert_eq!(group_of("issuer", "https://login.b.example/tenant/v2.0"), "b.example");
        assert_eq!(group_of("origin", "https://127.0.0.1:8443"), "127.0.0.1");
        assert_eq!(group_of("origin", "https://[::1]"), "::1");
        assert_eq!(group_of("origin", "http://localhost"), "localhost");
        assert_eq!(group_of("origin", "not a url"), "origin not a url");
    }
}
