//! `wellknown scan TARGET...`: the main job.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::mpsc;
use url::Url;
use wellknown_core::Origin;
use wellknown_engine::{Engine, Record, Revealed, RunPlan, SystemClock, Unit, UnitKind};
use wellknown_store::ingest::seed_rows;
use wellknown_store::{Store, UnitState};

use crate::args::ScanArgs;
use crate::config::{self, Settings};
use crate::exit;
use crate::kept::{self, Kept};
use crate::output::{self, FileKey};
use crate::plan::StoredPlan;
use crate::store_open::{self, resume_command};
use crate::transport::HttpTransport;

/// One target line as written, and where it was read: `None` for an argument, `FILE:LINE` for
/// `--list FILE`, `stdin:LINE` for `-` (lines counted from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct TargetLine {
    /// The line as written.
    pub text: String,
    /// `FILE:LINE` or `stdin:LINE`; `None` for a command-line argument.
    pub at: Option<String>,
}

impl TargetLine {
    fn argument(text: &str) -> TargetLine {
        TargetLine { text: text.to_string(), at: None }
    }
}

/// Target lines from arguments, `-` (standard input, read to its end) and `--list FILE`, in that
/// order, and the signal that interrupted the reading of standard input if one did: the lines read
/// until then are kept, and the other sources are still read (they cannot block).
///
/// Standard input is read on a thread of its own while `signals` are listened to, so a producer
/// that is slow or never closes its end (`subfinder ... | wellknown scan -`) cannot keep a signal
/// from being handled.
///
/// Errors: an unreadable standard input or list.
pub async fn read_targets(
    args: &ScanArgs,
    signals: &mut Signals,
) -> Result<(Vec<TargetLine>, Option<&'static str>), String> {
    let mut raw: Vec<TargetLine> = Vec::new();
    let mut interrupted = None;
    let mut stdin_lines = 0usize;
    for t in &args.targets {
        if t != "-" {
            raw.push(TargetLine::argument(t));
            continue;
        }
        if interrupted.is_some() {
            continue;
        }
        let (tx, mut rx) = mpsc::unbounded_channel::<Result<String, String>>();
        // Not joined: after a signal the thread may stay blocked on a read until the process exits.
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let line = line.map_err(|e| format!("reading targets from standard input: {e}"));
                let failed = line.is_err();
                if tx.send(line).is_err() || failed {
                    break;
                }
            }
        });
        loop {
            tokio::select! {
                line = rx.recv() => match line {
                    Some(line) => {
                        stdin_lines += 1;
                        raw.push(TargetLine { text: line?, at: Some(format!("stdin:{stdin_lines}")) });
                    }
                    None => break,
                },
                name = signals.recv() => {
                    interrupted = Some(name);
                    break;
                }
            }
        }
    }
    if let Some(path) = &args.list {
        let text = std::fs::read_to_string(path).map_err(|e| format!("reading --list {}: {e}", path.display()))?;
        raw.extend(
            text.lines()
                .enumerate()
                .map(|(i, l)| TargetLine { text: l.to_string(), at: Some(format!("{}:{}", path.display(), i + 1)) }),
        );
    }
    Ok((raw, interrupted))
}

/// The origins named by target lines (see [`read_targets`]); blank lines and `#` comments are
/// skipped.
///
/// Errors: a target that is neither an origin, URL nor host name, or whose scheme is not http(s),
/// quoted as written and preceded by where it was read (`hosts.txt:3: target "https://[::1": …`,
/// `stdin:2: …`; arguments have no prefix).
pub fn parse_targets(raw: &[TargetLine]) -> Result<Vec<Origin>, String> {
    let mut out = Vec::new();
    for line in raw {
        let t = line.text.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let at = line.at.as_deref().map(|a| format!("{a}: ")).unwrap_or_default();
        let origin = Origin::parse_target(t).map_err(|e| format!("{at}target {t:?}: {e}"))?;
        if !matches!(origin.scheme(), "http" | "https") {
            return Err(format!(
                "{at}target {t:?}: scheme {:?} is not scanned (the documents wellknown reads are served over http \
                 and https; give https://{} or the host alone)",
                origin.scheme(),
                origin.host().name()
            ));
        }
        out.push(origin);
    }
    Ok(out)
}

