//! Integration tests of `wellknown-oauth-authorization-server`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod no_panic;
mod real_world;
