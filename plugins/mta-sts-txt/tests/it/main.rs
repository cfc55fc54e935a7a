//! Integration tests of `wellknown_mta_sts_txt`: one test binary for the crate (one link, not one per file).

mod conformance;
mod no_panic;
mod parse;
