//! `wellknown-engine`: runs a scan.
//!
//! A scan takes a frontier of units (origins, and issuer identifiers), runs every selected
//! [`WellKnownProbe`] once per origin, follows the follow-ups the documents ask for (robots.txt
//! sitemaps, child sitemaps, issuers, JWKS, includes) up to a hop limit with a visited set keyed on
//! (probe, URL), checks scope before every request, verifies the candidate URLs in scope (HEAD, GET
//! on 405/501), feeds the hosts, origins and issuers documents reveal back into the frontier up to a
//! feedback depth (trying names that do not resolve as virtual hosts of the origin that revealed
//! them), and emits [`Record`]s as it goes. A redirect the scope forbids following is still a
//! relation the origin declares: its target becomes a `url` candidate ([`REDIRECT_RELATION`]).
//! An origin a unit found unreachable at the connection level (DNS, connect refused or timed out,
//! TLS refused) is not asked for its other documents by that unit: they are recorded with the same
//! failure and [`DocumentRecord::not_attempted`].
//!
//! The engine is generic over a [`Transport`] (implemented by `wellknown-http`'s fetcher, and by
//! in-memory fakes in tests), so it holds no socket itself.
//!
//! INVARIANTS: every request (documents and verification alike) goes through the scan context,
//! which checks scheme, scope and (`--obey-robots`) robots.txt before handing it to
//! [`Transport::fetch`] with the scope predicate; an out-of-scope URL is never handed to the
//! transport; a unit's `origin` record comes after every other record of that unit (documents,
//! diagnostics, candidates, inventory, verification), so a consumer that stores records in order
//! knows a unit is complete when it sees its `origin` record.
//!
//! The records and the units they name are `wellknown-records`' (the output contract): the engine
//! produces them, it does not define them.
//!
//! [`WellKnownProbe`]: wellknown_core::WellKnownProbe
//! [`Record`]: wellknown_records::Record
//! [`DocumentRecord::not_attempted`]: wellknown_records::DocumentRecord::not_attempted

mod budget;
mod calibrate;
mod compact;
mod config;
mod context;
mod emit;
mod engine;
mod feedback;
mod frontier;
mod progress;
mod reach;
pub mod registered;
pub mod robots;
mod schedule;
mod shared;
mod transport;
pub mod unit;
mod verifier;
pub mod verify;
mod vhost;

pub use budget::describe as describe_budget;
pub use config::ScanConfig;
pub use engine::{CATCH_ALL_CODE, CATCH_ALL_FLAG, Engine, PRIVATE_ADDRESS_FLAG, REDIRECT_RELATION, ScanOutcome};
pub use progress::{Progress, ProgressSnapshot};
pub use robots::{RobotsGate, RobotsRules};
pub use transport::{Clock, InScope, SystemClock, Transport};
pub use unit::{Revealed, RunPlan};
