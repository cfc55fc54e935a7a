//! Integration tests of `wellknown_matrix`: one test binary for the crate (one link, not one per file).

mod conformance;
mod no_panic;
