//! Integration tests of `wellknown_nodeinfo`: one test binary for the crate (one link, not one per file).

mod conformance;
mod no_panic;
