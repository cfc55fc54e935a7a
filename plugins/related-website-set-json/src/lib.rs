//! Related Website Sets (`/.well-known/related-website-set.json`) probe.
//!
//! Chrome's Related Website Sets group the sites (`https://` + registrable domain) of one
//! organisation: a *primary*, *associated* sites (at most five), *service* sites and ccTLD variants.
//! A set is submitted to the canonical list (`GoogleChrome/related-website-sets`); to prove control,
//! the primary serves the whole set at `/.well-known/related-website-set.json` and every other member
//! serves `{"primary": "<the primary>"}` there (the repository's `Well-Known-Specification.md`).
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`RelatedWebsiteSetJsonProbe`] is the registered probe (id `related-website-set.json`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/related-website-set-json.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{
    ASSOCIATED_RELATION, CCTLD_RELATION, MAX_ASSOCIATED_SITES, MAX_BODY_BYTES, PRIMARY_RELATION, SERVICE_RELATION,
    interpret,
};
pub use probe::RelatedWebsiteSetJsonProbe;

/// The probe id.
pub const PROBE_ID: &str = "related-website-set.json";

/// The RFC 8615 well-known suffix (the IANA registry lists it as deprecated: Chrome announced the
/// end of the feature in 2025; sites still publish it).
pub const SUFFIX: &str = "related-website-set.json";

inventory::submit! { wellknown_core::ProbeRegistration::new(&RelatedWebsiteSetJsonProbe) }
