//! NodeInfo probes: `/.well-known/nodeinfo` (discovery) and the NodeInfo document it links to.
//!
//! Fediverse servers (Mastodon, Pleroma, Lemmy, Misskey, relays...) publish a discovery document at
//! `/.well-known/nodeinfo`: a JRD whose links name NodeInfo documents by schema version, often on
//! another host. The NodeInfo document says which software the server runs (name, version), the
//! federation protocols it speaks, its services, usage and whether registrations are open. Crawlers
//! and relays read both. Specification: the NodeInfo protocol and schemas 1.0-2.2
//! (<https://nodeinfo.diaspora.software/>).
//!
//! * [`interpret`]: the discovery document -> `url` candidates (one per link) and a follow-up to the
//!   highest schema version's document, for the probe `nodeinfo-document`.
//! * [`interpret_document`]: the NodeInfo document -> facts (software, protocols, ...) and the
//!   software's repository and homepage URLs.
//! * [`NodeinfoProbe`] (id `nodeinfo`) and [`NodeinfoDocumentProbe`] (id `nodeinfo-document`, follow-up
//!   only), registered with `inventory`.
//! * [`codes`] lists the diagnostic codes of both.
//!
//! See `docs/plugins/nodeinfo.md`.

pub mod codes;
mod discovery;
mod document;
mod json_doc;
mod probe;

pub use discovery::{FOLLOW_UP_ROLE, REL_NODEINFO, SCHEMA_PREFIX, VERSIONS, interpret};
pub use document::{PROTOCOLS, interpret_document};
pub use json_doc::MAX_BODY_BYTES;
pub use probe::{NodeinfoDocumentProbe, NodeinfoProbe};

/// The discovery probe's id.
pub const PROBE_ID: &str = "nodeinfo";

/// The NodeInfo document probe's id (follow-ups only).
pub const DOCUMENT_PROBE_ID: &str = "nodeinfo-document";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "nodeinfo";

inventory::submit! { wellknown_core::ProbeRegistration::new(&NodeinfoProbe) }
inventory::submit! { wellknown_core::ProbeRegistration::new(&NodeinfoDocumentProbe) }
