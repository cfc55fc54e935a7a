//! host-meta probes (RFC 6415): `/.well-known/host-meta`, host metadata as an XRD 1.0 document, and
//! `/.well-known/host-meta.json`, the same metadata as a JSON Resource Descriptor (appendix A).
//!
//! A host publishes links about itself at `/.well-known/host-meta`: most often a `lrdd` template
//! delegating WebFinger lookups (Mastodon and other fediverse servers), XMPP BOSH and WebSocket
//! endpoints (XEP-0156), or application-defined relations. Clients (WebFinger, XMPP, OOBI resolvers)
//! read it to find services. The JSON form says the same in a JRD object; both forms share the
//! [`link`] model, so they say the same thing the same way.
//!
//! * [`interpret`] is the pure XRD parser and [`interpret_json`] the pure JRD parser:
//!   `(body, &FetchMeta) -> Report`.
//! * [`HostMetaProbe`] (id `host-meta`) and [`HostMetaJsonProbe`] (id `host-meta.json`) are the
//!   registered probes.
//! * [`link`] turns one `Link` (XRD or JRD) into candidates: `href` -> `url`, `template` -> `path`
//!   (a pattern, never fetched), other hosts -> `host`.
//! * [`codes`] lists the diagnostic codes of both forms.
//!
//! See `docs/plugins/host-meta.md` and `docs/plugins/host-meta-json.md`.

pub mod codes;
mod jrd;
pub mod link;
mod probe;
mod xrd;

pub use jrd::{MAX_JSON_BODY_BYTES, interpret_json};
pub use probe::{HostMetaJsonProbe, HostMetaProbe};
pub use xrd::{MAX_BODY_BYTES, XRD_NS, interpret};

/// The id of the `/.well-known/host-meta` (XRD) probe.
pub const PROBE_ID: &str = "host-meta";

/// The RFC 8615 well-known suffix of the XRD form.
pub const SUFFIX: &str = "host-meta";

/// The id of the `/.well-known/host-meta.json` (JRD) probe.
pub const JSON_PROBE_ID: &str = "host-meta.json";

/// The RFC 8615 well-known suffix of the JRD form.
pub const JSON_SUFFIX: &str = "host-meta.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&HostMetaProbe) }
inventory::submit! { wellknown_core::ProbeRegistration::new(&HostMetaJsonProbe) }
