//! Digital Asset Links (`/.well-known/assetlinks.json`) probe.
//!
//! A web site publishes a *statement list* (a JSON array of *statements*) at
//! `https://<host>/.well-known/assetlinks.json`; each statement grants a *relation*
//! (`delegate_permission/common.handle_all_urls`, `delegate_permission/common.get_login_creds`, ...) to
//! a *target* asset: an Android app (`android_app`: package name plus SHA-256 signing-certificate
//! fingerprints) or another web site (`web`), or *includes* another statement list by URL.
//! Source: Google's Digital Asset Links specification (`google/digitalassetlinks`,
//! `well-known/details.md`) and its compatibility test suite.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`AssetLinksProbe`] is the registered probe (id `assetlinks`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//! * [`syntax`] holds the field validators (relation strings, package names, fingerprints, sites).
//!
//! Candidates: apps (`app`, `android:<package>`, relation = the statement's relation string),
//! certificate fingerprints (`key`, `sha256:<FINGERPRINT>`), web sites (`origin`, relation
//! `asset_link`) and their hosts (`host`), include URLs (`url`, relation `include`) and their hosts.
//! See `docs/plugins/assetlinks.md`.

pub mod codes;
mod parse;
mod probe;
pub mod syntax;

pub use parse::{MAX_BODY_BYTES, interpret};
pub use probe::AssetLinksProbe;

/// The probe id.
pub const PROBE_ID: &str = "assetlinks";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "assetlinks.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&AssetLinksProbe) }
