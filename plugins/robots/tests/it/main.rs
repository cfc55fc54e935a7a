//! Integration tests of `wellknown-robots`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod agreement;
mod conformance;
mod fixtures;
mod no_panic;
mod probe;
