//! The `openid-configuration` probe.

use async_trait::async_trait;
use url::Url;
use wellknown_core::probe::{ProbeInfo, fetch_and_interpret};
use wellknown_core::{Document, FetchMeta, FetchPolicy, ProbeContext, Report, Target, WellKnownProbe};
use wellknown_oauth_metadata::{issuer_of_target, metadata_policy, oidc_discovery_url, rfc8414_metadata_url};

use crate::{PROBE_ID, SUFFIX, codes};

/// Role of the second fetch, at the RFC 8414 inserted form, after the appended location failed.
pub const RFC8414_STYLE_ROLE: &str = "rfc8414_style_location";

/// OpenID Connect Discovery 1.0: runs on every origin (issuer = the origin) and on issuers handed to it
/// (`Target::Url` with role `issuer`: `--issuer`, or an issuer another document revealed). Fetches
/// the appended location `issuer + /.well-known/openid-configuration`; when that is not a 2xx, also
/// the RFC 8414 inserted form `/.well-known/openid-configuration + issuer path` (role
/// `rfc8414_style_location`; the report found there carries the `rfc8414_style_location` warning and
/// the fact `appended_status`).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenIdConfigurationProbe;

impl OpenIdConfigurationProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "OpenID Provider configuration: issuer, endpoints, keys, supported algorithms and scopes",
        spec: "OpenID Connect Discovery 1.0",
        page: "openid-configuration",
        codes: codes::ALL,
    };
}

#[async_trait]
impl WellKnownProbe for OpenIdConfigurationProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    /// An OpenID Provider's configuration (OpenID Connect Discovery 1.0 section 4): also runs on
    /// issuer units.
    fn takes_issuer(&self) -> bool {
        true
    }

    fn policy(&self) -> FetchPolicy {
        metadata_policy()
    }

    /// The appended location, then the inserted form when it differs (issuer with a path); for a URL
    /// target with a role other than `issuer`, that URL.
    fn locations(&self, target: &Target) -> Vec<Url> {
        match (issuer_of_target(target), target) {
            (Some(issuer), _) => {
                let appended = oidc_discovery_url(&issuer);
                let inserted = rfc8414_metadata_url(&issuer, SUFFIX);
                if inserted == appended { vec![appended] } else { vec![appended, inserted] }
            }
            (None, Target::Url { url, .. }) => vec![url.clone()],
            (None, Target::Origin { .. }) => Vec::new(),
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }

    async fn run(&self, target: &Target, cx: &dyn ProbeContext) -> Vec<Document> {
        let mut docs: Vec<Document> = Vec::new();
        for (i, url) in self.locations(target).into_iter().enumerate() {
            let role = if i == 0 { target.role().to_string() } else { RFC8414_STYLE_ROLE.to_string() };
            let mut doc = fetch_and_interpret(self, url, role, target.declared_by(), cx).await;
            let found = doc.meta.is_success() && doc.meta.failure.is_none();
            if let (Some(first), Some(report)) = (docs.first(), doc.report.as_mut()) {
                let status = first.meta.status.map(serde_json::Value::from).unwrap_or_else(|| {
                    first.meta.failure.as_ref().map(|f| f.class.as_str().into()).unwrap_or(serde_json::Value::Null)
                });
                report.fact("appended_status", status);
            }
            docs.push(doc);
            if found {
                break;
            }
        }
        docs
    }
}
