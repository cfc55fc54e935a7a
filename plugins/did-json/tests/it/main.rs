//! Integration tests of `wellknown_did_json`: one test binary for the crate (one link, not one per file).
//! Add a file here as a module.

mod docs;
mod no_panic;
mod parse;
