//! `wellknown-core`: the vocabulary every other crate speaks.
//!
//! * [`Origin`]: scheme + host + port, with RFC 9309 / Google scope rules.
//! * [`WellKnownProbe`]: what a plugin implements; [`registry`] collects them with `inventory`.
//! * [`FetchMeta`], [`FetchRequest`], [`FetchPolicy`]: what a probe asks of the engine's fetcher and
//!   what it gets back (the fetcher itself lives in `wellknown-http`).
//! * [`Report`], [`Diagnostic`], [`Candidate`], [`Evidence`]: what interpreting a document yields;
//!   a report keeps its candidates packed in [`Candidates`].
//! * [`wellknown`]: RFC 8615 URL construction.
//!
//! INVARIANT: this crate performs no network or file I/O and starts no runtime. Parsers that live in
//! plugins are pure functions `(bytes, &FetchMeta) -> Report` built from these types.

pub mod candidate;
pub mod candidates;
pub mod diag;
pub mod fetch;
pub mod iana;
pub mod json;
pub mod json_document;
pub mod json_dups;
pub mod media;
pub mod origin;
pub mod probe;
pub mod registry;
pub mod report;
pub mod scope;
pub mod wellknown;

pub use candidate::{Candidate, CandidateKind, Evidence};
pub use candidates::{CandidateBuilder, CandidateRef, Candidates};
pub use diag::{Diagnostic, Locator, Severity};
pub use fetch::{FailureClass, FetchFailure, FetchMeta, FetchPolicy, FetchRequest, FetchResult, Method, RedirectHop};
pub use origin::{Host, Origin, OriginError};
pub use probe::{Document, OriginOrder, ProbeContext, ProbeInfo, Target, WellKnownProbe, code_listed};
pub use registry::{ProbeRegistration, probe_by_id, probe_ids, probes};
pub use report::{FollowUp, Report};
pub use scope::{Scope, ScopeError, ScopeRule};

/// Re-exported so plugins name the same versions as core.
pub use {async_trait, inventory, jiff, serde_json, url};

/// Timestamps throughout the crate (UTC instant, RFC 3339 when serialised).
pub type Timestamp = jiff::Timestamp;
