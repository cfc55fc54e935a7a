//! The `oauth-authorization-server` probe (RFC 8414) and the follow-up-only `jwks` probe (RFC 7517).

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};
use wellknown_oauth_metadata::{issuer_of_target, jwks, metadata_policy, rfc8414_metadata_url};

use crate::{PROBE_ID, SUFFIX, codes};

/// OAuth 2.0 Authorization Server Metadata (RFC 8414): runs on every origin (issuer = the origin) and
/// on issuers handed to it (`Target::Url` with role `issuer`), at the inserted location
/// `/.well-known/oauth-authorization-server` + issuer path.
#[derive(Debug, Clone, Copy, Default)]
pub struct OAuthAuthorizationServerProbe;

impl OAuthAuthorizationServerProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "OAuth 2.0 authorization server metadata: issuer, endpoints, supported grants and algorithms",
        spec: "RFC 8414",
        page: "oauth-authorization-server",
        codes: codes::ALL,
    };
}

impl WellKnownProbe for OAuthAuthorizationServerProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
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
            (Some(issuer), _) => vec![rfc8414_metadata_url(&issuer, SUFFIX)],
            (None, Target::Url { url, .. }) => vec![url.clone()],
            (None, Target::Origin { .. }) => Vec::new(),
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }
}

/// A JWK Set (RFC 7517) reached through a metadata document's `jwks_uri` (follow-up role
/// `jwks_uri`). Never run on origins: it has no suffix, so the default locations are the URL handed
/// to it and nothing for an origin.
#[derive(Debug, Clone, Copy, Default)]
pub struct JwksProbe;

impl JwksProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: jwks::PROBE_ID,
        suffix: None,
        summary: "JWK Set behind jwks_uri: public keys by RFC 7638 thumbprint, leaked private keys",
        spec: "RFC 7517",
        page: "oauth-authorization-server",
        codes: codes::JWKS,
    };
}

impl WellKnownProbe for JwksProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn runs_on_origin(&self) -> bool {
        false
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy { accept: Some("application/jwk-set+json, application/json".into()), ..FetchPolicy::default() }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        jwks::interpret(body, meta)
    }
}

/// The registered RFC 8414 probe.
pub static OAUTH_AUTHORIZATION_SERVER: OAuthAuthorizationServerProbe = OAuthAuthorizationServerProbe;
/// The registered JWK Set probe.
pub static JWKS: JwksProbe = JwksProbe;

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
        let keys = Url::parse("https://as.example/jwks.json").unwrap();
        let follow = Target::Url { url: keys.clone(), role: "jwks_uri".into(), declared_by: vec![] };
        assert_eq!(JwksProbe.locations(&follow), vec![keys]);
        assert!(!JwksProbe.runs_on_origin());
    }

    #[test]
    fn registered() {
        let ids: Vec<&str> = wellknown_core::probes().iter().map(|p| p.id()).collect();
        assert!(ids.contains(&"oauth-authorization-server"));
        assert!(ids.contains(&"jwks"));
    }
}
