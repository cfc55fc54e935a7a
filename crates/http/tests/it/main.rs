//! Integration tests of `wellknown-http`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod common;
mod failures;
mod hostile;
mod no_panic;
mod politeness;
mod proxy;
mod redirects;
mod responses;
