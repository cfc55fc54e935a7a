//! Names every plugin crate in one place so the linker keeps their `inventory` registrations.
//!
//! A plugin crate nothing references is dropped by the linker and its probe silently disappears;
//! [`EXPECTED_PROBES`] is checked against the registry by a test.

use wellknown_core::WellKnownProbe;

/// One probe value of every plugin crate. Referencing them keeps each crate linked.
pub fn linked() -> [&'static dyn WellKnownProbe; 15] {
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
    "api-catalog",
    "apple-app-site-association",
    "assetlinks",
    "change-password",
    "jwks",
    "matrix-client",
    "matrix-server",
    "mta-sts.txt",
    "oauth-authorization-server",
    "openid-configuration",
    "related-website-set.json",
    "robots",
    "security.txt",
    "sitemap",
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
}
