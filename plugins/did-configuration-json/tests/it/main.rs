//! Integration tests of `wellknown_did_configuration_json`: one test binary for the crate.

mod conformance;
mod docs;
mod no_panic;
