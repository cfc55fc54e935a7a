//! Integration tests of `wellknown_api_catalog`: one test binary for the crate (one link, not one per file).

mod conformance;
mod no_panic;
