//! Integration tests of `wellknown_related_website_set_json`: one test binary for the crate (one link,
//! not one per file).

mod conformance;
mod no_panic;
