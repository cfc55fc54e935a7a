//! Integration tests of `wellknown-openid-configuration`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod conformance;
mod no_panic;
mod probe_run;
mod real_world;
