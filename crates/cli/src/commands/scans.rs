//! `wellknown scans [--format text|jsonl]`: the scans of the store, for `scan --resume SCAN_ID` and
//! `diff SCAN_A SCAN_B`.

use serde_json::json;

use crate::args::ScansArgs;
use crate::exit;
use crate::kept::running;
use crate::{config, output, store_open};

/// Lists every scan, oldest first: id, start, state (`finished` with its time, `unfinished`, or
/// `running` with the process that holds it), units done and pending, and targets (with the
/// issuers given). `jsonl`: `{"id","started_at","finished_at","state","running":{"pid","host",
/// "expires_at"}|null,"units":{"done","pending","total"},"targets","issuers"}`, and on a PostgreSQL
/// store `"shared":{"pending","leased":[{"by","units"}],"done","failed","recorded","done_last_minute"}`
/// (a line `workers: …` under each scan in text). Exit 0 when the
/// store holds a scan, 1 when it holds none.
pub fn run(args: &ScansArgs) -> Result<i32, String> {
    if !matches!(args.format.as_str(), "text" | "jsonl") {
        return Err(format!("--format {:?}: expected text or jsonl", args.format));
    }
    let path = config::store_path(&args.store)?;
    output::check(None, &args.store, &path)?;
    let mut store = store_open::for_reading(&path)?;
    let read = |e: wellknown_store::StoreError| store_open::reading_error(&path, &e);
    let scans = store.scans().map_err(read)?;
    let leases = store.leases().map_err(read)?;
    // A PostgreSQL store: where each scan's units stand among the workers (`wellknown work`).
    let shared = if store_open::is_url(&path) {
        let mut pg =
            wellknown_store_postgres::PostgresStore::connect(path.to_str().unwrap_or_default()).map_err(read)?;
        pg.set_read_only().map_err(read)?;
        pg.progress().map_err(read)?
    } else {
        Vec::new()
    };
    let mut out = output::open_output(None, "--output")?;
    if args.format == "text" && !scans.is_empty() {
        output::write_line(&mut out, "ID  STARTED               STATE                         DONE  PENDING  TARGETS")?;
    }
    // Counted in the database: the units themselves are not read.
    let counts = wellknown_store::query::units::counts(&mut *store).map_err(read)?;
    for s in &scans {
        let c = counts.get(&s.id).copied().unwrap_or_default();
        let (done, pending) = (c.done, c.pending);
        let holder = if s.finished_at.is_none() { running(&leases, s.id) } else { None };
        let state = match (&s.finished_at, &holder) {
            (Some(_), _) => "finished",
            (None, Some(_)) => "running",
            (None, None) => "unfinished",
        };
        let list = |key: &str| -> Vec<String> {
            s.plan[key]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                .unwrap_or_default()
        };
        let (targets, issuers) = (list("targets"), list("issuers"));
        let progress = shared.iter().find(|p| p.scan == s.id);
        let line = if args.format == "jsonl" {
            let shared = progress.map(|p| {
                json!({
                    "pending": p.pending,
                    "leased": p.leased.iter().map(|(by, n)| json!({"by": by, "units": n})).collect::<Vec<_>>(),
                    "done": p.done,
                    "failed": p.failed,
                    "recorded": p.recorded,
                    "done_last_minute": p.done_last_minute,
                })
            });
            json!({
                "shared": shared,
                "id": s.id,
                "started_at": s.started_at,
                "finished_at": s.finished_at,
                "state": state,
                "running": holder.as_ref().map(|l| json!({"pid": l.pid, "host": l.host, "expires_at": l.expires_at})),
                "units": {"done": done, "pending": pending, "total": c.total},
                "targets": targets,
                "issuers": issuers,
            })
            .to_string()
        } else {
            let state = match (&s.finished_at, &holder) {
                (Some(at), _) => format!("finished {at:.0}"),
                (None, Some(l)) => format!("running (pid {} on {})", l.pid, l.host),
                (None, None) => "unfinished".to_string(),
            };
            let mut named: Vec<String> = targets.iter().chain(&issuers).cloned().collect();
            let more = named.len().saturating_sub(3);
            named.truncate(3);
            let mut names = named.join(" ");
            if more > 0 {
                names.push_str(&format!(" (+{more})"));
            }
            let mut line = format!(
                "{:<3} {:<21} {:<29} {done:>4} {pending:>8}  {names}",
                s.id,
                format!("{:.0}", s.started_at),
                state
            );
            if let Some(p) = progress {
                line.push_str(&format!("\n    workers: {}", shared_line(p)));
            }
            line
        };
        output::write_line(&mut out, &line)?;
    }
    output::finish(&mut out)?;
    Ok(if scans.is_empty() { exit::NOTHING } else { exit::FOUND })
}

/// One scan among the workers, in words: `2 pending, 3 leased (2 by 812@a/…, 1 by 77@b/…), 9 done,
/// 0 failed; 4 done in the last minute`.
fn shared_line(p: &wellknown_store_postgres::work::Progress) -> String {
    let leased: i64 = p.leased.iter().map(|(_, n)| n).sum();
    let by = if p.leased.is_empty() {
        String::new()
    } else {
        let each: Vec<String> = p.leased.iter().map(|(h, n)| format!("{n} by {h}")).collect();
        format!(" ({})", each.join(", "))
    };
    format!(
        "{} pending, {leased} leased{by}, {} done, {} failed; {} done in the last minute",
        p.pending, p.done, p.failed, p.done_last_minute
    )
}
