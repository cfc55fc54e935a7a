//! `cargo xtask new-plugin <suffix>`: scaffolds a probe crate for an RFC 8615 well-known suffix and
//! wires it into the workspace (see `docs/plugin-guide.md`).
//!
//! Writes `plugins/<dir>/` in the layout every plugin has ([`PLUGIN_LAYOUT`]): Cargo.toml;
//! `src/{lib,probe,parse,codes}.rs` with the probe's `const ProbeInfo`, registered by
//! `inventory::submit!` in `lib.rs`, and a pure line-based `interpret` to replace; `tests/it/main.rs`
//! with `parse.rs` on a fixture in `tests/data/`, `conformance.rs` on a case it writes under
//! `tests/conformance/wellknown/`, and `no_panic.rs` (the shared report invariants); and
//! `docs/plugins/<dir>.md`. Then it edits, with `toml_edit` (comments and layout kept), the root
//! `Cargo.toml` (`members`, `[workspace.dependencies]`) and `crates/cli/Cargo.toml`, and
//! `crates/cli/src/plugins_linked.rs` (the `linked()` array and `EXPECTED_PROBES`).
//!
//! Refuses a suffix that is not a `segment-nz` (RFC 3986 section 3.3, required by RFC 8615 section
//! 3), one the registry lists as obsoleted (unless `--force`), and an existing crate; warns when the
//! suffix is not in the IANA registry snapshot.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use toml_edit::{Array, DocumentMut, InlineTable, Item, Key, Table, Value};

use crate::iana;

/// The files every plugin crate has, relative to `plugins/<dir>/` (the scaffold writes them; a test
/// checks every plugin keeps them): the crate root with the `inventory` registration, the probe, its
/// codes, and one integration test binary with the no-panic property test. Each plugin also has its
/// parser (`src/parse.rs`, or model and parser files of its own names).
pub const PLUGIN_LAYOUT: &[&str] =
    &["Cargo.toml", "src/lib.rs", "src/probe.rs", "src/codes.rs", "tests/it/main.rs", "tests/it/no_panic.rs"];

/// Every name derived from a suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// The well-known suffix as given (`change-password`).
    pub suffix: String,
    /// Directory under `plugins/` (`change-password`; `security.txt` gives `security-txt`).
    pub dir: String,
    /// Cargo package (`wellknown-change-password`).
    pub package: String,
    /// Rust crate name (`wellknown_change_password`).
    pub krate: String,
    /// Probe id: the suffix when it is made of `[a-z0-9._-]`, else `dir`.
    pub id: String,
    /// Type name prefix (`ChangePassword`, the probe is `ChangePasswordProbe`).
    pub camel: String,
    /// `snake_case` form used for the report kind and the candidate relation (`change_password`).
    pub snake: String,
}

impl Names {
    /// Derives the names, or explains why the suffix cannot be used.
    pub fn new(suffix: &str) -> anyhow::Result<Names> {
        if !iana::is_segment_nz(suffix) {
            bail!(
                "`{suffix}` is not a valid well-known suffix: RFC 8615 section 3 requires a segment-nz (RFC 3986 \
                 section 3.3: one or more of A-Z a-z 0-9 - . _ ~ ! $ & ' ( ) * + , ; = : @ or %XX, no `/`)"
            );
        }
        let mut dir = String::new();
        for c in suffix.to_ascii_lowercase().chars() {
            if c.is_ascii_alphanumeric() {
                dir.push(c);
            } else if !dir.is_empty() && !dir.ends_with('-') {
                dir.push('-');
            }
        }
        let dir = dir.trim_end_matches('-').to_string();
        if dir.is_empty() {
            bail!("`{suffix}` has no letter or digit to name a crate after");
        }
        let snake = dir.replace('-', "_");
        let mut camel: String = dir
            .split('-')
            .map(|w| {
                let mut cs = w.chars();
                cs.next().map(|f| f.to_ascii_uppercase().to_string() + cs.as_str()).unwrap_or_default()
            })
            .collect();
        if camel.starts_with(|c: char| c.is_ascii_digit()) {
            camel.insert_str(0, "Wk");
        }
        let id_ok = suffix.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b));
        Ok(Names {
            suffix: suffix.to_string(),
            package: format!("wellknown-{dir}"),
            krate: format!("wellknown_{snake}"),
            id: if id_ok { suffix.to_string() } else { dir.clone() },
            camel,
            snake,
            dir,
        })
    }
}

