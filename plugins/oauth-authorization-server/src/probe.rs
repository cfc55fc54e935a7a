//! The `oauth-authorization-server` probe (RFC 8414) and the follow-up-only `jwks` probe (RFC 7517).

use async_trait::async_trait;
use url::Url;
use wellknown_core::{FetchMeta, FetchPolicy, ProbeRegistration, Report, Target, WellKnownProbe};

use crate::location::{RFC8414_SUFFIX, issuer_of_target, rfc8414_metadata_url};
use crate::{jwks, rfc8414};

/// The fetch policy of the metadata documents: default caps, redirects followed (each recorded),
/// `Accept: application/json`.
pub fn metadata_policy() -> FetchPolicy {
    FetchPolicy { accept: Some("application/json".into()), ..FetchPolicy::default() }
}

/// OAuth 2.0 Authorization Server Metadata (RFC 8414): runs on every origin (issuer = the origin) and
/// on issuers handed to it (`Target::Url` with role `issuer`), at the inserted location
/// `/.well-known/oauth-authorization-server` + issuer path.
#[derive(Debug, Clone, Copy, Default)]
pub struct OAuthAuthorizationServerProbe;

#[async_trait]
impl WellKnownProbe for OAuthAuthorizationServerProbe {
    fn id(&self) -> &'static str {
        rfc8414::PROBE_ID
    }

    fn suffix(&self) -> Option<&'static str> {
        Some(RFC8414_SUFFIX)
    }

    fn summary(&self) -> &'static str {
        "OAuth 2.0 authorization server metadata: issuer, endpoints, supported grants and algorithms"
    }

    fn spec(&self) -> &'static str {
        "RFC 8414"
    }

    /// An issuer's metadata (RFC 8414 section 3): also runs on issuer units.
    fn takes_issuer(&self) -> bool {
        true
    }

    fn policy(&self) -> FetchPolicy {
        metadata_policy()
    }

    /// The inserted construction for the target's issuer; for a URL target with another role, that URL.
    fn locations(&self, target: &Target) -> Vec<Url> {
        match (issuer_of_target(target), target) {
            (Some(issuer), _) => vec![rfc8414_metadata_url(&issuer, RFC8414_SUFFIX)],
            (None, Target::Url { url, .. }) => vec![url.clone()],
            (None, Target::Origin { .. }) => Vec::new(),
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        rfc8414::interpret(body, meta)
    }
}

/// A JWK Set (RFC 7517) reached through a metadata document's `jwks_uri` (follow-up role
/// `jwks_uri`). Never run on origins.
#[derive(Debug, Clone, Copy, Default)]
pub struct JwksProbe;

#[async_trait]
impl WellKnownProbe for JwksProbe {
    fn id(&self) -> &'static str {
        jwks::PROBE_ID
    }

    fn summary(&self) -> &'static str {
        "JWK Set behind jwks_uri: public keys by RFC 7638 thumbprint, leaked private keys"
    }

    fn spec(&self) -> &'static str {
        "RFC 7517"
    }

    fn runs_on_origin(&self) -> bool {
        false
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy { accept: Some("application/jwk-set+json, application/json".into()), ..FetchPolicy::default() }
    }

    /// The URL handed to it; nothing for an origin.
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Url { url, .. } => vec![url.clone()],
            Target::Origin { .. } => Vec::new(),
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        jwks::interpret(body, meta)
    }
}

/// The registered RFC 8414 probe.
pub static OAUTH_AUTHORIZATION_SERVER: OAuthAuthorizationServerProbe = OAuthAuthorizationServerProbe;
/// The registered JWK Set probe.
pub static JWKS: JwksProbe = JwksProbe;

inventory::submit! { ProbeRegistration::new(&OAUTH_AUTHORIZATION_SERVER) }
inventory::submit! { ProbeRegistration::new(&JWKS) }

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Origin;

    #[test]
    fn locations_per_target() {
        let p = OAuthAuthorizationServerProbe;
        let origin = Target::origin(Origin::parse_target("https://as.example").unwrap());
        assert_eq!(p.locations(&origin)[0].as_str(), "https://as.example/.well-known/oauth-authorization-server");
        let issuer = Target::Url {
            url: Url::parse("https://as.example/tenant/").unwrap(),
            role: "issuer".into(),
            declared_by: vec![],
        };
        assert_eq!(
            p.locations(&issuer)[0].as_str(),
            "https://as.example/.well-known/oauth-authorization-server/tenant"
        );
        assert!(JwksProbe.locations(&origin).is_empty());
        assert!(!JwksProbe.runs_on_origin());
    }

    #[test]
    fn registered() {
        let ids: Vec<&str> = wellknown_core::probes().iter().map(|p| p.id()).collect();
        assert!(ids.contains(&"oauth-authorization-server"));
        assert!(ids.contains(&"jwks"));
    }
}
