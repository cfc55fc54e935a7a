//! Every diagnostic code the probe can emit is documented in `docs/plugins/api-catalog.md`.

#[test]
fn every_code_is_documented() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/plugins/api-catalog.md");
    let doc = std::fs::read_to_string(&path).expect("the probe's documentation exists");
    for code in wellknown_api_catalog::codes::ALL {
        assert!(doc.contains(&format!("`{code}`")), "{code} is not documented in {}", path.display());
    }
}
