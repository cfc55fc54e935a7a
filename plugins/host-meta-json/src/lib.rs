//! `/.well-known/host-meta.json` probe: host metadata as a JSON Resource Descriptor (RFC 6415
//! appendix A).
//!
//! The JSON twin of `/.well-known/host-meta`: the same links (WebFinger `lrdd` templates, XMPP BOSH
//! and WebSocket endpoints, application relations) as a JRD object. The link model, candidates and
//! link diagnostics are the `wellknown-host-meta` crate's, so both forms say the same thing the same
//! way.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`HostMetaJsonProbe`] is the registered probe (id `host-meta.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/host-meta-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, interpret};
pub use probe::HostMetaJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "host-meta.json";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "host-meta.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&HostMetaJsonProbe) }
