//! `cargo xtask dist [--target TRIPLE]`: the release archive.
//!
//! 1. `cargo build --profile dist -p wellknown` (fat LTO, one codegen unit, stripped: root
//!    `Cargo.toml`, `[profile.dist]`).
//! 2. `cargo run -p xtask-docgen -- target/dist/docgen`: man pages and shell completions from the
//!    clap definitions.
//! 3. `target/dist/wellknown-<version>-<target>.tar.gz` holding `wellknown-<version>-<target>/` with
//!    the binary, README.md, LICENSE-MIT, LICENSE-APACHE, `man/*.1` and `completions/*`, written by
//!    [`crate::archive::tar_gz`] (sorted entries, fixed mtime, uid/gid 0), and its `.sha256`.
//!
//! The archive's timestamp is `SOURCE_DATE_EPOCH` when set, else the HEAD commit's time, else 0, so
//! running it twice on the same commit gives the same bytes (cargo does not rebuild an unchanged
//! binary).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use anyhow::Context;

use crate::archive::{Entry, sha256_line, tar_gz};
use crate::{cargo, workspace_root};

/// Files copied from the repository root into the archive.
const ROOT_FILES: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

/// `cargo xtask dist [--target TRIPLE]`: builds, generates, packs and prints the archive path and checksum.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut target: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--target" => target = Some(it.next().context("--target needs a value")?.clone()),
            other => anyhow::bail!("dist: unknown argument {other:?} (usage: cargo xtask dist [--target TRIPLE])"),
        }
    }
    let root = workspace_root();
    let triple = match &target {
        Some(t) => t.clone(),
        None => host_triple()?,
    };
    let mut build = vec!["build", "--profile", "dist", "-p", "wellknown", "--bin", "wellknown"];
    if let Some(t) = &target {
        build.extend(["--target", t.as_str()]);
    }
    cargo(&build)?;
    let target_dir = target_dir(&root);
    let bin_dir = match &target {
        Some(t) => target_dir.join(t).join("dist"),
        None => target_dir.join("dist"),
    };
    let exe = if triple.contains("windows") { "wellknown.exe" } else { "wellknown" };
    let binary =
        std::fs::read(bin_dir.join(exe)).with_context(|| format!("reading {}", bin_dir.join(exe).display()))?;

    let out = target_dir.join("dist");
    let gen_dir = out.join("docgen");
    if gen_dir.exists() {
        std::fs::remove_dir_all(&gen_dir)?;
    }
    let gen_arg = gen_dir.to_string_lossy().into_owned();
    cargo(&["run", "--quiet", "-p", "xtask-docgen", "--", &gen_arg])?;

    let version = version(&root)?;
    let name = format!("wellknown-{version}-{triple}");
    let mut files = BTreeMap::new();
    files.insert(exe.to_string(), Entry { bytes: binary, executable: true });
    for f in ROOT_FILES {
        let bytes = std::fs::read(root.join(f)).with_context(|| format!("reading {f}"))?;
        files.insert(f.to_string(), Entry { bytes, executable: false });
    }
    collect(&gen_dir, &gen_dir, &mut files)?;
    let archive = tar_gz(&name, &files, source_date_epoch(&root))?;
    let archive_name = format!("{name}.tar.gz");
    std::fs::write(out.join(&archive_name), &archive)?;
    std::fs::write(out.join(format!("{archive_name}.sha256")), sha256_line(&archive, &archive_name))?;
    eprintln!("xtask: {} files, {} bytes", files.len(), archive.len());
    println!("{}", out.join(&archive_name).display());
    print!("{}", sha256_line(&archive, &archive_name));
    Ok(())
}

/// Adds every file under `dir` to `files`, keyed by its path relative to `base` with `/` separators.
fn collect(base: &Path, dir: &Path, files: &mut BTreeMap<String, Entry>) -> anyhow::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let path = e?.path();
        if path.is_dir() {
            collect(base, &path, files)?;
        } else {
            let rel = path.strip_prefix(base)?;
            let key = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            files.insert(key, Entry { bytes: std::fs::read(&path)?, executable: false });
        }
    }
    Ok(())
}

/// The cargo target directory (`CARGO_TARGET_DIR` or `<root>/target`).
pub fn target_dir(root: &Path) -> std::path::PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").map(std::path::PathBuf::from) {
        // cargo reads a relative CARGO_TARGET_DIR from the directory it was started in.
        Some(dir) if dir.is_relative() => std::env::current_dir().map(|cwd| cwd.join(&dir)).unwrap_or(dir),
        Some(dir) => dir,
        None => root.join("target"),
    }
}

/// The host triple, from `rustc -vV`.
fn host_triple() -> anyhow::Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().context("running rustc -vV")?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|s| s.trim().to_string())
        .context("rustc -vV printed no host line")
}

/// The workspace version (`[workspace.package] version` in the root Cargo.toml).
fn version(root: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml"))?;
    workspace_version(&text).context("no version in [workspace.package]")
}

/// Finds `version = "..."` in the `[workspace.package]` table of a Cargo.toml.
pub fn workspace_version(toml: &str) -> Option<String> {
    let mut in_table = false;
    for line in toml.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_table = t == "[workspace.package]";
            continue;
        }
        if in_table && let Some(rest) = t.strip_prefix("version") {
            let v = rest.trim_start().strip_prefix('=')?.trim().trim_matches('"');
            return Some(v.to_string());
        }
    }
    None
}

/// `SOURCE_DATE_EPOCH`, else the HEAD commit time, else 0.
fn source_date_epoch(root: &Path) -> u64 {
    if let Some(v) = std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|v| v.trim().parse().ok()) {
        return v;
    }
    Command::new("git")
        .args(["log", "-1", "--format=%ct"])
        .current_dir(root)
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_from_workspace_table() {
        let toml = "[package]\nversion = \"9.9.9\"\n[workspace.package]\nedition = \"2024\"\nversion = \"0.3.1\"\n";
        assert_eq!(workspace_version(toml).as_deref(), Some("0.3.1"));
        assert_eq!(workspace_version("[package]\nversion = \"1\"\n"), None);
        let real = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        assert!(workspace_version(&real).is_some_and(|v| v.split('.').count() == 3));
    }
}
