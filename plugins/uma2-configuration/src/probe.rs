//! The registered probe: where `/.well-known/uma2-configuration` lives and how it is fetched.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};
use wellknown_oauth_metadata::location::issuer_of_target;

use crate::{PROBE_ID, SUFFIX};

/// The `uma2-configuration` probe (UMA 2.0 Grant section 2).
///
/// * Origin targets: `<origin>/.well-known/uma2-configuration` (issuer = the origin).
/// * Issuer targets (`Target::Url` with role `issuer`, `takes_issuer`): the issuer with
///   `/.well-known/uma2-configuration` appended (a trailing `/` of the issuer removed first):
///   Keycloak realm `https://kc.example/realms/r1` → `https://kc.example/realms/r1/.well-known/uma2-configuration`.
/// * Other URL targets: the URL itself.
///
/// Redirects followed (up to 5, every hop recorded); `Accept: application/json`; the default 1 MiB cap.
#[derive(Debug, Clone, Copy, Default)]
pub struct Uma2ConfigurationProbe;

/// The appended construction for `suffix`: `issuer` (trailing `/` removed) + `/.well-known/<suffix>`;
/// query, fragment and userinfo dropped.
pub fn appended_url(issuer: &Url, suffix: &str) -> Url {
    let mut u = issuer.clone();
    u.set_path(&format!("{}/.well-known/{suffix}", issuer.path().trim_end_matches('/')));
    u.set_query(None);
    u.set_fragment(None);
    let _ = u.set_username("");
    let _ = u.set_password(None);
    u
}

impl Uma2ConfigurationProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "UMA 2.0 authorization server metadata: RFC 8414 members plus permission, resource registration and claims endpoints",
        spec: "UMA 2.0 Grant for OAuth 2.0 Authorization",
        page: "uma2-configuration",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for Uma2ConfigurationProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    /// An issuer's UMA metadata: also runs on issuer units (Keycloak realms are path issuers).
    fn takes_issuer(&self) -> bool {
        true
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy { accept: Some("application/json".into()), ..FetchPolicy::default() }
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        match (issuer_of_target(target), target) {
            (Some(issuer), _) => vec![appended_url(&issuer, SUFFIX)],
            (None, Target::Url { url, .. }) => vec![url.clone()],
            (None, Target::Origin { .. }) => Vec::new(),
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Origin;

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = Uma2ConfigurationProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/uma2-configuration").unwrap()]);
        let issuer = Target::Url {
            url: Url::parse("https://kc.example/realms/r1/").unwrap(),
            role: "issuer".into(),
            declared_by: vec![],
        };
        assert_eq!(
            Uma2ConfigurationProbe.locations(&issuer)[0].as_str(),
            "https://kc.example/realms/r1/.well-known/uma2-configuration"
        );
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert!(p.takes_issuer());
    }
}
