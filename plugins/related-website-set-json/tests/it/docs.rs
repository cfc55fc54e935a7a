//! Every diagnostic code the probe can emit is documented in `docs/plugins/related-website-set-json.md`.

#[test]
fn every_code_is_documented() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/plugins/related-website-set-json.md");
    let doc = std::fs::read_to_string(&path).expect("the probe's documentation exists");
    for code in wellknown_related_website_set_json::codes::ALL {
        assert!(doc.contains(&format!("`{code}`")), "{code} is not documented in {}", path.display());
    }
}
