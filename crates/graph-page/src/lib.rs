//! `wellknown-graph-page`: `wellknown graph --format html`, one self-contained HTML page of the
//! graph.
//!
//! The page is built from the records of the JSON Lines export (`docs/output-schema.md`,
//! "`wellknown graph`"): `scan`, `node`, `relation` (with its `evidence`) and `vhost` objects, pushed
//! one at a time ([`Page::push`]), nodes before relations. The page keeps only what it draws and
//! aggregates as records arrive, so any source of those records (the store's export, a stream) feeds
//! it unchanged. [`Page::finish`] writes one HTML file holding the vendored graph library
//! (cytoscape.js, `assets/VENDORED.md`), the page's own script and style, and the data: nothing is
//! fetched when the page is opened (its Content-Security-Policy allows no connection at all).
//!
//! * Aggregation: the targets of one relation of one document, of one kind, beyond
//!   [`PageOptions::collapse_above`] are drawn as one node "N urls" whose values (at most
//!   [`PageOptions::values_per_group`] per node, [`PageOptions::values_total`] per page) the page lists
//!   and can expand ([`collect`]).
//! * Every cap is counted in [`PageStats`], stated on the page, and said by [`PageStats::notes`].
//! * Values from scanned documents are untrusted: the data is JSON inside
//!   `<script type="application/json">` with `<`, `>`, `&`, U+2028 and U+2029 escaped
//!   ([`embed::script_json`]), and the page's script renders them as text only.
//!
//! No dependency on the store: serde and serde_json alone.

pub mod collect;
pub mod embed;
mod html;

pub use collect::{Page, PageOptions, PageStats};
pub use html::CYTOSCAPE_VERSION;