/// Runs a scan (or, with `--resume`, finishes the last unfinished one); returns the exit code
/// (0 found something, 1 found nothing, 2 error, 130 interrupted).
///
/// SIGINT and SIGTERM are caught from before the targets are read: a signal while `-` is still
/// reading standard input stops there, records the targets read so far as an unfinished scan
/// (nothing is requested; `--resume` scans them) and still writes the `summary` record
/// (`"interrupted": true`).
pub fn run(args: &ScanArgs) -> Result<i32, String> {
    let started = std::time::Instant::now();
    crate::alloc::tune_for_scan();
    let settings = config::load(args)?;
    config::validate(&settings, args)?;
    let db = settings.db.clone().unwrap_or_else(|| PathBuf::from(config::DEFAULT_DB));
    check_output_clash(&settings, args, &db)?;
    let mut writer = output::open_output(settings.output.as_deref(), &config::source(args, "output"))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    let mut signals = {
        let _runtime = rt.enter();
        Signals::install()?
    };
    let (stored, run_plan, store) = if let Some(wanted) = args.resume {
        resume(&settings, args, &db, wanted)?
    } else {
        let (raw, interrupted) = rt.block_on(read_targets(args, &mut signals))?;
        let targets = parse_targets(&raw)?;
        if args.workers_only && interrupted.is_none() {
            return crate::commands::work::record(&targets, &settings, &db);
        }
        if let Some(name) = interrupted {
            let kept = if targets.is_empty() && settings.issuer.is_empty() {
                None
            } else {
                fresh(targets.clone(), &settings, &db)?.2
            };
            return rt.block_on(interrupted_before_scan(name, &targets, kept, &mut writer, &settings, started));
        }
        fresh(targets, &settings, &db)?
    };
    let config = stored.config(&settings)?;
    let transport = HttpTransport::from_settings(&settings, &config.scope)?;
    let net_stats = transport.stats();
    let engine = Engine::new(Arc::new(transport), Arc::new(SystemClock), config)?;
    rt.block_on(scan(Arc::new(engine), run_plan, store, writer, (&settings, net_stats), signals))
}

/// A signal arrived while targets were still being read from standard input: nothing is
/// requested; the targets read so far are in the store as an unfinished scan (`kept`, when any
/// was read and the store is on), and the `summary` record (`"interrupted": true`, `units` 0) is
/// still written last. Returns [`exit::INTERRUPTED`].
///
/// Errors: the store writer failed.
async fn interrupted_before_scan(
    name: &str,
    targets: &[Origin],
    kept: Option<Kept>,
    writer: &mut Box<dyn Write + Send>,
    settings: &Settings,
    started: std::time::Instant,
) -> Result<i32, String> {
    let distinct: std::collections::HashSet<String> = targets.iter().map(Origin::ascii).collect();
    let summary = wellknown_engine::Summary {
        targets: distinct.len(),
        elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        interrupted: true,
        ..wellknown_engine::Summary::default()
    };
    let rec = Record::Summary(summary.clone());
    let resume = kept.as_ref().map(|k| resume_command(&k.db, k.id));
    if let Some(kept) = kept {
        kept.send(rec.clone()).await;
        tokio::task::spawn_blocking(move || kept.finish()).await.map_err(|e| format!("store writer: {e}"))??;
    }
    // A closed pipe loses only the summary; the exit code still tells the interruption.
    let _ = serde_json::to_writer(&mut *writer, &rec)
        .map_err(std::io::Error::from)
        .and_then(|()| writer.write_all(b"\n"))
        .and_then(|()| writer.flush());
    if !settings.quiet {
        crate::note!("{}", summary_line(&summary, &[]));
    }
    let what = match distinct.len() {
        0 => "no target had been read; nothing was scanned".to_string(),
        n => match &resume {
            Some(resume) => format!("{n} target(s) read, none scanned; `{resume}` scans them"),
            None => format!("{n} target(s) read, none scanned (no store: nothing to resume)"),
        },
    };
    crate::note!("wellknown: interrupted by {name} while reading targets from standard input: {what}");
    Ok(exit::INTERRUPTED)
}

