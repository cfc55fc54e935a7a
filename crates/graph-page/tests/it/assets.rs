//! The embedded assets: the vendored library as recorded, and the page's script rendering text only.

use wellknown_graph_page::CYTOSCAPE_VERSION;

const LIBRARY: &str = include_str!("../../assets/cytoscape.min.js");
const SCRIPT: &str = include_str!("../../assets/page.js");
const VENDORED: &str = include_str!("../../assets/VENDORED.md");

#[test]
fn the_vendored_library_is_the_recorded_version_and_can_sit_in_a_script_element() {
    assert!(LIBRARY.contains(&format!("\"{CYTOSCAPE_VERSION}\"")), "cytoscape.min.js is not {CYTOSCAPE_VERSION}");
    assert!(VENDORED.contains(&format!("| {CYTOSCAPE_VERSION} |")));
    assert!(VENDORED.contains(&format!("cytoscape-{CYTOSCAPE_VERSION}.tgz")));
    for s in [LIBRARY, SCRIPT] {
        let lower = s.to_ascii_lowercase();
        assert!(!lower.contains("</script") && !lower.contains("<!--") && !lower.contains("<script"));
    }
    assert!(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/LICENSE-cytoscape")).exists());
}

#[test]
fn the_page_script_never_writes_markup() {
    for banned in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
        assert!(!SCRIPT.contains(banned), "page.js uses {banned}");
    }
}
