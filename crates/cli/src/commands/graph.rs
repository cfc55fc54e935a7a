//! `wellknown graph --format dot|graphml|jsonl|html [--scan ID] [--kind K] [--in-scope]`: the graph
//! with its evidence, streamed out of the store.

use wellknown_core::{CandidateKind, Timestamp};
use wellknown_store::export::{ExportError, Exported, Format, write};
use wellknown_store::query::graph::GraphFilter;

use crate::args::GraphArgs;
use crate::commands::graph_page as page;
use crate::exit;
use crate::{config, output, store_open};

/// The filter the arguments ask for.
///
/// Errors: an unknown `--kind`.
fn filter(args: &GraphArgs) -> Result<GraphFilter, String> {
    if let Some(k) = &args.kind
        && CandidateKind::parse(k).is_none()
    {
        let all: Vec<&str> = CandidateKind::ALL.iter().map(|k| k.as_str()).collect();
        return Err(format!("--kind {k:?}: expected one of {}", all.join(", ")));
    }
    Ok(GraphFilter { scan: args.scan, kind: args.kind.clone(), in_scope_only: args.in_scope })
}

/// Writes the graph (the part the filters select: with one, the relations they admit and their two
/// ends). Exit 0 when it has nodes, 1 when it is empty, 2 on error (no store, unknown scan or
/// kind).
pub fn run(args: &GraphArgs) -> Result<i32, String> {
    let html = args.format == "html";
    let format = Format::parse(&args.format)
        .or(html.then_some(Format::Jsonl))
        .ok_or_else(|| format!("--format {:?}: expected dot, graphml, jsonl or html", args.format))?;
    let filter = filter(args)?;
    let path = config::store_path(&args.store)?;
    // Checked before the store is read and before the output is created: `-o wellknown.db` is
    // refused with the store intact.
    output::check(args.output.as_deref(), &args.store, &path)?;
    let mut store = store_open::for_reading(&path)?;
    if let Some(id) = filter.scan {
        let scans = store.scans().map_err(|e| store_open::reading_error(&path, &e))?;
        if !scans.iter().any(|s| s.id == id) {
            return Err(format!("--scan {id}: no scan {id} in the store (`wellknown scans` lists them)"));
        }
    }
    let mut out = output::open_output(args.output.as_deref(), "--output")?;
    let now = Timestamp::now();
    let res: Result<Exported, ExportError> = if html {
        page::write(&mut *store, &filter, now, &mut out)
    } else {
        write(&mut *store, &filter, format, now, &mut out)
    };
    let written = match res {
        Ok(w) => w,
        Err(ExportError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(exit::FOUND),
        Err(ExportError::Io(e)) => return Err(format!("writing the graph: {e}")),
        Err(ExportError::Store(e)) => return Err(store_open::reading_error(&path, &e)),
    };
    output::finish(&mut out)?;
    Ok(if written.nodes == 0 { exit::NOTHING } else { exit::FOUND })
}
