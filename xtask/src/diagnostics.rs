//! `cargo xtask diagnostics [--check]`: `docs/diagnostics.md`, the index of every diagnostic code,
//! generated from the code constants.
//!
//! Sources: `crates/core/src/diag.rs` (the shared codes), `crates/oauth-metadata/src/codes.rs` (the
//! codes of the metadata readers several probes share) and, for each `plugins/<dir>/src`, every
//! `pub const NAME: &str = "code";` in a file named `codes.rs` or inside a `pub mod codes…` block,
//! with its doc comment as the meaning. Codes built at run time from member names (the metadata
//! probes' `missing_<member>`, `invalid_<member>`) are described in a fixed section. Severity and
//! spec references stay on each probe's page (`docs/plugins/<id>.md`), which the index links to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::workspace_root;

/// Path of the generated page, relative to the workspace root.
pub const PAGE: &str = "docs/diagnostics.md";

/// The library crate of the metadata readers, a source of its own in the index.
pub const OAUTH_METADATA: &str = "crates/oauth-metadata";

/// Its codes file.
const OAUTH_METADATA_CODES: &str = "crates/oauth-metadata/src/codes.rs";

/// One code constant found in the sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// The code (`missing_contact`).
    pub code: String,
    /// Its doc comment, one line.
    pub meaning: String,
}

/// `cargo xtask diagnostics [--check]`: writes [`PAGE`], or with `--check` fails when it is out of date.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let root = workspace_root();
    let page = render(&collect(&root)?, |dir| root.join(format!("docs/plugins/{dir}.md")).exists());
    let path = root.join(PAGE);
    if args.iter().any(|a| a == "--check") {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        anyhow::ensure!(current == page, "{PAGE} is out of date: run `cargo xtask diagnostics`");
        eprintln!("xtask: {PAGE} is up to date");
    } else {
        std::fs::write(&path, page)?;
        eprintln!("xtask: wrote {PAGE}");
    }
    Ok(())
}

/// Code constants by source: `shared` (core) first, then each plugin directory name, sorted.
pub fn collect(root: &Path) -> anyhow::Result<BTreeMap<String, Vec<Code>>> {
    let mut out = BTreeMap::new();
    let diag = std::fs::read_to_string(root.join("crates/core/src/diag.rs")).context("reading core diag.rs")?;
    out.insert(String::new(), extract(&diag, false));
    let shared =
        std::fs::read_to_string(root.join(OAUTH_METADATA_CODES)).context("reading the oauth-metadata codes")?;
    out.insert(OAUTH_METADATA.to_string(), extract(&shared, true));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("plugins"))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut codes = Vec::new();
        let mut files = Vec::new();
        rs_files(&dir.join("src"), &mut files)?;
        files.sort();
        for f in files {
            let whole = f.file_name().is_some_and(|n| n == "codes.rs");
            for c in extract(&std::fs::read_to_string(&f)?, whole) {
                if !codes.iter().any(|x: &Code| x.code == c.code) {
                    codes.push(c);
                }
            }
        }
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        out.insert(name, codes);
    }
    Ok(out)
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for e in std::fs::read_dir(dir)?.flatten() {
        let p = e.path();
        if p.is_dir() {
            rs_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    Ok(())
}

/// The `pub const NAME: &str = "snake_code";` items of `src` with their doc comments: all of them
/// when `whole`, else only those inside `pub mod codes… {` blocks.
pub fn extract(src: &str, whole: bool) -> Vec<Code> {
    let mut out = Vec::new();
    let mut doc: Vec<String> = Vec::new();
    let mut block_indent: Option<usize> = None;
    for line in src.lines() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if t.starts_with("pub mod codes") && t.ends_with('{') {
            block_indent = Some(indent);
            doc.clear();
            continue;
        }
        if block_indent == Some(indent) && t.starts_with('}') {
            block_indent = None;
            continue;
        }
        if let Some(d) = t.strip_prefix("///") {
            doc.push(d.trim().to_string());
            continue;
        }
        if t.starts_with("#[") {
            continue;
        }
        if (whole || block_indent.is_some())
            && let Some(rest) = t.strip_prefix("pub const ")
            && let Some((_, value)) = rest.split_once(": &str = \"")
            && let Some(code) = value.strip_suffix("\";")
            && is_code(code)
        {
            out.push(Code { code: code.to_string(), meaning: doc.join(" ").replace('|', "\\|") });
        }
        doc.clear();
    }
    out
}

/// A diagnostic code: `snake_case` starting with a letter (a probe id such as `jwks` would also pass,
/// which is why only `codes` files and blocks are read).
fn is_code(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b.is_ascii_uppercase())
}

