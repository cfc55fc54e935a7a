//! Integration tests of `wellknown-apple-app-site-association`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod conformance;
mod corpus;
mod edge_cases;
mod fixture_sites;
mod no_panic;
