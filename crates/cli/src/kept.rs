//! What a scan keeps in the store while it runs: the writer thread, the lease on its scan and its
//! heartbeat; and the choices around them: the scan `--resume` takes, the line that names the
//! unfinished scans a new scan leaves behind.

use std::path::{Path, PathBuf};

use wellknown_core::Timestamp;
use wellknown_records::Record;
use wellknown_store::{Acquired, Lease, ScanId, ScanRow, Store, UnitRow, UnitState};

use crate::scan_lease::{self, Heartbeat};
use crate::store_open::{resume_command, scan_error};
use crate::store_sink::StoreSink;

/// A scan being kept in the store.
pub struct Kept {
    sink: StoreSink,
    heartbeat: Heartbeat,
    /// The scan's id.
    pub id: ScanId,
    /// The store.
    pub db: PathBuf,
}

impl Kept {
    /// Begins a new scan with `plan` and `seeds` in `store`, its lease held by this process from
    /// the start, and starts its writer and heartbeat.
    ///
    /// Errors: the store's, naming it.
    pub fn begin(
        mut store: Box<dyn Store>,
        db: &Path,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
    ) -> Result<Kept, String> {
        let now = Timestamp::now();
        let lease = scan_lease::this_process(now);
        let id = store.begin_scan_with_lease(now, plan, seeds, &lease).map_err(|e| scan_error(db, &e))?;
        Kept::start(store, db, id, &lease)
    }

    /// Takes the lease of the existing scan `id` for this process (a resumed scan), before its
    /// units are read; [`Kept::start`] then keeps it. Until then, [`release`] gives it up.
    ///
    /// Errors: another process holds it (it is not run twice), naming that process and what to do;
    /// the store's.
    pub fn lease(store: &mut dyn Store, db: &Path, id: ScanId) -> Result<Lease, String> {
        let now = Timestamp::now();
        let lease = scan_lease::this_process(now);
        match store.acquire_lease(id, &lease, now, &scan_lease::holder_dead).map_err(|e| scan_error(db, &e))? {
            Acquired::Held => Ok(lease),
            Acquired::Refused(other) => Err(being_run(db, id, &other)),
        }
    }

    /// Starts the writer and the heartbeat of scan `id`, whose `lease` this process holds.
    ///
    /// Errors: the store cannot be opened a second time (for the heartbeat).
    pub fn start(store: Box<dyn Store>, db: &Path, id: ScanId, lease: &Lease) -> Result<Kept, String> {
        let heartbeat = Heartbeat::start(db, id, lease)?;
        Ok(Kept { sink: StoreSink::start(store, id), heartbeat, id, db: db.to_path_buf() })
    }

    /// Queues a record for the store.
    pub async fn send(&self, record: Record) {
        self.sink.send(record).await;
    }

    /// The lost-lease signal, taken once (see [`Heartbeat::lost`]).
    pub fn lost_lease(&mut self) -> Option<tokio::sync::oneshot::Receiver<String>> {
        self.heartbeat.lost.take()
    }

    /// Waits for every queued record to be written, then releases the lease.
    ///
    /// Errors: the first store error, naming the store.
    pub fn finish(self) -> Result<(), String> {
        let Kept { sink, heartbeat, db, id } = self;
        let written = sink.finish().map_err(|e| {
            format!(
                "{e}: the store {} lacks what came after (the JSON Lines output has it all); once the store can be \
                 written (disk space, permissions), `{}` redoes the units it did not record as done",
                db.display(),
                resume_command(&db, id)
            )
        });
        drop(heartbeat);
        written
    }
}

/// Gives up `lease` of scan `id` taken by [`Kept::lease`] when the scan does not start after all.
pub fn release(store: &mut dyn Store, id: ScanId, lease: &Lease) {
    let _ = store.release_lease(id, &lease.holder);
}

/// The message refusing to run scan `id`, which `other` holds.
fn being_run(db: &Path, id: ScanId, other: &Lease) -> String {
    format!(
        "scan {id} of {} is being run by another wellknown ({}): a scan is run by one process at a time; wait for \
         that one to finish, or stop it and run `{}` again",
        db.display(),
        scan_lease::describe(other),
        resume_command(db, id)
    )
}

