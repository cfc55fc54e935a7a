//! `wellknown-oauth-metadata`: reading OAuth 2.0 / OpenID Connect metadata documents, shared by the
//! probes that read them (a library, not a plugin: it registers no probe).
//!
//! Users: `plugins/oauth-authorization-server` (RFC 8414 metadata, and the `jwks` follow-up probe)
//! and `plugins/openid-configuration` (OpenID Connect Discovery 1.0). Neither plugin depends on the
//! other; both build on this crate. Later metadata probes (RFC 9728 protected resource metadata,
//! UMA 2.0 `uma2-configuration`) are meant to do the same.
//!
//! * [`location`]: where metadata lives for an issuer: the appended construction (OIDC Discovery 1.0
//!   section 4) and the inserted one (RFC 8414 section 3.1, for any suffix), their inverse
//!   ([`location::expected_issuer_from`]) and the issuer of a probe's target.
//! * [`members`]: the metadata members (OIDC Discovery 1.0 section 3, RFC 8414 section 2 and the
//!   registered extensions) with their JSON types; a profile adds its own ([`MetadataProfile::extra_members`]).
//! * [`metadata`]: [`read_metadata`], the pure reader every metadata document shares: media type, JSON
//!   skeleton, issuer checks against the URL's construction, member types, https endpoints, `none`
//!   algorithms, candidates (issuer, endpoints, pages, other hosts) and follow-ups (`jwks_uri` to the
//!   [`jwks::PROBE_ID`] probe, a different issuer to the profile's probe). A probe adds its
//!   specification's REQUIRED / RECOMMENDED members with [`metadata::require`],
//!   [`metadata::recommend`] and [`metadata::string_array`].
//! * [`jwks`]: JWK Set reading (RFC 7517 section 5), RFC 7638 thumbprints as RFC 9278 URNs,
//!   private-key findings; [`x5c`]: the subject of an `x5c` certificate.
//! * [`codes`]: the diagnostic codes the readers emit ([`codes::JWKS`]: every code of a JWK Set).
//!
//! A new metadata probe declares a [`MetadataProfile`] (its probe id, suffix, native construction,
//! specification name, extra members), calls [`read_metadata`] in its `interpret`, then checks what
//! its specification requires on the returned object:
//!
//! ```
//! use wellknown_core::{FetchMeta, Timestamp};
//! use wellknown_oauth_metadata::{Construction, MetadataProfile, read_metadata};
//! use wellknown_oauth_metadata::members::MemberType;
//! use wellknown_oauth_metadata::metadata::require;
//!
//! const UMA: MetadataProfile = MetadataProfile {
//!     probe: "uma2-configuration",
//!     suffix: "uma2-configuration",
//!     native: Construction::Inserted,
//!     spec: "UMA 2.0 Grant",
//!     extra_members: &[("permission_endpoint", MemberType::Endpoint)],
//! };
//! let url = url::Url::parse("https://as.example/.well-known/uma2-configuration").unwrap();
//! let meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
//! let body = br#"{"issuer":"https://as.example","permission_endpoint":"http://as.example/perm"}"#;
//! let md = read_metadata(body, &meta, &UMA);
//! let mut report = md.report;
//! assert!(report.has_code("insecure_endpoint"));
//! if let Some(object) = &md.object {
//!     require(&mut report, object, "token_endpoint", "UMA 2.0 Grant section 2");
//! }
//! assert!(report.has_code("missing_token_endpoint"));
//! ```
//!
//! Everything here is pure (no I/O, no clock) and never panics on any input.

pub mod codes;
pub mod jwks;
pub mod location;
pub mod members;
pub mod metadata;
pub mod x5c;

pub use location::{
    Construction, OIDC_SUFFIX, RFC8414_SUFFIX, expected_issuer_from, issuer_of_target, oidc_discovery_url,
    rfc8414_metadata_url,
};
pub use metadata::{Metadata, MetadataProfile, metadata_policy, read_metadata};
