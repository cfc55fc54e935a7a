//! `wellknown graph --format dot|graphml|jsonl`: the whole graph with its evidence.

use std::io::Write;

use wellknown_core::Timestamp;
use wellknown_store::export::{Format, write};
use wellknown_store::{SqliteStore, Store};

use crate::args::GraphArgs;
use crate::config;
use crate::exit;

/// Writes the graph. Exit 0 when it has nodes, 1 when it is empty.
pub fn run(args: &GraphArgs) -> Result<i32, String> {
    let format = Format::parse(&args.format)
        .ok_or_else(|| format!("--format {:?}: expected dot, graphml or jsonl", args.format))?;
    let path = config::store_path(&args.store)?;
    let g = SqliteStore::open_existing(&path).and_then(|mut s| s.load()).map_err(|e| e.to_string())?;
    let mut out = super::scan::open_output(args.output.as_deref(), "--output")?;
    let res = write(&g, format, Timestamp::now(), &mut out).and_then(|()| out.flush());
    match res {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::FOUND),
        Err(e) => return Err(format!("writing the graph: {e}")),
        Ok(()) => {}
    }
    Ok(if g.nodes.is_empty() { exit::NOTHING } else { exit::FOUND })
}
