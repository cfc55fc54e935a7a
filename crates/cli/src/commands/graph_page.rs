//! `wellknown graph --format html`: the graph page (`wellknown-graph-page`, docs/graph-page.md) fed
//! with the JSON Lines export's records, one at a time; its caps said on standard error.

use std::io::{self, Write};

use wellknown_core::Timestamp;
use wellknown_graph_page::{Page, PageOptions};
use wellknown_store::Store;
use wellknown_store::export::{self, ExportError, Exported};
use wellknown_store::query::graph::GraphFilter;

/// Writes the page of the part of the graph `filter` selects, scored at instant `now` (the
/// export's confidence depends on age; the page says when it was made), from the records the store
/// streams, and says on standard error what the page drew and every cap that left something out.
///
/// Errors: the store's; the writer's; a record the page refuses (an export the page does not know)
/// as an I/O error of kind `Other`.
pub fn write(
    store: &mut dyn Store,
    filter: &GraphFilter,
    now: Timestamp,
    out: &mut dyn Write,
) -> Result<Exported, ExportError> {
    let options = PageOptions { generated_at: now.to_string(), ..PageOptions::default() };
    let mut page = Page::new(options.clone());
    let exported = export::records(store, filter, now, &mut |record| page.push(record).map_err(io::Error::other))?;
    let stats = page.finish(out).map_err(ExportError::Io)?;
    crate::note!(
        "wellknown: graph page: {} nodes and {} edges drawn for {} nodes and {} relations, {} bytes",
        stats.nodes_drawn,
        stats.edges_drawn,
        stats.nodes,
        stats.relations,
        stats.bytes
    );
    for line in stats.notes(&options) {
        crate::note!("wellknown: {line}");
    }
    Ok(exported)
}
