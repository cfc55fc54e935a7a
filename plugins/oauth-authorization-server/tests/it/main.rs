//! Integration tests of `wellknown-oauth-authorization-server`: one test binary (one link) for the crate.

mod conformance;
mod no_panic;
mod real_world;
