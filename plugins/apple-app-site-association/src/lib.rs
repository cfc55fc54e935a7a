//! apple-app-site-association (AASA) probe: Apple associated domains.
//!
//! A site associates itself with iOS/macOS apps by publishing a JSON object at
//! `https://<host>/.well-known/apple-app-site-association` (or, for older systems, at the root
//! `https://<host>/apple-app-site-association`). Its services are `applinks` (universal links: which
//! URL paths an app handles), `webcredentials` (password autofill), `appclips` and
//! `activitycontinuation` (Handoff). Apps are named by App ID, `<TeamID>.<bundle ID>`.
//! Source: Apple's "Supporting associated domains" and "applinks" documentation, Technical Q&A
//! QA1916. The suffix is not registered in the IANA well-known URIs registry.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`AppleAppSiteAssociationProbe`] is the registered probe (id `apple-app-site-association`).
//! * [`codes`] lists the diagnostic codes; [`app_id`] and [`pattern`] the value rules.
//!
//! Candidates: apps (`app`, `apple:<TeamID.bundleID>`, relation = service), path patterns (`path`,
//! relation `applinks_path`, flagged `excluded` for `NOT ` / `exclude: true`), and for a pattern
//! without wildcard or substitution variable an absolute URL on the document's origin (`url`,
//! relation `aasa_path`) with its `host`. See `docs/plugins/apple-app-site-association.md`.

pub mod app_id;
pub mod codes;
mod parse;
pub mod pattern;
mod probe;

pub use parse::interpret;
pub use probe::AppleAppSiteAssociationProbe;

/// The probe id.
pub const PROBE_ID: &str = "apple-app-site-association";

/// The RFC 8615 well-known suffix (not in the IANA registry; Apple's convention).
pub const SUFFIX: &str = "apple-app-site-association";

/// The legacy location at the origin root, still read by older systems and validators.
pub const LEGACY_PATH: &str = "/apple-app-site-association";

/// The largest document Apple accepts: 128 KB uncompressed (iOS 9.3.1 and later).
pub const MAX_DOCUMENT_BYTES: usize = 128 * 1024;

/// Fetch cap: above [`MAX_DOCUMENT_BYTES`] so an oversized document is read whole and diagnosed
/// `too_large` rather than cut short.
pub const FETCH_CAP_BYTES: u64 = 192 * 1024;

inventory::submit! { wellknown_core::ProbeRegistration::new(&AppleAppSiteAssociationProbe) }