/// What [`scaffold`] did.
#[derive(Debug)]
pub struct Scaffolded {
    /// The derived names.
    pub names: Names,
    /// Files created, relative to the workspace root.
    pub created: Vec<PathBuf>,
    /// Files edited, relative to the workspace root.
    pub edited: Vec<PathBuf>,
    /// Warnings for the author (suffix not registered, ...).
    pub warnings: Vec<String>,
}

/// `cargo xtask new-plugin <suffix> [--force]`: scaffolds in this workspace and prints what changed.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let force = args.iter().any(|a| a == "--force");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--force").collect();
    let [suffix] = rest.as_slice() else {
        bail!("usage: cargo xtask new-plugin <suffix> [--force]   (e.g. cargo xtask new-plugin change-password)");
    };
    let root = crate::workspace_root();
    let done = scaffold(&root, suffix, force)?;
    for w in &done.warnings {
        eprintln!("xtask: warning: {w}");
    }
    for f in &done.created {
        println!("created {}", f.display());
    }
    for f in &done.edited {
        println!("edited  {}", f.display());
    }
    let n = &done.names;
    println!(
        "\nnext: cargo test -p {p} && cargo clippy -p {p} --all-targets -- -D warnings\n\
         then write the real interpret() in plugins/{d}/src/parse.rs, its codes, fixtures and docs/plugins/{d}.md \
         (docs/plugin-guide.md walks through it)",
        p = n.package,
        d = n.dir
    );
    Ok(())
}

/// Scaffolds the plugin for `suffix` in the workspace at `root` and wires it in. `force` accepts a
/// suffix the registry lists as obsoleted.
///
/// Errors: an invalid suffix, an obsoleted one without `force`, an existing `plugins/<dir>` or
/// package, or a workspace file whose anchors (the `members` list, the plugin dependency lines, the
/// `linked()` array) are not where this expects them: then nothing has been written.
pub fn scaffold(root: &Path, suffix: &str, force: bool) -> anyhow::Result<Scaffolded> {
    let names = Names::new(suffix)?;
    let mut warnings = Vec::new();
    let entries = iana::load(root).context("reading the IANA registry snapshot")?;
    let entry = entries.iter().find(|e| e.suffix == suffix);
    match entry {
        None => warnings.push(format!(
            "`{suffix}` is not in the IANA well-known URIs registry snapshot ({}); check the spelling, or register it \
             (RFC 8615 section 3.1)",
            iana::SNAPSHOT
        )),
        Some(e) if e.status == "obsoleted" && !force => {
            bail!("`{suffix}` is obsoleted in the IANA registry ({}); pass --force to scaffold it anyway", e.reference)
        }
        Some(e) if e.status == "obsoleted" || e.status == "deprecated" => {
            warnings.push(format!("`{suffix}` is {} in the IANA registry", e.status));
        }
        Some(_) => {}
    }
    let crate_dir = root.join("plugins").join(&names.dir);
    if crate_dir.exists() {
        bail!("{} already exists", crate_dir.display());
    }
    let reference = entry.map(|e| e.reference.clone()).unwrap_or_else(|| "TODO: the specification".to_string());
    let registry = entry
        .map(|e| format!("IANA well-known URIs registry: {}", e.status))
        .unwrap_or_else(|| "not in the IANA well-known URIs registry".to_string());

    // Compute every edit before writing anything.
    let root_toml_path = root.join("Cargo.toml");
    let cli_toml_path = root.join("crates/cli/Cargo.toml");
    let linked_path = root.join("crates/cli/src/plugins_linked.rs");
    let root_toml = std::fs::read_to_string(&root_toml_path)?;
    let root_toml = add_member(&root_toml, &names)?;
    let root_toml = add_workspace_dependency(&root_toml, &names)?;
    let cli_toml = add_cli_dependency(&std::fs::read_to_string(&cli_toml_path)?, &names)?;
    let linked = link_probe(&std::fs::read_to_string(&linked_path)?, &names)?;

    let files = render(&names, &reference, &registry);
    let base = PathBuf::from("plugins").join(&names.dir);
    if let Some(missing) = PLUGIN_LAYOUT.iter().find(|f| !files.iter().any(|(p, _)| *p == base.join(f))) {
        bail!("the templates write no {missing}, which every plugin has (PLUGIN_LAYOUT)");
    }
    let mut created = Vec::new();
    for (rel, text) in &files {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if path.exists() {
            bail!("{} already exists", path.display());
        }
        std::fs::write(&path, text)?;
        created.push(rel.clone());
    }
    std::fs::write(&root_toml_path, root_toml)?;
    std::fs::write(&cli_toml_path, cli_toml)?;
    std::fs::write(&linked_path, linked)?;
    let edited = vec![
        PathBuf::from("Cargo.toml"),
        PathBuf::from("crates/cli/Cargo.toml"),
        PathBuf::from("crates/cli/src/plugins_linked.rs"),
    ];
    let rs: Vec<PathBuf> =
        created.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")).map(|p| root.join(p)).collect();
    let fmt = std::process::Command::new("rustfmt").arg("--edition").arg("2024").args(&rs).current_dir(root).status();
    if !fmt.is_ok_and(|s| s.success()) {
        warnings.push("rustfmt failed on the generated files; run cargo fmt".to_string());
    }
    Ok(Scaffolded { names, created, edited, warnings })
}

