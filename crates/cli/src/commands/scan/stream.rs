//! A running scan: the engine's records written to the output (whole lines, flushed at each unit's
//! end and whenever none is waiting) and sent to the store, until the engine is done or something
//! stops it: SIGINT or SIGTERM (a second one stops at once), the store's lease taken by another
//! process, or the output's reader gone. Then the exit code.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::mpsc;
use wellknown_engine::{Engine, RunPlan};
use wellknown_records::Record;

use super::Signals;
use super::summary::{summary_line, unreachable_line};
use crate::config::Settings;
use crate::exit;
use crate::kept::Kept;
use crate::store_open::resume_command;

/// Runs `plan` on `engine` and streams its records to `writer` and (when kept) the store, the
/// progress line and the budget notes on standard error; returns the exit code ([`exit::FOUND`],
/// [`exit::NOTHING`], [`exit::ERROR`] when every target failed, [`exit::INTERRUPTED`]).
///
/// Errors: writing the output (a closed pipe is not one), the store writer, the lease lost to
/// another process, the scan task failing.
pub(super) async fn scan(
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
