//! Every diagnostic code the probe can emit is documented in `docs/plugins/apple-app-site-association.md`.

#[test]
fn every_code_is_documented() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/plugins/apple-app-site-association.md");
    let doc = std::fs::read_to_string(&path).expect("docs/plugins/apple-app-site-association.md exists");
    for code in wellknown_apple_app_site_association::codes::ALL {
        assert!(doc.contains(&format!("`{code}`")), "{code} is not documented in {}", path.display());
    }
}