/// Refuses an `--output` (flag, variable or file key) that is the store or any SQLite database
/// ([`output::refuse_database_output`], the rule every writer follows), or the same file as one the
/// scan reads: the `--list` file, a `ca_cert` file or the configuration file; and a standard output
/// that is the store file. Checked before anything is opened or truncated, so `-o wellknown.db` or
/// `--list l.txt -o l.txt` destroys nothing.
///
/// Errors: one line naming both settings and paths.
fn check_output_clash(settings: &Settings, args: &ScanArgs, db: &Path) -> Result<(), String> {
    let Some(out) = settings.output.as_deref().filter(|p| *p != Path::new("-")) else {
        return if settings.store { output::refuse_store_as_stdout(db) } else { Ok(()) };
    };
    let db_source = match config::source(args, "db") {
        s if s == "db" => format!("the store {}", db.display()),
        s if s.starts_with("--") => format!("{s} {}", db.display()),
        s => format!("{s} (the store) {}", db.display()),
    };
    let out_source = config::source(args, "output");
    let out_source = if out_source.starts_with("--") { out_source } else { format!("{out_source} (the output)") };
    output::refuse_database_output(&out_source, out, settings.store.then_some((db_source.as_str(), db)))?;
    let mut guarded: Vec<(String, PathBuf)> = Vec::new();
    if let Some(l) = &args.list {
        guarded.push((format!("--list {}", l.display()), l.clone()));
    }
    let ca_source = config::source(args, "ca_cert");
    for c in &settings.ca_cert {
        let src = if ca_source.starts_with("--") { ca_source.clone() } else { format!("{ca_source}:") };
        guarded.push((format!("{src} {}", c.display()), c.clone()));
    }
    if let Some(f) = config::config_file(args)? {
        guarded.push((format!("configuration file {}", f.display()), f));
    }
    let out_key = FileKey::of(out);
    for (what, path) in guarded {
        if out_key.same_as(&FileKey::of(&path)) {
            return Err(format!(
                "{out_source} {} is the same file as {what}: writing JSON Lines there would destroy it; give another \
                 output file (or `-` for standard output)",
                out.display()
            ));
        }
    }
    Ok(())
}

/// A new scan of `targets`, its plan stored with the scan.
fn fresh(targets: Vec<Origin>, settings: &Settings, db: &Path) -> Result<(StoredPlan, RunPlan, Option<Kept>), String> {
    if targets.is_empty() && settings.issuer.is_empty() {
        return Err("no targets: give origins, URLs or host names as arguments, `-` for stdin, or --list FILE".into());
    }
    let stored = StoredPlan::new(&targets, settings)?;
    for i in &settings.issuer {
        if let Ok((issuer, true)) = crate::plan::issuer_identifier(i) {
            // Like a target's, never sent, recorded or stored (the warning names the issuer without them).
            crate::note!(
                "wellknown: warning: --issuer {issuer}: the user name and password given in it are dropped (never \
                 sent, recorded or stored)"
            );
        }
    }
    let mut seeds: Vec<Unit> = targets.into_iter().map(Unit::origin).collect();
    for i in &stored.issuers {
        seeds.push(Unit::issuer(Url::parse(i).map_err(|e| format!("--issuer {i:?}: {e}"))?));
    }
    let kept = if settings.store {
        // Opened and checked before any request: a store that cannot be used costs no traffic.
        let mut store = store_open::for_scanning(db)?;
        if let Some(line) = kept::unfinished_note(&mut *store, db)? {
            crate::note!("{line}");
        }
        let plan = serde_json::to_value(&stored).map_err(|e| e.to_string())?;
        Some(Kept::begin(store, db, &plan, &seed_rows(&seeds))?)
    } else {
        None
    };
    Ok((stored, RunPlan { seeds, ..RunPlan::default() }, kept))
}

