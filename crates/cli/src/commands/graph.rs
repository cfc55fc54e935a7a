//! `wellknown graph --format dot|graphml|jsonl`: the whole graph with its evidence.

use std::io::Write;

use wellknown_core::Timestamp;
use wellknown_store::export::{Format, write};

use crate::args::GraphArgs;
use crate::exit;
use crate::{config, output, store_open};

/// Writes the graph. Exit 0 when it has nodes, 1 when it is empty.
pub fn run(args: &GraphArgs) -> Result<i32, String> {
    let format = Format::parse(&args.format)
        .ok_or_else(|| format!("--format {:?}: expected dot, graphml or jsonl", args.format))?;
    let path = config::store_path(&args.store)?;
    // Checked before the store is read and before the output is created: `-o wellknown.db` is
    // refused with the store intact.
    output::check(args.output.as_deref(), &args.store, &path)?;
    let g = store_open::for_reading(&path)?.load().map_err(|e| store_open::reading_error(&path, &e))?;
    let mut out = output::open_output(args.output.as_deref(), "--output")?;
    let res = write(&g, format, Timestamp::now(), &mut out).and_then(|()| out.flush());
    match res {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::FOUND),
        Err(e) => return Err(format!("writing the graph: {e}")),
        Ok(()) => {}
    }
    Ok(if g.nodes.is_empty() { exit::NOTHING } else { exit::FOUND })
}
