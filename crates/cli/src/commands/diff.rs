//! `wellknown diff [SCAN_A] [SCAN_B]`: what appeared, disappeared or changed between two scans.

use wellknown_store::analysis::diff;
use wellknown_store::{SqliteStore, Store};

use crate::args::DiffArgs;
use crate::config;
use crate::exit;

/// Prints one line per change (`text`: `+`, `-`, `~`; `jsonl`: one object). Exit 0 when something
/// changed, 1 when nothing did, 2 on error (no store, unknown scan, fewer than two scans).
pub fn run(args: &DiffArgs) -> Result<i32, String> {
    let path = config::store_path(&args.store)?;
    let mut store = SqliteStore::open_existing(&path).map_err(|e| e.to_string())?;
    let g = store.load().map_err(|e| e.to_string())?;
    let ids: Vec<i64> = g.scans.iter().map(|s| s.id).collect();
    let (a, b) = match (args.scan_a, args.scan_b) {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => (a, *ids.last().ok_or("the store has no scan")?),
        (None, _) => match ids.as_slice() {
            [.., a, b] => (*a, *b),
            _ => return Err(format!("diff needs two scans; {} holds {}", path.display(), ids.len())),
        },
    };
    let changes = diff(&g, a, b)?;
    for c in &changes {
        let line = match args.format.as_str() {
            "text" => c.text(),
            "jsonl" => serde_json::to_string(c).map_err(|e| e.to_string())?,
            other => return Err(format!("--format {other:?}: expected text or jsonl")),
        };
        super::print_line(&line)?;
    }
    Ok(if changes.is_empty() { exit::NOTHING } else { exit::FOUND })
}