/// Whether a live lease of another process holds `scan` at `now`.
fn held_elsewhere(leases: &[(ScanId, Lease)], scan: ScanId, now: Timestamp) -> Option<&Lease> {
    leases.iter().find(|(s, l)| *s == scan && l.live_at(now) && !scan_lease::holder_dead(l)).map(|(_, l)| l)
}

/// The scan `--resume` finishes: `wanted`, or by default the most recent unfinished scan that no
/// running process holds (whatever scans finished after it).
///
/// Errors: no such scan, a finished one, nothing to resume, or (for the default) every unfinished
/// scan held by a running process; each names the store and what to do.
pub fn scan_to_resume(store: &mut dyn Store, db: &Path, wanted: Option<ScanId>) -> Result<ScanRow, String> {
    let scans = store.scans().map_err(|e| scan_error(db, &e))?;
    if let Some(id) = wanted {
        let row = scans
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(|| format!("no scan {id} in {} (`wellknown scans` lists them)", db.display()))?;
        if let Some(at) = row.finished_at {
            return Err(format!("scan {id} of {} finished at {at:.0}: nothing to resume", db.display()));
        }
        return Ok(row);
    }
    let leases = store.leases().map_err(|e| scan_error(db, &e))?;
    let now = Timestamp::now();
    let unfinished: Vec<ScanRow> = scans.into_iter().rev().filter(|s| s.finished_at.is_none()).collect();
    let Some(newest) = unfinished.first() else {
        return Err(format!("nothing to resume: every scan in {} finished", db.display()));
    };
    if let Some(row) = unfinished.iter().find(|s| held_elsewhere(&leases, s.id, now).is_none()) {
        return Ok(row.clone());
    }
    Err(held_elsewhere(&leases, newest.id, now)
        .map_or_else(|| format!("nothing to resume in {}", db.display()), |l| being_run(db, newest.id, l)))
}

/// The line a new scan writes on standard error when the store holds unfinished scans that no
/// running process holds (killed or interrupted): which, and the command that finishes the most
/// recent. `None` when there is none.
///
/// Errors: the store's, naming it.
pub fn unfinished_note(store: &mut dyn Store, db: &Path) -> Result<Option<String>, String> {
    let scans = store.scans().map_err(|e| scan_error(db, &e))?;
    let leases = store.leases().map_err(|e| scan_error(db, &e))?;
    let now = Timestamp::now();
    let stranded: Vec<&ScanRow> =
        scans.iter().filter(|s| s.finished_at.is_none() && held_elsewhere(&leases, s.id, now).is_none()).collect();
    let Some(last) = stranded.last() else { return Ok(None) };
    let counts = wellknown_store::query::units::counts(store).map_err(|e| scan_error(db, &e))?;
    let c = counts.get(&last.id).copied().unwrap_or_default();
    let (done, pending) = (c.done, c.pending);
    let about = format!("started {:.0}, {done} unit(s) done, {pending} pending", last.started_at);
    let resume = resume_command(db, last.id);
    Ok(Some(match stranded.len() {
        1 => format!(
            "wellknown: note: scan {} of {} ({about}) is unfinished; `{resume}` finishes it",
            last.id,
            db.display()
        ),
        n => {
            let ids: Vec<String> = stranded.iter().map(|s| s.id.to_string()).collect();
            format!(
                "wellknown: note: {n} scans of {} are unfinished ({}); the most recent, scan {} ({about}), is finished by \
                 `{resume}` (`wellknown scans` lists them)",
                db.display(),
                ids.join(", "),
                last.id
            )
        }
    }))
}

/// Units done and pending (the ones still to scan) of a scan's units.
pub fn unit_counts(units: &[UnitRow]) -> (usize, usize) {
    let done = units.iter().filter(|u| u.state == UnitState::Done).count();
    let pending = units.iter().filter(|u| u.state == UnitState::Pending).count();
    (done, pending)
}

/// The lease of `scan` held by a running process, if any, as `scans` shows it.
pub fn running(leases: &[(ScanId, Lease)], scan: ScanId) -> Option<Lease> {
    held_elsewhere(leases, scan, Timestamp::now()).cloned()
}