/// The generated files (path relative to the root, contents).
pub fn render(n: &Names, reference: &str, registry: &str) -> Vec<(PathBuf, String)> {
    let fixture = format!("{}.txt", n.dir);
    let rust_ref = reference.replace('\\', "\\\\").replace('"', "\\\"");
    let fill = |t: &str, reference: &str| {
        t.replace("{{package}}", &n.package)
            .replace("{{suffix}}", &n.suffix)
            .replace("{{dir}}", &n.dir)
            .replace("{{krate}}", &n.krate)
            .replace("{{id}}", &n.id)
            .replace("{{Camel}}", &n.camel)
            .replace("{{relation}}", &n.snake)
            .replace("{{kind}}", &n.snake)
            .replace("{{snake}}", &n.snake)
            .replace("{{fixture}}", &fixture)
            .replace("{{registry}}", registry)
            .replace("{{reference}}", reference)
    };
    let base = PathBuf::from("plugins").join(&n.dir);
    let cases = PathBuf::from("tests/conformance/wellknown");
    let t = |name: &str| -> &'static str {
        match name {
            "Cargo.toml" => include_str!("../templates/plugin/Cargo.toml.tmpl"),
            "lib" => include_str!("../templates/plugin/lib.rs.tmpl"),
            "probe" => include_str!("../templates/plugin/probe.rs.tmpl"),
            "parse" => include_str!("../templates/plugin/parse.rs.tmpl"),
            "codes" => include_str!("../templates/plugin/codes.rs.tmpl"),
            "test_main" => include_str!("../templates/plugin/test_main.rs.tmpl"),
            "test_parse" => include_str!("../templates/plugin/test_parse.rs.tmpl"),
            "test_no_panic" => include_str!("../templates/plugin/test_no_panic.rs.tmpl"),
            "test_conformance" => include_str!("../templates/plugin/test_conformance.rs.tmpl"),
            "case_input" => include_str!("../templates/plugin/case.input.tmpl"),
            "case_meta" => include_str!("../templates/plugin/case.meta.json.tmpl"),
            "fixture" => include_str!("../templates/plugin/fixture.txt.tmpl"),
            _ => include_str!("../templates/plugin/doc.md.tmpl"),
        }
    };
    vec![
        (base.join("Cargo.toml"), fill(t("Cargo.toml"), reference)),
        (base.join("src/lib.rs"), fill(t("lib"), reference)),
        (base.join("src/probe.rs"), fill(t("probe"), &rust_ref)),
        (base.join("src/parse.rs"), fill(t("parse"), reference)),
        (base.join("src/codes.rs"), fill(t("codes"), reference)),
        (base.join("tests/it/main.rs"), fill(t("test_main"), reference)),
        (base.join("tests/it/parse.rs"), fill(t("test_parse"), reference)),
        (base.join("tests/it/no_panic.rs"), fill(t("test_no_panic"), reference)),
        (base.join("tests/it/conformance.rs"), fill(t("test_conformance"), reference)),
        (base.join("tests/data").join(&fixture), fill(t("fixture"), reference)),
        (PathBuf::from("docs/plugins").join(format!("{}.md", n.dir)), fill(t("doc"), reference)),
        (cases.join(format!("{}_example.input", n.snake)), fill(t("case_input"), reference)),
        (cases.join(format!("{}_example.meta.json", n.snake)), fill(t("case_meta"), reference)),
    ]
}