/// The plan settings (`scope`, `probes`, `issuer`, `depth`, `max_hops`, `max_verify`,
/// `obey_robots`, `all_registered`, `verify`) set by the configuration file or a `WELLKNOWN_*`
/// variable must not differ from the stored plan of the scan `--resume` finishes: the stored plan
/// wins, so a different value would be silently ignored. The flags are refused by clap; the same
/// values as stored (a configuration that always sets them) are accepted.
///
/// Errors: the first such setting, naming the file key or variable and the stored value.
fn check_plan_unchanged(stored: &StoredPlan, settings: &Settings, args: &ScanArgs) -> Result<(), String> {
    let targets: Vec<Origin> = stored.targets.iter().filter_map(|t| Origin::parse_target(t).ok()).collect();
    let wanted = StoredPlan::new(&targets, settings)?;
    let differs: [(&str, bool, String); 9] = [
        ("scope", wanted.scope != stored.scope, serde_json::json!(stored.scope).to_string()),
        ("probes", wanted.probes != stored.probes, serde_json::json!(stored.probes).to_string()),
        ("issuer", wanted.issuers != stored.issuers, serde_json::json!(stored.issuers).to_string()),
        ("depth", wanted.depth != stored.depth, serde_json::json!(stored.depth).to_string()),
        ("max_hops", wanted.max_hops != stored.max_hops, serde_json::json!(stored.max_hops).to_string()),
        ("max_verify", wanted.max_verify != stored.max_verify, serde_json::json!(stored.max_verify).to_string()),
        ("obey_robots", wanted.obey_robots != stored.obey_robots, serde_json::json!(stored.obey_robots).to_string()),
        (
            "all_registered",
            wanted.all_registered != stored.all_registered,
            serde_json::json!(stored.all_registered).to_string(),
        ),
        ("verify", wanted.verify != stored.verify, serde_json::json!(stored.verify).to_string()),
    ];
    for (key, differs, stored_value) in differs {
        if !differs {
            continue;
        }
        if let Some(source) = config::set_outside_flags(args, key) {
            return Err(format!(
                "{source} cannot be used with '--resume': the resumed scan keeps its stored plan ({key} = \
                 {stored_value}); remove the setting or give the stored value"
            ));
        }
    }
    Ok(())
}

/// `--resume [SCAN_ID]`: the scan `wanted`, or the most recent unfinished one no running process
/// holds ([`kept::scan_to_resume`]); its plan, its finished units skipped, the others redone. The
/// store is checked and the scan's lease taken (refused while another process runs it) before any
/// request.
fn resume(
    settings: &Settings,
    args: &ScanArgs,
    db: &Path,
    wanted: Option<i64>,
) -> Result<(StoredPlan, RunPlan, Option<Kept>), String> {
    if !settings.store {
        return Err("--resume needs the store (it cannot be combined with --no-store)".into());
    }
    if !store_open::is_url(db) && !db.is_file() {
        return Err(format!("nothing to resume: no store at {} (give --db PATH)", db.display()));
    }
    let mut store = store_open::for_scanning(db)?;
    let row = kept::scan_to_resume(&mut *store, db, wanted)?;
    let lease = Kept::lease(&mut *store, db, row.id)?;
    match resume_plan(&mut *store, &row, settings, args, db) {
        Ok((stored, plan)) => Ok((stored, plan, Some(Kept::start(store, db, row.id, &lease)?))),
        Err(e) => {
            kept::release(&mut *store, row.id, &lease);
            Err(e)
        }
    }
}

/// The stored plan of scan `row` (checked against the settings) and its run plan.
fn resume_plan(
    store: &mut dyn Store,
    row: &wellknown_store::ScanRow,
    settings: &Settings,
    args: &ScanArgs,
    db: &Path,
) -> Result<(StoredPlan, RunPlan), String> {
    let stored: StoredPlan =
        serde_json::from_value(row.plan.clone()).map_err(|e| format!("scan {}: unreadable plan: {e}", row.id))?;
    check_plan_unchanged(&stored, settings, args)?;
    let units = store.units(row.id).map_err(|e| store_open::scan_error(db, &e))?;
    let mut plan = RunPlan::default();
    for u in &units {
        let Some(kind) = UnitKind::parse(&u.kind) else { continue };
        if let Some(by) = &u.revealed_by {
            // Reported again if the unit that revealed it runs again (an interrupted unit's inventory).
            plan.revealed.push(Revealed { kind, value: u.value.clone(), revealed_by: by.clone() });
        }
        match u.state {
            UnitState::Done => plan.done.push((kind, u.value.clone())),
            UnitState::Pending => plan.seeds.push(Unit::from_label(kind, &u.value, u.depth, u.revealed_by.clone())?),
            // Recorded, not to be scanned; known so they are not reported again.
            UnitState::BeyondDepth | UnitState::OutOfScope | UnitState::OverBudget => {
                plan.done.push((kind, u.value.clone()))
            }
        }
    }
    if !settings.quiet {
        let (done, _) = kept::unit_counts(&units);
        crate::note!(
            "wellknown: resuming scan {} of {}: {done} unit(s) finished, {} to do",
            row.id,
            db.display(),
            plan.seeds.len()
        );
    }
    Ok((stored, plan))
}