/// Renders the page; `has_page(dir)` says whether `docs/plugins/<dir>.md` exists (linked when so).
pub fn render(codes: &BTreeMap<String, Vec<Code>>, has_page: impl Fn(&str) -> bool) -> String {
    let mut s = String::from(
        "# Diagnostic codes\n\n\
         Every diagnostic a probe can emit, by crate. Codes are stable `snake_case` strings (the message is for \
         people and may change); each `diagnostic` record and each `wellknown parse` report carries one. \
         Severity (error or warning), locators and spec references are on each probe's page.\n\n\
         This page is generated by `cargo xtask diagnostics` from the code constants (`crates/core/src/diag.rs`, \
         `crates/oauth-metadata/src/codes.rs` and `plugins/*/src/**/codes.rs` or `pub mod codes` blocks, with their doc \
         comments). A test (`cargo test -p \
         xtask`) fails when a code constant is missing here: rerun the command after adding a code.\n\n",
    );
    for (source, list) in codes {
        if source.is_empty() {
            s.push_str("## Shared codes (`wellknown_core::diag::codes`)\n\nAny probe may emit these.\n\n");
        } else if source == OAUTH_METADATA {
            s.push_str(&format!(
                "## `{OAUTH_METADATA}`\n\nThe metadata and JWK Set readers (`wellknown_oauth_metadata::codes`), emitted by \
                 the probes built on them: `openid-configuration`, `oauth-authorization-server`, `jwks`. Details: \
                 [`docs/plugins/openid-configuration.md`](plugins/openid-configuration.md), \
                 [`docs/plugins/oauth-authorization-server.md`](plugins/oauth-authorization-server.md).\n\n"
            ));
        } else {
            s.push_str(&format!("## `plugins/{source}`\n\n"));
            if has_page(source) {
                s.push_str(&format!("Details: [`docs/plugins/{source}.md`](plugins/{source}.md).\n\n"));
            }
        }
        if list.is_empty() {
            s.push_str("No code constants of its own (see its page).\n\n");
            continue;
        }
        s.push_str("| code | meaning |\n| --- | --- |\n");
        for c in list {
            s.push_str(&format!("| `{}` | {} |\n", c.code, c.meaning));
        }
        s.push('\n');
    }
    s.push_str(
        "## Codes built from member names\n\n\
         The `openid-configuration` and `oauth-authorization-server` probes (through `crates/oauth-metadata`) also \
         build codes from \
         the metadata member concerned: `missing_<member>` (a REQUIRED member is absent: error; a RECOMMENDED \
         one: warning, e.g. `missing_userinfo_endpoint`) and `invalid_<member>` (a member of the wrong type or \
         not an absolute URL, e.g. `invalid_jwks_uri`). See \
         [`docs/plugins/openid-configuration.md`](plugins/openid-configuration.md) and \
         [`docs/plugins/oauth-authorization-server.md`](plugins/oauth-authorization-server.md).\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_codes_with_doc_comments() {
        let src = "pub const PROBE_ID: &str = \"x\";\n/// Before any block.\npub const A: &str = \"a_code\";\npub mod codes_md {\n    /// The issuer differs\n    /// from the URL | here.\n    pub const ISSUER: &str = \"issuer_mismatch\";\n    pub const URN: &str = \"urn:x\";\n}\npub const LATER: &str = \"later_code\";\n";
        assert_eq!(
            extract(src, false),
            vec![Code { code: "issuer_mismatch".into(), meaning: "The issuer differs from the URL \\| here.".into() }]
        );
        let all: Vec<String> = extract(src, true).into_iter().map(|c| c.code).collect();
        assert_eq!(all, ["x", "a_code", "issuer_mismatch", "later_code"]);
    }

    /// Every code constant of core and the plugins is listed in docs/diagnostics.md.
    #[test]
    fn every_code_constant_is_in_the_index() {
        let root = workspace_root();
        let page = std::fs::read_to_string(root.join(PAGE)).expect("docs/diagnostics.md exists");
        let codes = collect(&root).unwrap();
        assert!(codes.get("").is_some_and(|c| c.iter().any(|c| c.code == "invalid_content_type")));
        let mut missing = Vec::new();
        for (source, list) in &codes {
            for c in list {
                if !page.contains(&format!("`{}`", c.code)) {
                    missing.push(format!("{} ({})", c.code, if source.is_empty() { "core" } else { source }));
                }
            }
        }
        assert!(missing.is_empty(), "not in {PAGE} (run `cargo xtask diagnostics`): {missing:?}");
    }
}
