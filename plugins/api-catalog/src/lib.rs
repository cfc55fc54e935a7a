//! API catalog (`/.well-known/api-catalog`) probe, RFC 9727.
//!
//! A publisher lists its public APIs at `/.well-known/api-catalog` as a Linkset (RFC 9264,
//! `application/linkset+json`): each API is an `item` link, and links of the API (as their context)
//! point to its machine-readable description (`service-desc`, an OpenAPI document say), its
//! documentation (`service-doc`), metadata (`service-meta`) and status (`status`); `api-catalog`
//! links point to other catalogs.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`ApiCatalogProbe`] is the registered probe (id `api-catalog`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/api-catalog.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{ANCHOR_RELATION, MAX_BODY_BYTES, OTHER_LINK_RELATION, interpret, relation_for};
pub use probe::ApiCatalogProbe;

/// The probe id.
pub const PROBE_ID: &str = "api-catalog";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "api-catalog";

inventory::submit! { wellknown_core::ProbeRegistration::new(&ApiCatalogProbe) }
