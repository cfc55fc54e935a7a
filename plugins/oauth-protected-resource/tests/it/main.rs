//! Integration tests of `wellknown_oauth_protected_resource`: one test binary for the crate (one link, not one per file).

mod conformance;
mod no_panic;
mod real_world;