/// Inserts `"plugins/<dir>"` into the root `members` list, after the last `plugins/` member (one a
/// line, as the others).
pub fn add_member(toml: &str, n: &Names) -> anyhow::Result<String> {
    let mut doc: DocumentMut = toml.parse().context("parsing the root Cargo.toml")?;
    let entry = format!("plugins/{}", n.dir);
    let members: &mut Array = doc
        .get_mut("workspace")
        .and_then(|w| w.get_mut("members"))
        .and_then(Item::as_array_mut)
        .context("no `members = [...]` in [workspace]")?;
    if members.iter().any(|m| m.as_str() == Some(entry.as_str())) {
        bail!("\"{entry}\" is already a workspace member");
    }
    let at = members
        .iter()
        .enumerate()
        .filter(|(_, m)| m.as_str().is_some_and(|s| s.starts_with("plugins/")))
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or(members.len());
    let mut value = Value::from(entry);
    let decor = members.get(at.saturating_sub(1)).map(|v| v.decor().clone()).unwrap_or_default();
    *value.decor_mut() = decor;
    members.insert_formatted(at, value);
    Ok(doc.to_string())
}

/// Inserts `wellknown-<dir> = { path = "plugins/<dir>" }` after the last plugin dependency of
/// `[workspace.dependencies]`.
pub fn add_workspace_dependency(toml: &str, n: &Names) -> anyhow::Result<String> {
    let mut doc: DocumentMut = toml.parse().context("parsing the root Cargo.toml")?;
    let deps = doc
        .get_mut("workspace")
        .and_then(|w| w.get_mut("dependencies"))
        .and_then(Item::as_table_mut)
        .context("no [workspace.dependencies]")?;
    if deps.contains_key(&n.package) {
        bail!("{} is already in [workspace.dependencies]", n.package);
    }
    let mut path = InlineTable::new();
    path.insert("path", Value::from(format!("plugins/{}", n.dir)));
    let is_plugin =
        |_: &str, item: &Item| item.get("path").and_then(Item::as_str).is_some_and(|p| p.starts_with("plugins/"));
    insert_after_last(deps, Key::new(n.package.as_str()), Item::Value(Value::InlineTable(path)), is_plugin)
        .context("no `wellknown-* = { path = \"plugins/...\" }` line in [workspace.dependencies]")?;
    Ok(doc.to_string())
}

/// Inserts `wellknown-<dir>.workspace = true` after the cli's last `wellknown-*` dependency.
pub fn add_cli_dependency(toml: &str, n: &Names) -> anyhow::Result<String> {
    let mut doc: DocumentMut = toml.parse().context("parsing crates/cli/Cargo.toml")?;
    let deps = doc
        .get_mut("dependencies")
        .and_then(Item::as_table_mut)
        .context("no [dependencies] in crates/cli/Cargo.toml")?;
    if deps.contains_key(&n.package) {
        bail!("crates/cli already depends on {}", n.package);
    }
    let mut workspace = Table::new();
    workspace.set_dotted(true);
    workspace.insert("workspace", toml_edit::value(true));
    let ours = |key: &str, _: &Item| key.starts_with("wellknown-");
    if insert_after_last(deps, Key::new(n.package.as_str()), Item::Table(workspace.clone()), ours).is_none() {
        deps.insert(&n.package, Item::Table(workspace));
    }
    Ok(doc.to_string())
}

/// Inserts `key = item` into `table` right after its last entry for which `after` holds, keeping the
/// other entries (their comments and formatting) in place. None, and nothing inserted, when no entry
/// matches.
fn insert_after_last(table: &mut Table, key: Key, item: Item, after: impl Fn(&str, &Item) -> bool) -> Option<()> {
    let last = table.iter().enumerate().filter(|(_, (k, v))| after(k, v)).map(|(i, _)| i).last()?;
    let entries: Vec<(Key, Item)> = table
        .iter()
        .map(|(k, _)| k.to_string())
        .collect::<Vec<_>>()
        .into_iter()
        .filter_map(|k| {
            let (key, _) = table.get_key_value(&k)?;
            let key = key.clone();
            table.remove(&k).map(|v| (key, v))
        })
        .collect();
    for (i, (k, v)) in entries.into_iter().enumerate() {
        table.insert_formatted(&k, v);
        if i == last {
            table.insert_formatted(&key, item.clone());
        }
    }
    Some(())
}

