//! Integration tests of `wellknown_did_configuration_json`: one test binary for the crate.

mod conformance;
mod no_panic;
