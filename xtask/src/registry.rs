//! `cargo xtask registry`: the IANA well-known suffixes with and without a plugin.
//!
//! Builds the binary (debug, the same package selection as `cargo xtask demo`), asks it for its
//! registered probes (`wellknown plugins --json`) and compares their suffixes with the registry
//! snapshot (`crates/core/data/well-known-uris.csv`). Fails when a probe claims a suffix that is not
//! a `segment-nz` (RFC 8615 section 3) or that the registry lists as obsoleted; a suffix that is not
//! registered at all (apple-app-site-association) is reported, not refused.

use std::process::Command;

use anyhow::Context;

use crate::iana::{self, Entry};
use crate::{cargo, workspace_root};

/// A registered probe as `wellknown plugins --json` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// Probe id.
    pub id: String,
    /// Its well-known suffix.
    pub suffix: String,
}

/// The comparison: registry rows with their probes, rows without, claims outside the registry, and
/// the problems that make the check fail.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// (registry row, probe ids claiming it).
    pub with_plugin: Vec<(Entry, Vec<String>)>,
    /// Registry rows no probe claims.
    pub without_plugin: Vec<Entry>,
    /// Claims of suffixes the registry does not list (valid syntax).
    pub unregistered: Vec<Claim>,
    /// Malformed or obsoleted claims, one sentence each.
    pub problems: Vec<String>,
}

/// Compares probe claims with registry entries. Pure.
pub fn compare(claims: &[Claim], entries: &[Entry]) -> Comparison {
    let mut c = Comparison::default();
    for e in entries {
        let ids: Vec<String> = claims.iter().filter(|p| p.suffix == e.suffix).map(|p| p.id.clone()).collect();
        if ids.is_empty() {
            c.without_plugin.push(e.clone());
        } else {
            if e.status == "obsoleted" {
                c.problems.push(format!(
                    "probe {} claims `{}`, which the IANA registry lists as obsoleted ({})",
                    ids.join(", "),
                    e.suffix,
                    e.reference
                ));
            }
            c.with_plugin.push((e.clone(), ids));
        }
    }
    for p in claims {
        if !iana::is_segment_nz(&p.suffix) {
            c.problems.push(format!(
                "probe {} claims `{}`, which is not a valid well-known suffix (RFC 8615 section 3: a segment-nz)",
                p.id, p.suffix
            ));
        } else if !entries.iter().any(|e| e.suffix == p.suffix) {
            c.unregistered.push(p.clone());
        }
    }
    c
}

/// Reads `wellknown plugins --json` output: one object per line with `id` and `suffix` (null for
/// documents outside /.well-known/, which are skipped).
pub fn parse_plugins_json(text: &str) -> anyhow::Result<Vec<Claim>> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).with_context(|| format!("bad plugins line {line:?}"))?;
        let id = v["id"].as_str().context("plugins line without id")?.to_string();
        if let Some(suffix) = v["suffix"].as_str() {
            out.push(Claim { id, suffix: suffix.to_string() });
        }
    }
    Ok(out)
}

/// `cargo xtask registry`: prints the comparison; fails when [`Comparison::problems`] is not empty.
pub fn run(_args: &[String]) -> anyhow::Result<()> {
    cargo(&["build", "-p", "wellknown", "-p", "wellknown-tests", "--bins"])?;
    let root = workspace_root();
    let bin = crate::dist::target_dir(&root).join("debug").join("wellknown");
    let out = Command::new(&bin)
        .args(["plugins", "--json"])
        .output()
        .with_context(|| format!("running {}", bin.display()))?;
    anyhow::ensure!(out.status.success(), "wellknown plugins --json failed ({})", out.status);
    let claims = parse_plugins_json(&String::from_utf8_lossy(&out.stdout))?;
    let entries = iana::load(&root)?;
    let c = compare(&claims, &entries);
    println!("IANA well-known URIs snapshot ({}): {} suffixes", iana::SNAPSHOT, entries.len());
    println!("\nwith a plugin ({}):", c.with_plugin.len());
    for (e, ids) in &c.with_plugin {
        println!("  {:<44} {:<12} {}", e.suffix, e.status, ids.join(", "));
    }
    println!("\nwithout a plugin ({}):", c.without_plugin.len());
    for e in &c.without_plugin {
        println!("  {:<44} {:<12} {}", e.suffix, e.status, e.reference);
    }
    if !c.unregistered.is_empty() {
        println!("\nclaimed by a plugin but not in the registry ({}):", c.unregistered.len());
        for p in &c.unregistered {
            println!("  {:<44} {:<12} {}", p.suffix, "-", p.id);
        }
    }
    anyhow::ensure!(c.problems.is_empty(), "registry check failed:\n  {}", c.problems.join("\n  "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(s: &str, status: &str) -> Entry {
        Entry { suffix: s.into(), reference: "RFCX".into(), status: status.into() }
    }

    fn claim(id: &str, s: &str) -> Claim {
        Claim { id: id.into(), suffix: s.into() }
    }

    #[test]
    fn splits_registry_by_plugin() {
        let entries = [entry("security.txt", "permanent"), entry("acme-challenge", "permanent")];
        let c =
            compare(&[claim("security.txt", "security.txt"), claim("aasa", "apple-app-site-association")], &entries);
        assert_eq!(c.with_plugin, vec![(entries[0].clone(), vec!["security.txt".to_string()])]);
        assert_eq!(c.without_plugin, vec![entries[1].clone()]);
        assert_eq!(c.unregistered, vec![claim("aasa", "apple-app-site-association")]);
        assert!(c.problems.is_empty());
    }

    #[test]
    fn malformed_and_obsoleted_claims_fail() {
        let entries = [entry("http-opportunistic", "obsoleted")];
        let c = compare(&[claim("old", "http-opportunistic"), claim("bad", "a/b"), claim("empty", "")], &entries);
        assert_eq!(c.problems.len(), 3, "{:?}", c.problems);
        assert!(c.problems[0].contains("obsoleted"));
        assert!(c.problems[1].contains("`a/b`") && c.problems[1].contains("segment-nz"));
        assert!(c.unregistered.is_empty());
    }

    #[test]
    fn reads_plugins_json() {
        let text = "{\"id\":\"robots\",\"suffix\":null}\n{\"id\":\"security.txt\",\"suffix\":\"security.txt\",\"spec\":\"RFC 9116\"}\n";
        assert_eq!(parse_plugins_json(text).unwrap(), vec![claim("security.txt", "security.txt")]);
        assert!(parse_plugins_json("not json").is_err());
    }
}