async fn scan(
    engine: Arc<Engine>,
    plan: RunPlan,
    mut kept: Option<Kept>,
    mut writer: Box<dyn Write + Send>,
    (settings, net_stats): (&Settings, Arc<crate::progress::NetStats>),
    mut signals: Signals,
) -> Result<i32, String> {
    // The heartbeat says so if another process took the scan over (this one was presumed dead):
    // the scan stops as on a signal, so that one process runs it.
    let lost = kept.as_mut().and_then(Kept::lost_lease);
    let lost_lease = async move {
        if let Some(rx) = lost
            && let Ok(message) = rx.await
        {
            return message;
        }
        std::future::pending::<String>().await
    };
    tokio::pin!(lost_lease);
    let mut lease_lost: Option<String> = None;
    let resume = kept.as_ref().map(|k| resume_command(&k.db, k.id));
    let bar = crate::progress::start(engine.progress(), net_stats, settings.quiet);
    let (tx, mut rx) = mpsc::channel::<Record>(1024);
    // On SIGINT or SIGTERM the engine stops: units in flight are abandoned, and its summary
    // (`interrupted: true`) is still the last record written. The store keeps the scan unfinished.
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let stop_engine = async move {
        if stop_rx.await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let scan_task = tokio::spawn(async move { engine.run_until(plan, tx, stop_engine).await });
    let reader_gone = reader_gone(settings.output.as_deref().is_none_or(|p| p == Path::new("-")));
    tokio::pin!(reader_gone);
    let mut stop_tx = Some(stop_tx);
    let mut write_error = None;
    let mut interrupted = None;
    let mut forced = false;
    let mut budgets = crate::budget_notes::BudgetNotes::default();
    loop {
        let rec = tokio::select! {
            r = rx.recv() => match r { Some(r) => r, None => break },
            name = signals.recv() => {
                // The first signal stops the engine, whose last records (the summary) are still
                // written; a second one stops at once.
                let Some(tx) = stop_tx.take() else {
                    forced = true;
                    break;
                };
                // A scan that had already finished (its summary is on its way) is not interrupted.
                if tx.send(()).is_ok() {
                    interrupted = Some(name);
                }
                continue;
            }
            message = &mut lost_lease, if lease_lost.is_none() => {
                if let Some(tx) = stop_tx.take() {
                    let _ = tx.send(());
                }
                lease_lost = Some(message);
                continue;
            }
            () = &mut reader_gone => {
                // `| head -1` has exited while no record was due (units waiting on servers): stop
                // now rather than at the next write, as a failed write would.
                write_error = Some(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
                break;
            }
        };
        if let Record::Budget(b) = &rec {
            budgets.note(b, &bar, settings.quiet);
        }
        if let Some(kept) = &kept {
            kept.send(rec.clone()).await;
        }
        // Records are written whole; a closed pipe (`| head`) stops the scan. The output is flushed
        // at the end of each unit (its `origin` record): a killed scan leaves every finished unit's
        // records complete, and a reader of a pipe or a growing file sees units as they finish. It
        // is also flushed whenever no further record is waiting (a burst is one write), so a reader
        // sees records as they come and a closed pipe fails the next write, not the next unit's end.
        let flush = matches!(rec, Record::Origin(_)) || rx.is_empty();
        let res = serde_json::to_writer(&mut writer, &rec)
            .map_err(std::io::Error::from)
            .and_then(|()| writer.write_all(b"\n"))
            .and_then(|()| if flush { writer.flush() } else { Ok(()) });
        if let Err(e) = res {
            write_error = Some(e);
            break;
        }
    }
    bar.finish_and_clear();
    budgets.finish(settings.quiet);
    if interrupted.is_some() || write_error.is_some() || lease_lost.is_some() {
        // Stop fetching; what was received is flushed and stored, and the scan stays unfinished in
        // the store so `wellknown scan --resume` can complete it.
        if write_error.is_some() || forced {
            scan_task.abort();
        }
        let outcome = scan_task.await.ok();
        if let Some(kept) = kept {
            tokio::task::spawn_blocking(move || kept.finish()).await.map_err(|e| format!("store writer: {e}"))??;
        }
        let flushed = writer.flush();
        if let Some(message) = lease_lost {
            return Err(message);
        }
        if let Some(name) = interrupted {
            if let (Some(o), false) = (&outcome, settings.quiet) {
                crate::note!("{}", summary_line(&o.summary, &o.unreachable));
            }
            let next = match &resume {
                Some(resume) => format!("`{resume}` finishes the scan"),
                None => "no store (--no-store): nothing to resume; run the scan again to finish it".to_string(),
            };
            crate::note!("wellknown: interrupted by {name}; records written so far are complete; {next}");
            return Ok(exit::INTERRUPTED);
        }
        return match write_error.or(flushed.err()) {
            Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("writing output: {e}")),
            _ => Ok(exit::FOUND),
        };
    }
    let outcome = scan_task.await.map_err(|e| format!("scan task failed: {e}"))?;
    if let Some(kept) = kept {
        tokio::task::spawn_blocking(move || kept.finish()).await.map_err(|e| format!("store writer: {e}"))??;
    }
    if let Err(e) = writer.flush()
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(format!("writing output: {e}"));
    }
    let s = &outcome.summary;
    if !settings.quiet {
        crate::note!("{}", summary_line(s, &outcome.unreachable));
    }
    if s.targets > 0 && s.reachable == 0 {
        crate::note!("wellknown: every target failed:");
        for (origin, classes) in &outcome.unreachable {
            crate::note!("{}", unreachable_line(origin, classes));
        }
        return Ok(exit::ERROR);
    }
    Ok(if outcome.found_something() { exit::FOUND } else { exit::NOTHING })
}

