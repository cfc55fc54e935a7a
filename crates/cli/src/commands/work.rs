//! Shared scans on a PostgreSQL store: `wellknown scan --db postgres://… --workers-only` records a
//! scan and its units and returns ([`record`]); `wellknown work --db postgres://…` (any number, on
//! any machine) runs them ([`run`]).
//!
//! A worker runs `--concurrency` slots; each leases one whole group of units (one registrable domain,
//! `wellknown_store_postgres::work`) at a time, runs its units with the scan's stored plan and the
//! worker's own network settings, writes their records as a scan does (a unit's `done` with its last
//! records), releases the group, and asks again; a heartbeat thread keeps the leases alive. Units
//! that documents reveal are not run by the worker that found them: they go into the scan's units,
//! `pending`, within the plan's depth and scope as a single process would queue them, and any
//! worker leases them by their group. The worker stops once every unfinished scan of the store is
//! finished (nothing pending outside failed groups, no lease held); the last one finishes the scan
//! (its summary counts the units). SIGINT or SIGTERM stops the units in flight; their groups are
//! released, so other workers redo them.

use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use wellknown_core::{Origin, Timestamp};
use wellknown_engine::{Engine, RunPlan, ScanConfig, SystemClock};
use wellknown_records::{Record, Unit};
use wellknown_store::ingest::{seed_rows, writes_for};
use wellknown_store::{ScanId, ScanRow, Store, Write};
use wellknown_store_postgres::PostgresStore;
use wellknown_store_postgres::work::Leased;

use crate::args::ScanArgs;
use crate::commands::scan::Signals;
use crate::config::{self, Settings};
use crate::plan::StoredPlan;
use crate::store_open::{self, shown};
use crate::transport::HttpTransport;
use crate::{exit, output, scan_lease};

/// How long a worker's group leases hold without a heartbeat.
const TTL: Duration = scan_lease::TTL;

/// How often a worker looks for leases of dead processes of its host.
const EXPIRE_EVERY: Duration = Duration::from_secs(5);

/// How long a worker that ends waits for a lease still running on a blocking thread.
const OUTLIVED_FOR: Duration = Duration::from_secs(30);

/// Most groups one lease statement takes for slots asking at the same time.
const LEASE_TOGETHER: usize = 16;

/// Records per transaction at most (as the scan's writer).
const MAX_BATCH: usize = crate::store_sink::MAX_BATCH;

/// How long a batch of records waits, from its first record, for more before it is written: the
/// last batch of a group usually waits until the group is run and is written with the group's
/// release, in one transaction (`PostgresStore::write_and_release`).
const HOLD_BATCH: Duration = Duration::from_millis(200);

fn shared_store(db: &Path, what: &str) -> Result<PostgresStore, String> {
    if !store_open::is_url(db) {
        return Err(format!(
            "{what} needs a shared store: give --db postgres://USER@HOST/DATABASE (the store {} is a SQLite file, \
             which one process writes)",
            db.display()
        ));
    }
    PostgresStore::connect(db.to_str().unwrap_or_default()).map_err(|e| store_open::scan_error(db, &e))
}

/// `scan --workers-only`: records the scan (plan and seed units) for workers and returns, naming
/// the command that runs it.
///
/// Errors: no targets; a store that is not PostgreSQL or cannot be used.
pub fn record(targets: &[Origin], settings: &Settings, db: &Path) -> Result<i32, String> {
    if targets.is_empty() && settings.issuer.is_empty() {
        return Err("no targets: give origins, URLs or host names as arguments, `-` for stdin, or --list FILE".into());
    }
    let mut store = shared_store(db, "--workers-only")?;
    let stored = StoredPlan::new(targets, settings)?;
    let mut seeds: Vec<Unit> = targets.iter().cloned().map(Unit::origin).collect();
    for i in &stored.issuers {
        seeds.push(Unit::issuer(url::Url::parse(i).map_err(|e| format!("--issuer {i:?}: {e}"))?));
    }
    let plan = serde_json::to_value(&stored).map_err(|e| e.to_string())?;
    let id =
        store.begin_scan(Timestamp::now(), &plan, &seed_rows(&seeds)).map_err(|e| store_open::scan_error(db, &e))?;
    crate::note!(
        "wellknown: scan {id} recorded with {} unit(s) for workers: run `wellknown work --db {}` on any number of \
         machines; `wellknown scans --db {}` shows its progress",
        seeds.len(),
        shown(db),
        shown(db)
    );
    Ok(exit::FOUND)
}

