//! Integration tests of `wellknown-change-password`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod conformance;
mod fixture_sites;
mod no_panic;
mod parse;