/// Resolves once standard output (when `watch`) is a pipe whose reader has gone (`wellknown scan …
/// | head -1` after `head` exited), found without writing to it: Linux reports the write end of a
/// pipe without readers as an error condition (EPOLLERR). Never resolves otherwise: a file, a
/// terminal, a descriptor that cannot be watched, or another platform (there the next write fails
/// instead).
async fn reader_gone(watch: bool) {
    #[cfg(target_os = "linux")]
    if watch {
        use tokio::io::Interest;
        use tokio::io::unix::AsyncFd;
        // SAFETY: descriptor 1 stays open and names the same open file for the life of the process:
        // wellknown never closes or replaces (dup2) standard output. Registration is refused for a
        // regular file (EPERM), which has no reader to lose.
        let registered = unsafe { AsyncFd::register_with_interest(std::io::stdout(), Interest::ERROR) };
        if let Ok(fd) = registered {
            while let Ok(mut ready) = fd.ready(Interest::ERROR).await {
                if ready.ready().is_error() {
                    return;
                }
                ready.clear_ready();
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = watch;
    std::future::pending::<()>().await
}

/// One line of the "every target failed" list on standard error: the target and its failure
/// classes; a `private_address` refusal names the flag that lifts it.
pub fn unreachable_line(origin: &str, classes: &[String]) -> String {
    let mut line =
        format!("  {origin}: {}", if classes.is_empty() { "no response".to_string() } else { classes.join(", ") });
    if classes.iter().any(|c| c == "private_address") {
        line.push_str(" (a loopback, private or otherwise non-public address: refused without --allow-private)");
    }
    line
}

/// The summary printed on standard error at the end of a scan: targets (and why the unreachable
/// ones failed), documents (answered 2xx, recognised by their probe, failed to fetch, and of those
/// the ones not attempted because their origin was found unreachable; redirects not followed, out
/// of scope or into a refused private address, which are answers), candidates, diagnostics and
/// time.
pub fn summary_line(s: &wellknown_engine::Summary, unreachable: &[(String, Vec<String>)]) -> String {
    let mut classes: Vec<&str> = unreachable.iter().flat_map(|(_, c)| c.iter().map(String::as_str)).collect();
    classes.sort_unstable();
    classes.dedup();
    let failed = match (s.unreachable, classes.is_empty()) {
        (0, _) => String::new(),
        (n, true) => format!(", {n} unreachable"),
        (n, false) => format!(", {n} unreachable ({})", classes.join(", ")),
    };
    let by_class = if s.failures_by_class.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = s.failures_by_class.iter().map(|(c, n)| format!("{n} {c}")).collect();
        format!(" ({})", list.join(", "))
    };
    let skipped = match s.documents_not_attempted {
        0 => String::new(),
        n => format!(" ({n} not attempted: origin unreachable or too slow)"),
    };
    let catch_all = match s.documents_catch_all {
        0 => String::new(),
        n => format!(", {n} answered like a random path (catch_all)"),
    };
    let budgets = if s.budgets.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = s.budgets.iter().map(|(b, n)| format!("{b} {n}")).collect();
        format!("; budgets reached in {} unit(s), left undone: {}", s.units_over_budget, list.join(", "))
    };
    let redirected = match s.redirected_out_of_scope {
        0 => String::new(),
        n => format!(", {n} redirected out of scope"),
    };
    let private = match s.redirected_to_private {
        0 => String::new(),
        n => format!(", {n} redirected to a private address"),
    };
    let interrupted = if s.interrupted { " (interrupted)" } else { "" };
    format!(
        "wellknown{interrupted}: {} target(s): {} reachable{failed}; {} document(s): {} answered 2xx, {} recognised, {} \
         failed to fetch{by_class}{skipped}{redirected}{private}{catch_all}; {} candidate(s); diagnostics: {} error(s), \
         {} warning(s){budgets}; {} ms",
        s.targets,
        s.reachable,
        s.documents,
        s.documents_found,
        s.documents_recognised,
        s.fetch_failures,
        s.candidates,
        s.errors,
        s.warnings,
        s.elapsed_ms
    )
}

/// SIGINT (Ctrl-C) and SIGTERM, caught from [`Signals::install`] on: a signal that arrives before
/// anyone waits for it is kept and reported by the next [`Signals::recv`].
pub struct Signals {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
}

impl Signals {
    /// Installs the handlers (within a Tokio runtime): from here on the signals no longer end the
    /// process.
    ///
    /// Errors: a handler cannot be installed.
    pub fn install() -> Result<Signals, String> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let int = signal(SignalKind::interrupt()).map_err(|e| format!("installing the SIGINT handler: {e}"))?;
            let term = signal(SignalKind::terminate()).map_err(|e| format!("installing the SIGTERM handler: {e}"))?;
            Ok(Signals { int, term })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// Resolves with the signal's name on the next SIGINT or SIGTERM (cancel-safe: a `select!`
    /// branch loses no signal).
    pub async fn recv(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.int.recv() => "SIGINT",
                _ = self.term.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{summary_line, unreachable_line};

    #[test]
    fn a_private_address_refusal_names_allow_private() {
        assert_eq!(
            unreachable_line("https://127.0.0.1:42353", &["private_address".to_string()]),
            "  https://127.0.0.1:42353: private_address (a loopback, private or otherwise non-public address: \
             refused without --allow-private)"
        );
        assert_eq!(
            unreachable_line("https://a.example", &["connect_refused".to_string()]),
            "  https://a.example: connect_refused"
        );
        assert_eq!(unreachable_line("https://a.example", &[]), "  https://a.example: no response");
    }

    #[test]
    fn redirects_not_followed_are_named_apart_from_fetch_failures() {
        let s = wellknown_engine::Summary {
            targets: 1,
            reachable: 1,
            documents: 3,
            fetch_failures: 0,
            redirected_out_of_scope: 1,
            redirected_to_private: 2,
            elapsed_ms: 5,
            ..wellknown_engine::Summary::default()
        };
        assert_eq!(
            summary_line(&s, &[]),
            "wellknown: 1 target(s): 1 reachable; 3 document(s): 0 answered 2xx, 0 recognised, 0 failed to fetch, 1 \
             redirected out of scope, 2 redirected to a private address; 0 candidate(s); diagnostics: 0 error(s), 0 \
             warning(s); 5 ms"
        );
    }
}
