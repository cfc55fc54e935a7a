//! `/.well-known/host-meta` probe: host metadata as an XRD 1.0 document (RFC 6415).
//!
//! A host publishes links about itself at `/.well-known/host-meta`: most often a `lrdd` template
//! delegating WebFinger lookups (Mastodon and other fediverse servers), XMPP BOSH and WebSocket
//! endpoints (XEP-0156), or application-defined relations. Clients (WebFinger, XMPP, OOBI resolvers)
//! read it to find services. The JSON form, `host-meta.json` (RFC 6415 appendix A), is the
//! `wellknown-host-meta-json` crate, which shares this crate's [`link`] model.
//!
//! * [`interpret`] is the pure XRD parser: `(body, &FetchMeta) -> Report`.
//! * [`HostMetaProbe`] is the registered probe (id `host-meta`).
//! * [`link`] turns one `Link` (XRD or JRD) into candidates: `href` -> `url`, `template` -> `path`
//!   (a pattern, never fetched), other hosts -> `host`.
//! * [`codes`] lists the diagnostic codes of both forms.
//!
//! See `docs/plugins/host-meta.md`.

pub mod codes;
pub mod link;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, XRD_NS, interpret};
pub use probe::HostMetaProbe;

/// The probe id.
pub const PROBE_ID: &str = "host-meta";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "host-meta";

inventory::submit! { wellknown_core::ProbeRegistration::new(&HostMetaProbe) }
