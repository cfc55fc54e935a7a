//! Integration tests of `wellknown-security-txt`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod conformance;
mod corpus;
mod no_panic;
mod parser;
mod probe;
mod verify;
