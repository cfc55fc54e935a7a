//! `wellknown diff [SCAN_A] [SCAN_B]`: what appeared, disappeared or changed between two scans.

use wellknown_store::analysis::diff;
use wellknown_store::{ScanRow, StoreError};

use crate::args::DiffArgs;
use crate::exit;
use crate::store_open::resume_command;
use crate::{config, output, store_open};

/// Prints one line per change (`text`: `+`, `-`, `~`; `jsonl`: one object). By default the two
/// most recent finished scans are compared (an unfinished scan, interrupted, killed or still
/// running, did not reach everything: what it missed would read as disappeared); an unfinished
/// scan named by id is compared as asked and marked as such on standard error. Exit 0 when
/// something changed, 1 when nothing did, 2 on error (no store, unknown scan, fewer than two
/// finished scans).
pub fn run(args: &DiffArgs) -> Result<i32, String> {
    if !matches!(args.format.as_str(), "text" | "jsonl") {
        return Err(format!("--format {:?}: expected text or jsonl", args.format));
    }
    let path = config::store_path(&args.store)?;
    output::check(args.output.as_deref(), &args.store, &path)?;
    let mut store = store_open::for_reading(&path)?;
    let scans = store.scans().map_err(|e| store_open::reading_error(&path, &e))?;
    let finished: Vec<i64> = scans.iter().filter(|s| s.finished_at.is_some()).map(|s| s.id).collect();
    let too_few = || {
        let unfinished = scans.len() - finished.len();
        format!(
            "diff needs two finished scans; {} holds {} finished and {unfinished} unfinished (give the ids to compare \
             unfinished ones; `wellknown scans` lists them)",
            path.display(),
            finished.len()
        )
    };
    let (a, b) = match (args.scan_a, args.scan_b) {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => match finished.last() {
            Some(&b) if b != a => (a, b),
            Some(_) => {
                return Err(format!(
                    "scan {a} is the most recent finished scan of {}: give the scan to compare it with",
                    path.display()
                ));
            }
            None => return Err(too_few()),
        },
        (None, _) => match finished.as_slice() {
            [.., a, b] => (*a, *b),
            _ => return Err(too_few()),
        },
    };
    for id in [a, b] {
        if !scans.iter().any(|s| s.id == id) {
            return Err(format!("no scan {id} in the store"));
        }
    }
    for id in [a, b] {
        if let Some(s) = scans.iter().find(|s| s.id == id && s.finished_at.is_none()) {
            crate::note!("{}", unfinished_mark(s, &path));
        }
    }
    let mut out = output::open_output(args.output.as_deref(), "--output")?;
    // The changes stream out of the database as they are printed.
    let mut found = 0usize;
    let mut output_failed: Option<String> = None;
    let res = diff(&mut *store, a, b, &mut |c| {
        found += 1;
        let line = if args.format == "jsonl" {
            serde_json::to_string(&c).map_err(|e| StoreError::new(e.to_string()))?
        } else {
            c.text()
        };
        output::write_line(&mut out, &line).map_err(|e| {
            output_failed = Some(e.clone());
            StoreError::new(e)
        })
    });
    if let Some(e) = output_failed {
        return Err(e);
    }
    res.map_err(|e| store_open::reading_error(&path, &e))?;
    output::finish(&mut out)?;
    Ok(if found == 0 { exit::NOTHING } else { exit::FOUND })
}

/// The line marking an unfinished scan in a diff.
fn unfinished_mark(s: &ScanRow, path: &std::path::Path) -> String {
    format!(
        "wellknown: note: scan {} (started {:.0}) is unfinished (interrupted, killed or still running): what it did not \
         reach shows as disappeared or not fetched; `{}` finishes it",
        s.id,
        s.started_at,
        resume_command(path, s.id)
    )
}