/// Adds `&<krate>::<Camel>Probe` to the `linked()` array (growing its length) and the probe id to
/// `EXPECTED_PROBES` (kept sorted).
pub fn link_probe(src: &str, n: &Names) -> anyhow::Result<String> {
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    let sig = lines
        .iter()
        .position(|l| l.contains("pub fn linked()") && l.contains("dyn WellKnownProbe;"))
        .context("no `pub fn linked() -> [&'static dyn WellKnownProbe; N]` in plugins_linked.rs")?;
    let (head, tail) = lines[sig].split_once("WellKnownProbe;").context("linked() signature")?;
    let len: usize =
        tail.trim_start().split(']').next().unwrap_or("").trim().parse().context("linked() array length")?;
    let rest = tail.trim_start().split_once(']').map(|(_, r)| r).unwrap_or("");
    lines[sig] = format!("{head}WellKnownProbe; {}]{rest}", len + 1);
    let close = sig + lines.iter().skip(sig).position(|l| l.trim() == "]").context("end of the linked() array")?;
    let indent = lines.get(close - 1).map(|l| l.len() - l.trim_start().len()).unwrap_or(8);
    let probe = format!("&{}::{}Probe,", n.krate, n.camel);
    if lines.iter().any(|l| l.trim() == probe) {
        bail!("{probe} is already linked");
    }
    lines.insert(close, format!("{}{probe}", " ".repeat(indent)));

    let start = lines
        .iter()
        .position(|l| l.starts_with("pub const EXPECTED_PROBES"))
        .context("no `pub const EXPECTED_PROBES` in plugins_linked.rs")?;
    let end = start + lines.iter().skip(start).position(|l| l.trim() == "];").context("end of EXPECTED_PROBES")?;
    let mut ids: Vec<String> =
        lines[start + 1..end].iter().map(|l| l.trim().trim_end_matches(',').trim_matches('"').to_string()).collect();
    if ids.contains(&n.id) {
        bail!("probe id {} is already expected", n.id);
    }
    ids.push(n.id.clone());
    ids.sort();
    let body: Vec<String> = ids.iter().map(|id| format!("    \"{id}\",")).collect();
    lines.splice(start + 1..end, body);
    Ok(lines.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let n = Names::new("change-password").unwrap();
        assert_eq!(
            (n.dir.as_str(), n.package.as_str(), n.krate.as_str(), n.id.as_str(), n.camel.as_str(), n.snake.as_str()),
            (
                "change-password",
                "wellknown-change-password",
                "wellknown_change_password",
                "change-password",
                "ChangePassword",
                "change_password"
            )
        );
        let n = Names::new("host-meta.json").unwrap();
        assert_eq!(
            (n.dir.as_str(), n.id.as_str(), n.camel.as_str()),
            ("host-meta-json", "host-meta.json", "HostMetaJson")
        );
        let n = Names::new("Nodeinfo%20x").unwrap();
        assert_eq!((n.dir.as_str(), n.id.as_str()), ("nodeinfo-20x", "nodeinfo-20x"));
        assert_eq!(Names::new("3gpp").unwrap().camel, "Wk3gpp");
        for bad in ["", "a/b", "a b", "a%2", "é", "?x"] {
            assert!(Names::new(bad).is_err(), "{bad:?} accepted");
        }
        assert!(Names::new("~~").is_err(), "no crate name from punctuation only");
    }

    #[test]
    fn wires_members_dependencies_and_registry() {
        let n = Names::new("change-password").unwrap();
        let toml = "[workspace]\nmembers = [\n    \"crates/core\",\n    \"plugins/robots\",\n    \"xtask\",\n]\n\n[workspace.dependencies]\nwellknown-core = { path = \"crates/core\" }\nwellknown-robots = { path = \"plugins/robots\" }\n\ntokio = \"1\"\n";
        let t = add_workspace_dependency(&add_member(toml, &n).unwrap(), &n).unwrap();
        assert!(t.contains("    \"plugins/robots\",\n    \"plugins/change-password\",\n    \"xtask\","), "{t}");
        assert!(t.contains("wellknown-robots = { path = \"plugins/robots\" }\nwellknown-change-password = { path = \"plugins/change-password\" }\n"), "{t}");
        assert!(add_member(&t, &n).is_err());
        assert!(add_workspace_dependency(&t, &n).is_err());

        let cli = "[package]\nname = \"wellknown\"\n\n[dependencies]\nwellknown-core.workspace = true\nwellknown-robots.workspace = true\ntokio.workspace = true\n\n[dev-dependencies]\nwellknown-tests = { path = \"../../tests\" }\n";
        let c = add_cli_dependency(cli, &n).unwrap();
        assert!(
            c.contains("wellknown-robots.workspace = true\nwellknown-change-password.workspace = true\ntokio"),
            "{c}"
        );

        let linked = "pub fn linked() -> [&'static dyn WellKnownProbe; 2] {\n    [\n        &wellknown_robots::RobotsProbe,\n        &wellknown_sitemap::SitemapProbe,\n    ]\n}\n\npub const EXPECTED_PROBES: &[&str] = &[\n    \"robots\",\n    \"sitemap\",\n];\n";
        let l = link_probe(linked, &n).unwrap();
        assert!(l.starts_with("pub fn linked() -> [&'static dyn WellKnownProbe; 3] {"), "{l}");
        assert!(l.contains("        &wellknown_sitemap::SitemapProbe,\n        &wellknown_change_password::ChangePasswordProbe,\n    ]"), "{l}");
        assert!(l.contains("&[\n    \"change-password\",\n    \"robots\",\n    \"sitemap\",\n];"), "{l}");
        assert!(link_probe(&l, &n).is_err());
    }

    /// Every plugin crate has the layout the scaffold writes ([`PLUGIN_LAYOUT`]), registers its probe
    /// in `lib.rs`, declares it in a `const ProbeInfo`, and its no-panic test asserts the shared
    /// report invariants; no plugin keeps a documentation test of its own (the workspace test in
    /// `crates/cli/src/plugins_linked.rs` checks every probe's codes). The scaffold renders the same.
    #[test]
    fn every_plugin_has_the_scaffold_layout() {
        let n = Names::new("host-meta.json").unwrap();
        let rendered: Vec<PathBuf> = render(&n, "RFC6415", "permanent").into_iter().map(|(p, _)| p).collect();
        let base = PathBuf::from("plugins").join(&n.dir);
        for f in PLUGIN_LAYOUT.iter().chain(&["src/parse.rs"]) {
            assert!(rendered.contains(&base.join(f)), "the scaffold does not write {f}");
        }
        let root = crate::workspace_root();
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("plugins"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        assert!(dirs.len() >= 8, "{dirs:?}");
        let mut problems = Vec::new();
        for dir in &dirs {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            for f in PLUGIN_LAYOUT {
                if !dir.join(f).is_file() {
                    problems.push(format!("{name}: no {f}"));
                }
            }
            let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
            if !read("src/lib.rs").contains("inventory::submit!") {
                problems.push(format!("{name}: src/lib.rs does not register the probe"));
            }
            if !read("src/probe.rs").contains("pub const INFO: ProbeInfo") {
                problems.push(format!("{name}: src/probe.rs declares no `const INFO: ProbeInfo`"));
            }
            let no_panic = read("tests/it/no_panic.rs");
            if !no_panic.contains("check_interpret") && !no_panic.contains("check_report") {
                problems.push(format!("{name}: tests/it/no_panic.rs does not assert the shared invariants"));
            }
            if !read("tests/it/main.rs").contains("mod no_panic;") {
                problems.push(format!("{name}: tests/it/main.rs does not run no_panic"));
            }
            if dir.join("tests/it/docs.rs").exists() {
                problems.push(format!("{name}: tests/it/docs.rs duplicates the workspace documentation test"));
            }
        }
        assert!(problems.is_empty(), "{problems:#?}");
    }

    /// The layering rule (docs/ARCHITECTURE.md, issue 15): a plugin crate depends on core and the
    /// shared library crates under `crates/`, never on another plugin crate (dev-dependencies
    /// included; what two plugins share belongs in a library crate).
    #[test]
    fn no_plugin_depends_on_another_plugin() {
        let root = crate::workspace_root();
        let manifests: Vec<(String, DocumentMut)> = std::fs::read_dir(root.join("plugins"))
            .unwrap()
            .flatten()
            .map(|e| e.path().join("Cargo.toml"))
            .filter(|p| p.is_file())
            .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap().parse::<DocumentMut>().unwrap()))
            .collect();
        assert!(manifests.len() >= 8, "{} plugin manifests", manifests.len());
        let plugins: Vec<&str> = manifests.iter().filter_map(|(_, m)| m["package"]["name"].as_str()).collect();
        let mut problems = Vec::new();
        for (path, manifest) in &manifests {
            for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
                let Some(deps) = manifest.get(table).and_then(Item::as_table_like) else { continue };
                for (name, _) in deps.iter() {
                    if plugins.contains(&name) {
                        problems.push(format!("{path}: [{table}] {name} is a plugin crate"));
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{problems:#?}");
    }

    #[test]
    fn rendered_files_have_no_placeholder_left() {
        let n = Names::new("host-meta.json").unwrap();
        for (path, text) in render(&n, "RFC6415", "IANA well-known URIs registry: permanent") {
            assert!(!text.contains("{{"), "{} keeps a placeholder", path.display());
        }
    }

    /// Copies what cargo needs to load the workspace: every file except `target/`, `.git/` and the
    /// large data trees (`corpus/`, `tests/fixtures/`, `tests/conformance/`), which only other
    /// packages' tests read. (`crates/conformance` is a package and is copied.)
    fn copy_workspace(from: &Path, to: &Path) -> std::io::Result<()> {
        for e in std::fs::read_dir(from)?.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let (src, dst) = (e.path(), to.join(&*name));
            if src.is_dir() {
                let data_tree = ["fixtures", "conformance"].contains(&name.as_ref())
                    && from.file_name().is_some_and(|parent| parent == "tests");
                if data_tree || ["target", ".git", "corpus"].contains(&name.as_ref()) {
                    continue;
                }
                std::fs::create_dir_all(&dst)?;
                copy_workspace(&src, &dst)?;
            } else {
                std::fs::copy(&src, &dst)?;
            }
        }
        Ok(())
    }

    /// `new-plugin` in a temporary copy of the workspace: the scaffold builds and its tests pass.
    ///
    /// Builds only the new package (`cargo test -p`, offline) in the workspace's target directory
    /// (cargo releases its lock before running tests), reusing the registry dependencies already
    /// built: about 10 s on two cores after a workspace build.
    #[test]
    fn scaffold_builds_and_its_tests_pass() {
        let root = crate::workspace_root();
        let tmp = tempfile::tempdir().unwrap();
        copy_workspace(&root, tmp.path()).unwrap();
        // Another version for every path package of the copy: their artifacts get their own hashes in
        // the shared target directory, so the workspace's own are neither reused nor overwritten
        // (which would make cargo rebuild everything that depends on them), while registry
        // dependencies already built are reused.
        let manifest = tmp.path().join("Cargo.toml");
        let toml = std::fs::read_to_string(&manifest).unwrap();
        let version = crate::dist::workspace_version(&toml).unwrap();
        let toml = toml.replacen(&format!("version = \"{version}\""), "version = \"0.0.0-xtask-scaffold\"", 1);
        std::fs::write(&manifest, toml).unwrap();
        // A registered suffix with a dot that no plugin claims (host-meta.json, the earlier example, has
        // one since issue 17).
        let done = scaffold(tmp.path(), "gpc.json", false).unwrap();
        assert_eq!(done.names.package, "wellknown-gpc-json");
        assert!(done.warnings.is_empty(), "{:?}", done.warnings);
        assert!(scaffold(tmp.path(), "gpc.json", false).is_err(), "a second scaffold is refused");
        let not_registered = Names::new("not-a-registered-suffix").unwrap();
        assert_eq!(not_registered.dir, "not-a-registered-suffix");
        let linked = std::fs::read_to_string(tmp.path().join("crates/cli/src/plugins_linked.rs")).unwrap();
        assert!(linked.contains("&wellknown_gpc_json::GpcJsonProbe,"));
        assert!(linked.contains("\"gpc.json\","));

        let target = crate::dist::target_dir(&root);
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = std::process::Command::new(cargo)
            .args(["test", "--offline", "-p", "wellknown-gpc-json"])
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("CARGO_MAKEFLAGS")
            .current_dir(tmp.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "cargo test of the scaffold failed:\n{stdout}\n{stderr}");
        for t in [
            "fixture ... ok",
            "empty_and_invalid_utf8 ... ok",
            "every_case_passes ... ok",
            "interpret_never_panics ... ok",
            "locations_and_registration ... ok",
        ] {
            assert!(stdout.contains(t), "{t} missing from:\n{stdout}");
        }
    }
}
