//! Integration tests of `wellknown_agent_card_json`: one test binary for the crate (one link, not one per file).

mod conformance;
mod no_panic;
