//! Documentation kept in step with the code (tests only).

use crate::workspace_root;

/// The `pub <key>:` fields of `pub struct Settings` in `crates/cli/src/config.rs`.
fn settings_keys(src: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut inside = false;
    for line in src.lines() {
        let t = line.trim();
        if t.starts_with("pub struct Settings") {
            inside = true;
        } else if inside && t == "}" {
            break;
        } else if inside
            && let Some(rest) = t.strip_prefix("pub ")
            && let Some((key, _)) = rest.split_once(':')
        {
            keys.push(key.trim().to_string());
        }
    }
    keys
}

/// Every configuration key has a row in the user guide's key table.
#[test]
fn user_guide_documents_every_configuration_key() {
    let root = workspace_root();
    let config = std::fs::read_to_string(root.join("crates/cli/src/config.rs")).unwrap();
    let keys = settings_keys(&config);
    assert!(keys.len() >= 17 && keys.contains(&"per_host".to_string()), "{keys:?}");
    let guide = std::fs::read_to_string(root.join("docs/user-guide.md")).unwrap();
    let missing: Vec<&String> = keys.iter().filter(|k| !guide.contains(&format!("\n| `{k}` |"))).collect();
    assert!(missing.is_empty(), "configuration keys without a row in docs/user-guide.md: {missing:?}");
}

/// Every per-package benchmark file is linked from the index.
#[test]
fn benchmarks_index_links_every_package_file() {
    let root = workspace_root();
    let index = std::fs::read_to_string(root.join("docs/benchmarks.md")).unwrap();
    for e in std::fs::read_dir(root.join("docs/benchmarks")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(index.contains(&format!("benchmarks/{name}")), "docs/benchmarks.md does not link {name}");
    }
}
