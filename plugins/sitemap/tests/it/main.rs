//! Integration tests of `wellknown-sitemap`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod behaviour;
mod conformance;
mod fast_url;
mod fixtures;
mod no_panic;
mod streaming;
mod tokenizer;
