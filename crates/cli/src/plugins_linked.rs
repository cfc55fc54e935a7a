//! Names every plugin crate in one place so the linker keeps their `inventory` registrations.
//!
//! A plugin crate nothing references is dropped by the linker and its probe silently disappears;
//! [`EXPECTED_PROBES`] is checked against the registry by a test, and so is every registered probe's
//! share of the probe contract that only the whole workspace can check (rule 7.3 and 12.1): each
//! code of its `codes::ALL` ([`wellknown_core::WellKnownProbe::codes`]) is on its documentation page,
//! and it has conformance cases under `tests/conformance/`.

use wellknown_core::WellKnownProbe;

/// One probe value of every plugin crate. Referencing them keeps each crate linked.
pub fn linked() -> [&'static dyn WellKnownProbe; 28] {
    [
        &wellknown_robots::RobotsProbe,
        &wellknown_sitemap::SitemapProbe,
        &wellknown_security_txt::SecurityTxtProbe,
        &wellknown_openid_configuration::OpenIdConfigurationProbe,
        &wellknown_oauth_authorization_server::OAuthAuthorizationServerProbe,
        &wellknown_oauth_authorization_server::JwksProbe,
        &wellknown_assetlinks::AssetLinksProbe,
        &wellknown_apple_app_site_association::AppleAppSiteAssociationProbe,
        &wellknown_change_password::ChangePasswordProbe,
        &wellknown_oauth_protected_resource::OauthProtectedResourceProbe,
        &wellknown_jwks_json::JwksJsonProbe,
        &wellknown_uma2_configuration::Uma2ConfigurationProbe,
        &wellknown_openid_federation::OpenidFederationProbe,
        &wellknown_agent_card_json::AgentCardJsonProbe,
        &wellknown_host_meta::HostMetaProbe,
        &wellknown_host_meta::HostMetaJsonProbe,
        &wellknown_nodeinfo::NodeinfoProbe,
        &wellknown_nodeinfo::NodeinfoDocumentProbe,
        &wellknown_trust_txt::TrustTxtProbe,
        &wellknown_did_json::DidJsonProbe,
        &wellknown_did_configuration_json::DidConfigurationJsonProbe,
        &wellknown_csaf::CsafProbe,
        &wellknown_mta_sts_txt::MtaStsTxtProbe,
        &wellknown_matrix::MatrixServerProbe,
        &wellknown_matrix::MatrixClientProbe,
        &wellknown_webauthn::WebauthnProbe,
        &wellknown_related_website_set_json::RelatedWebsiteSetJsonProbe,
        &wellknown_api_catalog::ApiCatalogProbe,
    ]
}

/// Forces each plugin crate to be linked (call once at start-up).
pub fn link_all() {
    for p in linked() {
        std::hint::black_box(p.id());
    }
}

/// Probe ids the binary must register, sorted.
pub const EXPECTED_PROBES: &[&str] = &[
    "agent-card.json",
    "api-catalog",
    "apple-app-site-association",
    "assetlinks",
    "change-password",
    "csaf",
    "did-configuration.json",
    "did.json",
    "host-meta",
    "host-meta.json",
    "jwks",
    "jwks.json",
    "matrix-client",
    "matrix-server",
    "mta-sts.txt",
    "nodeinfo",
    "nodeinfo-document",
    "oauth-authorization-server",
    "oauth-protected-resource",
    "openid-configuration",
    "openid-federation",
    "related-website-set.json",
    "robots",
    "security.txt",
    "sitemap",
    "trust.txt",
    "uma2-configuration",
    "webauthn",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_holds_exactly_the_expected_probes() {
        link_all();
        let ids: Vec<&str> = wellknown_core::probes().iter().map(|p| p.id()).collect();
        assert_eq!(ids, EXPECTED_PROBES);
    }

    /// What `cargo xtask registry` checks, without building the binary: every well-known suffix a
    /// probe claims is a `segment-nz` (RFC 8615 section 3) and not obsoleted in the IANA registry.
    #[test]
    fn claimed_suffixes_are_valid_and_not_obsoleted() {
        link_all();
        for p in wellknown_core::probes() {
            let Some(suffix) = p.suffix() else { continue };
            assert!(wellknown_core::wellknown::is_valid_suffix(suffix), "{}: `{suffix}` is malformed", p.id());
            let status = wellknown_core::iana::lookup(suffix).map(|e| e.status.clone());
            assert_ne!(
                status,
                Some(wellknown_core::iana::RegistryStatus::Obsoleted),
                "{}: `{suffix}` is obsoleted",
                p.id()
            );
        }
    }

    /// The workspace root (this crate is `crates/cli`).
    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    /// Contract rule 7.3: every code a registered probe declares is documented, backquoted, on its
    /// page `docs/plugins/<page>.md` (one test for every plugin; a code pattern such as
    /// `invalid_<member>` is written as such).
    #[test]
    fn every_probe_code_is_documented_on_its_page() {
        link_all();
        let mut missing = Vec::new();
        for p in wellknown_core::probes() {
            let info = p.info();
            assert!(!info.codes.is_empty(), "{}: no diagnostic codes declared", p.id());
            let path = root().join(info.page_path());
            let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}: {e}", p.id(), path.display()));
            for code in info.codes {
                if !page.contains(&format!("`{code}`")) {
                    missing.push(format!("{} ({})", code, info.page_path()));
                }
            }
        }
        assert!(missing.is_empty(), "codes not documented: {missing:?}");
    }

    /// Contract rule 12.1: every registered probe has conformance cases, either a directory
    /// `tests/conformance/<id>/` (robots, sitemap) or `tests/conformance/wellknown/*.meta.json`
    /// cases whose `doc` is its id. (Each plugin's own conformance test runs them.)
    #[test]
    fn every_probe_has_conformance_cases() {
        link_all();
        let wellknown = root().join("tests/conformance/wellknown");
        let mut docs = std::collections::BTreeMap::<String, usize>::new();
        for entry in std::fs::read_dir(&wellknown).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".meta.json") {
                let meta: serde_json::Value = serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
                *docs.entry(meta["doc"].as_str().unwrap_or_default().to_string()).or_default() += 1;
            }
        }
        let mut without = Vec::new();
        for p in wellknown_core::probes() {
            let dir = root().join("tests/conformance").join(p.id());
            let in_dir = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
            if in_dir == 0 && docs.get(p.id()).copied().unwrap_or(0) == 0 {
                without.push(p.id());
            }
        }
        assert!(without.is_empty(), "probes without conformance cases under tests/conformance: {without:?}");
    }
}
