//! `wellknown-engine`: runs a scan.
//!
//! A scan takes a frontier of origins, runs every selected [`WellKnownProbe`] once per origin, follows
//! the follow-ups the documents ask for (robots.txt sitemaps, child sitemaps, issuers, JWKS,
//! includes) up to a hop limit with a visited set keyed on (probe, URL), checks scope before every
//! request, and emits [`Record`]s as it goes.
//!
//! The engine is generic over a [`Transport`] (implemented by `wellknown-http`'s fetcher, and by
//! in-memory fakes in tests), so it holds no socket itself.
//!
//! INVARIANTS: every request goes through [`Transport::fetch`] with the scope predicate; an
//! out-of-scope URL is never handed to the transport; records are emitted in a per-origin order
//! (documents, then their diagnostics and candidates).
//!
//! [`WellKnownProbe`]: wellknown_core::WellKnownProbe

mod config;
mod context;
mod record;
pub mod registered;
mod scan;
mod transport;

pub use config::ScanConfig;
pub use record::{CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, OriginRecord, Record, Summary};
pub use scan::{Engine, ScanOutcome};
pub use transport::{Clock, SystemClock, Transport};