/// What the writer thread is asked to do, in order.
enum Job {
    /// Records of a scan.
    Write(ScanId, Vec<Write>),
    /// The last records of leased groups and their release (one transaction); the result is sent
    /// back.
    Complete(ScanId, Vec<Write>, Vec<String>, std::sync::mpsc::Sender<Result<(), String>>),
}

/// The writer: one connection, writes and releases in the order asked.
fn writer(mut store: PostgresStore, holder: String, jobs: Receiver<Job>) -> Result<(), String> {
    for job in jobs {
        match job {
            Job::Write(scan, writes) => store.write(scan, &writes).map_err(|e| format!("store: {e}"))?,
            Job::Complete(scan, writes, groups, done) => {
                let _ = done
                    .send(store.write_and_release(scan, &writes, &groups, &holder).map_err(|e| format!("store: {e}")));
            }
        }
    }
    Ok(())
}

/// The groups this worker's slots hold (leased and not yet released), by scan: the heartbeat renews
/// these and no other lease of this holder.
type Held = Mutex<std::collections::HashSet<(ScanId, String)>>;

/// The heartbeat: renews the leases of the groups this worker holds (`held`) every
/// [`scan_lease::RENEW_EVERY`] until `stop`.
fn heartbeat(mut store: PostgresStore, holder: String, held: Arc<Held>, stop: Receiver<()>) {
    loop {
        match stop.recv_timeout(scan_lease::RENEW_EVERY) {
            Err(RecvTimeoutError::Timeout) => {
                let groups: Vec<String> = match held.lock() {
                    Ok(h) => h.iter().map(|(_, g)| g.clone()).collect(),
                    Err(_) => return,
                };
                // A failed renewal is tried again at the next beat.
                let _ = store.renew_groups(&holder, TTL, &groups);
            }
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// `wellknown work`: runs the units of the store's unfinished shared scans until none is left.
/// Returns the exit code (0 done, 130 interrupted).
///
/// Errors: arguments that name what to scan (the stored plan decides); a store that is not
/// PostgreSQL or fails.
pub fn run(args: &ScanArgs) -> Result<i32, String> {
    if !args.targets.is_empty() || args.list.is_some() || !args.issuer.is_empty() || args.resume.is_some() {
        return Err("work takes no targets, --list, --issuer or --resume: it runs the scans recorded in the store \
                    (`wellknown scan --db postgres://… --workers-only TARGETS` records one)"
            .into());
    }
    if args.workers_only {
        return Err("--workers-only is for `wellknown scan`".into());
    }
    let plan_flags = [
        ("--scope", !args.scope.is_empty()),
        ("--probes", !args.probes.is_empty()),
        ("--depth", args.depth.is_some()),
        ("--max-hops", args.max_hops.is_some()),
        ("--max-verify", args.max_verify.is_some()),
        ("--obey-robots", args.obey_robots),
        ("--all-registered", args.all_registered),
        ("--verify", args.verify),
        ("--no-verify", args.no_verify),
    ];
    if let Some((flag, _)) = plan_flags.iter().find(|(_, given)| *given) {
        return Err(format!(
            "work takes no {flag}: what to scan (scope, probes, depth, verification) is the stored plan of each scan, \
             set by the `wellknown scan --workers-only` that recorded it"
        ));
    }
    crate::alloc::tune_for_scan();
    let settings = config::load(args)?;
    config::validate(&settings, args)?;
    let db = settings.db.clone().unwrap_or_else(|| config::DEFAULT_DB.into());
    let store = shared_store(&db, "work")?;
    let holder = scan_lease::this_process(Timestamp::now()).holder;
    let out = output::open_output(settings.output.as_deref(), &config::source(args, "output"))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    {
        let mut signals = {
            let _runtime = rt.enter();
            Signals::install()?
        };
        rt.spawn(async move {
            let _ = signals.recv().await;
            let _ = stop_tx.send(true);
        });
    }
    let (beat_stop, beat_rx) = std::sync::mpsc::channel();
    let beat_store = shared_store(&db, "work")?;
    let beat_holder = holder.clone();
    let held: Arc<Held> = Arc::default();
    let beat_held = Arc::clone(&held);
    let beat = std::thread::spawn(move || heartbeat(beat_store, beat_holder, beat_held, beat_rx));
    let (jobs, job_rx) = std::sync::mpsc::sync_channel::<Job>(8);
    let write_store = shared_store(&db, "work")?;
    let write_holder = holder.clone();
    let write_thread = std::thread::spawn(move || writer(write_store, write_holder, job_rx));
    let ctx = Arc::new(Slots {
        settings: settings.clone(),
        jobs,
        db: db.clone(),
        holder,
        store: Mutex::new(store),
        out: Mutex::new(out),
        active: AtomicUsize::new(0),
        asking: AtomicUsize::new(0),
        aborting: std::sync::atomic::AtomicBool::new(false),
        ready: Mutex::new(std::collections::VecDeque::new()),
        held,
        expired_at: Mutex::new(None),
        unfinished: Mutex::new(None),
        setups: Mutex::new(std::collections::HashMap::new()),
        units: AtomicUsize::new(0),
        groups: AtomicUsize::new(0),
    });
    // One slot per `--concurrency`: each leases one group, runs it, releases it and asks again, so
    // a slow group holds one slot, never the others.
    let result = rt.block_on(async {
        let mut slots = tokio::task::JoinSet::new();
        for _ in 0..settings.concurrency.max(1) {
            slots.spawn(Arc::clone(&ctx).slot(stop_rx.clone()));
        }
        let mut end: Result<i32, String> = Ok(exit::FOUND);
        while let Some(joined) = slots.join_next().await {
            match joined {
                Ok(Ok(code)) if code == exit::INTERRUPTED => {
                    if end.is_ok() {
                        end = Ok(code);
                    }
                }
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    if end.is_ok() {
                        end = Err(e);
                    }
                    ctx.aborting.store(true, Ordering::SeqCst);
                    slots.abort_all();
                }
                Err(e) if e.is_cancelled() => {}
                Err(e) => {
                    if end.is_ok() {
                        end = Err(format!("a worker slot failed: {e}"));
                    }
                }
            }
        }
        end
    });
    let (units, groups) = (ctx.units.load(Ordering::Relaxed), ctx.groups.load(Ordering::Relaxed));
    // A lease still running when the slots were aborted ends on its blocking thread (holding the
    // context): waited for, so its groups are released and queued writes reach the store.
    let mut ctx = ctx;
    let waited = std::time::Instant::now();
    let ctx = loop {
        match Arc::try_unwrap(ctx) {
            Ok(c) => break c,
            Err(again) if waited.elapsed() < OUTLIVED_FOR => {
                ctx = again;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => return Err("a worker slot outlived the run".into()),
        }
    };
    ctx.release_unclaimed();
    let Slots { jobs, out, .. } = ctx;
    drop(jobs);
    let written = write_thread.join().map_err(|_| "store writer panicked".to_string())?;
    let _ = beat_stop.send(());
    let _ = beat.join();
    let _ = out.into_inner().map(|mut o| o.flush());
    written?;
    let code = result?;
    if !settings.quiet {
        if code == exit::INTERRUPTED {
            crate::note!(
                "wellknown work: interrupted; {units} unit(s) leased in {groups} group(s), the groups released \
                 (their unfinished units are pending again): `wellknown work --db {}` on this or any machine \
                 finishes the scan",
                shown(&db)
            );
        } else if groups == 0 {
            crate::note!("wellknown work: no unfinished shared scan had units to run in {}", shown(&db));
        } else {
            crate::note!("wellknown work: {units} unit(s) run in {groups} group(s) for {}", shown(&db));
        }
    }
    Ok(code)
}

/// What the slots of one worker share.
struct Slots {
    settings: Settings,
    jobs: SyncSender<Job>,
    db: std::path::PathBuf,
    holder: String,
    /// The connection that leases and finishes (one statement at a time).
    store: Mutex<PostgresStore>,
    out: Mutex<Box<dyn std::io::Write + Send>>,
    /// Slots leasing or running a group.
    active: AtomicUsize,
    /// Slots in [`Slots::lease_one`] (waiting for the lease connection or leasing).
    asking: AtomicUsize,
    /// The slots are being aborted (one failed): a lease that ends now goes to `ready`.
    aborting: std::sync::atomic::AtomicBool,
    /// Groups leased by one slot for the others that were asking at the same time.
    ready: Mutex<std::collections::VecDeque<(ScanRow, Leased)>>,
    /// The groups leased and not yet released (the heartbeat renews these).
    held: Arc<Held>,
    /// When dead local holders' leases were last ended.
    expired_at: Mutex<Option<std::time::Instant>>,
    /// The unfinished scans, and when they were read (a lease reads them again when it finds
    /// nothing in them, or when they are older than [`EXPIRE_EVERY`]).
    unfinished: Mutex<Option<(std::time::Instant, Vec<ScanRow>)>>,
    /// Each scan's engine configuration and transport, made at its first group ([`Slots::scan_setup`]).
    setups: Mutex<std::collections::HashMap<ScanId, (ScanConfig, Arc<HttpTransport>)>>,
    units: AtomicUsize,
    groups: AtomicUsize,
}

impl Slots {
    /// One slot: leases one group at a time until nothing is left anywhere (0) or `stop` (130).
    async fn slot(self: Arc<Self>, stop: tokio::sync::watch::Receiver<bool>) -> Result<i32, String> {
        loop {
            if *stop.borrow() {
                return Ok(exit::INTERRUPTED);
            }
            self.active.fetch_add(1, Ordering::SeqCst);
            let me = Arc::clone(&self);
            let got =
                tokio::task::spawn_blocking(move || me.lease_one()).await.map_err(|e| format!("leasing: {e}"))??;
            match got {
                Some((row, leased)) => {
                    self.groups.fetch_add(leased.groups.len(), Ordering::Relaxed);
                    self.units.fetch_add(leased.units.len(), Ordering::Relaxed);
                    let plan = plan(&leased)?;
                    let res = self.run_group(&row, leased, plan, stop.clone()).await;
                    self.active.fetch_sub(1, Ordering::SeqCst);
                    res?;
                }
                None => {
                    // Nothing to lease: when no slot of this worker is busy either, finish what can
                    // be finished and stop if nothing is left; else wait (another slot or worker
                    // may reveal more units, or die and leave its groups).
                    if self.active.fetch_sub(1, Ordering::SeqCst) == 1 {
                        let me = Arc::clone(&self);
                        let left = tokio::task::spawn_blocking(move || me.finish_all())
                            .await
                            .map_err(|e| format!("finishing: {e}"))??;
                        if !left {
                            return Ok(exit::FOUND);
                        }
                    } else if self.nothing_left_anywhere().await? {
                        return Ok(exit::FOUND);
                    }
                    let mut stop = stop.clone();
                    let _ = tokio::time::timeout(Duration::from_millis(500), stop.changed()).await;
                }
            }
        }
    }

    /// Whether every scan of the store is finished (another slot saw it and finished them).
    async fn nothing_left_anywhere(self: &Arc<Self>) -> Result<bool, String> {
        let me = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut store = me.store.lock().map_err(|_| "the lease connection is poisoned".to_string())?;
            let scans = store.scans().map_err(|e| store_open::scan_error(&me.db, &e))?;
            Ok(scans.iter().all(|s| s.finished_at.is_some()))
        })
        .await
        .map_err(|e| format!("reading scans: {e}"))?
    }

    /// Leases one group of any unfinished scan (after ending the leases of dead local holders).
    /// Slots asking at the same time lease together: the slot that gets the lease connection leases
    /// a group for each slot then asking (at most [`LEASE_TOGETHER`]), one statement, and leaves the
    /// others' groups in `ready`, where they take them.
    fn lease_one(&self) -> Result<Option<(ScanRow, Leased)>, String> {
        self.asking.fetch_add(1, Ordering::SeqCst);
        let (Ok(mut store), Ok(mut ready)) = (self.store.lock(), self.ready.lock()) else {
            self.asking.fetch_sub(1, Ordering::SeqCst);
            return Err("the lease connection is poisoned".into());
        };
        let mut got = self.lease_locked(&mut store, &mut ready);
        // The slot that asked is gone (the slots were aborted while this lease ran): its group
        // waits with the unclaimed ones, released as the worker ends.
        if self.aborting.load(Ordering::SeqCst)
            && let Ok(Some(leased)) = got
        {
            ready.push_back(leased);
            got = Ok(None);
        }
        // Counted out while the locks are held: the next slot to take them never counts this one
        // (and never leases a group for it).
        self.asking.fetch_sub(1, Ordering::SeqCst);
        got
    }

    /// [`Slots::lease_one`] with the lease connection and the ready groups locked.
    fn lease_locked(
        &self,
        store: &mut PostgresStore,
        ready: &mut std::collections::VecDeque<(ScanRow, Leased)>,
    ) -> Result<Option<(ScanRow, Leased)>, String> {
        if let Some(got) = ready.pop_front() {
            return Ok(Some(got));
        }
        let want = self.asking.load(Ordering::SeqCst).clamp(1, LEASE_TOGETHER);
        // Dead local holders are looked for at most every few seconds (it reads every scan's
        // progress), not at every lease of every slot.
        let due = self.expired_at.lock().map(|t| t.is_none_or(|t| t.elapsed() >= EXPIRE_EVERY)).unwrap_or(true);
        let mut step = || -> Result<Option<(ScanRow, Leased)>, wellknown_store::StoreError> {
            if due {
                expire_dead_holders(store, &self.holder)?;
                if let Ok(mut t) = self.expired_at.lock() {
                    *t = Some(std::time::Instant::now());
                }
            }
            // The unfinished scans read a moment ago are tried first; when none of them has a group
            // to lease, or they were read more than EXPIRE_EVERY ago, they are read again (a scan
            // recorded since). A lease does not read every scan's plan each time.
            let mut unfinished = self.unfinished.lock().map_err(|_| wellknown_store::StoreError::new("poisoned"))?;
            let mut reread = unfinished.as_ref().is_none_or(|(t, _)| t.elapsed() >= EXPIRE_EVERY);
            loop {
                if reread {
                    let rows: Vec<ScanRow> = store.scans()?.into_iter().filter(|s| s.finished_at.is_none()).collect();
                    // Finished scans' transports are dropped.
                    if let Ok(mut setups) = self.setups.lock() {
                        setups.retain(|id, _| rows.iter().any(|r| r.id == *id));
                    }
                    *unfinished = Some((std::time::Instant::now(), rows));
                }
                for row in unfinished.as_ref().map(|(_, rows)| rows.as_slice()).unwrap_or_default() {
                    let leased = store.lease_groups(row.id, &self.holder, TTL, want)?;
                    if let Ok(mut held) = self.held.lock() {
                        held.extend(leased.groups.iter().map(|g| (row.id, g.clone())));
                    }
                    let mut each = leased.split().into_iter();
                    if let Some(first) = each.next() {
                        ready.extend(each.map(|l| (row.clone(), l)));
                        return Ok(Some((row.clone(), first)));
                    }
                }
                if reread {
                    return Ok(None);
                }
                reread = true;
            }
        };
        step().map_err(|e| store_open::scan_error(&self.db, &e))
    }

    /// Finishes every unfinished scan with nothing left; true when some scan is still going.
    fn finish_all(&self) -> Result<bool, String> {
        let mut store = self.store.lock().map_err(|_| "the lease connection is poisoned".to_string())?;
        let mut left = false;
        let scans = store.scans().map_err(|e| store_open::scan_error(&self.db, &e))?;
        for s in scans.iter().filter(|s| s.finished_at.is_none()) {
            left |= !store.finish_if_complete(s.id).map_err(|e| store_open::scan_error(&self.db, &e))?;
        }
        Ok(left)
    }
}

/// Leases held by processes of this host that are gone (Linux: no `/proc/<pid>`) expire now, so
/// their groups are taken over at once rather than after their expiry. This worker's own leases
/// (`holder`: its other slots' groups) are never among them.
fn expire_dead_holders(store: &mut PostgresStore, holder: &str) -> Result<(), wellknown_store::StoreError> {
    let me = scan_lease::host_name();
    let mine = holder;
    for p in store.progress()? {
        for (holder, _) in &p.leased {
            if holder == mine {
                continue;
            }
            let Some((pid, rest)) = holder.split_once('@') else { continue };
            let host = rest.split('/').next().unwrap_or_default();
            let Ok(pid) = pid.parse::<u32>() else { continue };
            let lease = wellknown_store::Lease {
                holder: holder.clone(),
                pid,
                host: host.to_string(),
                acquired_at: Timestamp::UNIX_EPOCH,
                expires_at: Timestamp::UNIX_EPOCH,
            };
            if host == me && scan_lease::holder_dead(&lease) {
                store.expire_leases_of(holder)?;
            }
        }
    }
    Ok(())
}

/// What every round of one worker shares.
impl Slots {
    /// Runs the `leased` units of scan `row` with its stored plan; writes their records (a revealed
    /// unit within the plan's depth and in scope is stored `pending`, for any worker) and their
    /// JSON Lines (no summary: the scan's is written by whoever finishes it); then releases the
    /// groups, in the transaction of the last records.
    async fn run_group(
        &self,
        row: &ScanRow,
        leased: Leased,
        plan: RunPlan,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> Result<(), String> {
        let (config, transport) = self.scan_setup(row)?;
        let engine = Arc::new(Engine::new(transport, Arc::new(SystemClock), config)?);
        let (tx, mut rx) = mpsc::channel::<Record>(1024);
        let task = tokio::spawn(async move {
            engine
                .run_until(plan, tx, async move {
                    let _ = stop.wait_for(|s| *s).await;
                })
                .await
        });
        let mut batch: Vec<Write> = Vec::new();
        let mut n = 0;
        // When the batch is written if no more records end it first: HOLD_BATCH after its first
        // write. The last batch goes with the release.
        let mut due: Option<tokio::time::Instant> = None;
        loop {
            let next = match due {
                None => rx.recv().await,
                Some(at) => match tokio::time::timeout_at(at, rx.recv()).await {
                    Ok(next) => next,
                    Err(_) => {
                        self.send(Job::Write(row.id, std::mem::take(&mut batch)))?;
                        (n, due) = (0, None);
                        continue;
                    }
                },
            };
            let Some(rec) = next else { break };
            if matches!(rec, Record::Summary(_)) {
                continue;
            }
            batch.extend(writes_for(&rec));
            n += 1;
            if due.is_none() && !batch.is_empty() {
                due = Some(tokio::time::Instant::now() + HOLD_BATCH);
            }
            let line = serde_json::to_string(&rec).map_err(|e| format!("writing the output: {e}"))?;
            let res = match self.out.lock() {
                Ok(mut out) => out.write_all(line.as_bytes()).and_then(|()| out.write_all(b"\n")),
                Err(_) => return Err("the output is poisoned".into()),
            };
            if let Err(e) = res {
                return Err(format!("writing the output: {e}"));
            }
            if n >= MAX_BATCH {
                self.send(Job::Write(row.id, std::mem::take(&mut batch)))?;
                (n, due) = (0, None);
            }
        }
        let _ = task.await;
        if let Ok(mut out) = self.out.lock() {
            let _ = out.flush();
        }
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        self.send(Job::Complete(row.id, batch, leased.groups.clone(), done_tx))?;
        tokio::task::spawn_blocking(move || done_rx.recv().unwrap_or_else(|_| Err("store writer stopped".into())))
            .await
            .map_err(|e| format!("store writer: {e}"))??;
        self.forget(row.id, &leased.groups);
        Ok(())
    }

    /// `groups` of scan `scan` are released: no longer renewed.
    fn forget(&self, scan: ScanId, groups: &[String]) {
        if let Ok(mut held) = self.held.lock() {
            for g in groups {
                held.remove(&(scan, g.clone()));
            }
        }
    }

    /// Releases the groups leased for slots that stopped before taking them (an interrupted worker).
    fn release_unclaimed(&self) {
        let left: Vec<(ScanRow, Leased)> = self.ready.lock().map(|mut r| r.drain(..).collect()).unwrap_or_default();
        let Ok(mut store) = self.store.lock() else { return };
        for (row, l) in &left {
            if store.release_groups(row.id, &l.groups, &self.holder).is_ok() {
                self.forget(row.id, &l.groups);
            }
        }
    }

    /// The engine configuration of scan `row` (its stored plan) and the transport its groups share,
    /// made at its first group and kept: a fetcher (TLS roots, connection pool) for every group cost
    /// more than the group itself when units end at once.
    ///
    /// Errors: an unreadable stored plan; settings the transport refuses.
    fn scan_setup(&self, row: &ScanRow) -> Result<(ScanConfig, Arc<HttpTransport>), String> {
        let mut made = self.setups.lock().map_err(|_| "the scan setups are poisoned".to_string())?;
        if let Some((config, transport)) = made.get(&row.id) {
            return Ok((config.clone(), Arc::clone(transport)));
        }
        let stored: StoredPlan =
            serde_json::from_value(row.plan.clone()).map_err(|e| format!("scan {}: unreadable plan: {e}", row.id))?;
        let mut config = stored.config(&self.settings)?;
        // Revealed units are recorded, not run here: the ones the plan's depth and the revealed
        // budgets let in go to the shared table as `pending` (inventory action `queued`), and
        // whichever worker leases their group runs them.
        config.defer_revealed = true;
        let transport = Arc::new(HttpTransport::from_settings(&self.settings, &config.scope)?);
        made.insert(row.id, (config.clone(), Arc::clone(&transport)));
        Ok((config, transport))
    }

    /// Hands `job` to the writer thread (which may make it wait: the runtime is told).
    fn send(&self, job: Job) -> Result<(), String> {
        tokio::task::block_in_place(|| self.jobs.send(job))
            .map_err(|_| format!("the store writer for {} stopped", shown(&self.db)))
    }
}

/// The run plan of a group: its leased units as seeds, nothing else. The other units of the scan
/// are not read (that cost grew with the scan at every lease): a unit a seed reveals that the table
/// already holds is recorded again and its state only moves forward there (a done unit stays done,
/// a pending one pending), and it counts towards the revealer's budgets.
fn plan(leased: &Leased) -> Result<RunPlan, String> {
    let mut plan = RunPlan::default();
    for u in &leased.units {
        plan.seeds.push(Unit::from_label(u.kind, &u.value, u.depth, u.revealed_by.clone())?);
    }
    Ok(plan)
}
