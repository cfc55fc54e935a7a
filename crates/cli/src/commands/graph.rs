//! `wellknown graph --format dot|graphml|jsonl|html`: the whole graph with its evidence.

use std::io::Write;

use wellknown_core::Timestamp;
use wellknown_store::export::{Format, write};

use crate::args::GraphArgs;
use crate::commands::graph_page as page;
use crate::exit;
use crate::{config, output, store_open};

/// Writes the graph. Exit 0 when it has nodes, 1 when it is empty.
pub fn run(args: &GraphArgs) -> Result<i32, String> {
    let html = args.format == "html";
    let format = Format::parse(&args.format)
        .or(html.then_some(Format::Jsonl))
        .ok_or_else(|| format!("--format {:?}: expected dot, graphml, jsonl or html", args.format))?;
    let path = config::store_path(&args.store)?;
    // Checked before the store is read and before the output is created: `-o wellknown.db` is
    // refused with the store intact.
    output::check(args.output.as_deref(), &args.store, &path)?;
    let g = store_open::for_reading(&path)?.load().map_err(|e| store_open::reading_error(&path, &e))?;
    let mut out = output::open_output(args.output.as_deref(), "--output")?;
    let res =
        if html { page::write(&g, Timestamp::now(), &mut out) } else { write(&g, format, Timestamp::now(), &mut out) }
            .and_then(|()| out.flush());
    match res {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::FOUND),
        Err(e) => return Err(format!("writing the graph: {e}")),
        Ok(()) => {}
    }
    Ok(if g.nodes.is_empty() { exit::NOTHING } else { exit::FOUND })
}
