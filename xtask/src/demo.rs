//! `cargo xtask demo`: the real-world fixture sites (tests/fixtures/sites) served by the loopback
//! fixture server over HTTP and HTTPS, scanned by the real `wellknown` binary.
//!
//! Every fixture host is a target (`https://<host>`); `--connect-to` sends ports 443 and 80 of any
//! host to the fixture server, and `--ca-cert` trusts its throwaway CA, so certificate checks stay on.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use anyhow::Context;

use crate::{cargo, workspace_root};

/// How long the first dev build took on a fresh clone (measured for the README), as the demo
/// announces it.
const FIRST_BUILD: &str = "11 minutes of CPU time: 6 to 17 minutes on 2 cores";

/// The build of the binaries the demo runs (dev profile): `wellknown` and `fixture-server` exactly as
/// `cargo test --workspace` (the README's second command) builds them, so a fresh clone compiles the
/// workspace once for both commands, and the demo after the tests (or the tests after the demo)
/// builds nothing. Cargo resolves features per command: a plain `cargo build -p wellknown` leaves
/// out what the dev-dependencies switch on (tokio's `test-util`, ...), which changes the hash of
/// tokio and of everything above it, so it would be a second build of most of the tree. Selecting
/// the whole workspace and one example target makes cargo resolve features as `cargo test` does
/// (dev-dependencies included); that example is one `cargo test` builds anyway.
pub const DEV_BUILD: [&str; 8] =
    ["build", "--workspace", "--bin", "wellknown", "--bin", "fixture-server", "--example", "parse_file"];

/// `cargo xtask demo [--release] [-- SCAN-ARGS...]`: serves the fixture sites, scans them, prints a summary.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let release = args.iter().any(|a| a == "--release");
    let extra: Vec<String> = args.iter().skip_while(|a| *a != "--").skip(1).cloned().collect();
    if release {
        eprintln!(
            "xtask: building wellknown and the fixture server with the release profile (LTO: longer than the dev \
             build, the first time)"
        );
        cargo(&["build", "--release", "-p", "wellknown", "-p", "wellknown-tests", "--bins"])?;
    } else {
        eprintln!(
            "xtask: building wellknown and the fixture server (the dev build `cargo test --workspace` shares; the \
             first time on a fresh clone takes {FIRST_BUILD}, later runs seconds)"
        );
        cargo(&DEV_BUILD)?;
    }
    let root = workspace_root();
    let target = crate::dist::target_dir(&root);
    let bin_dir = target.join(if release { "release" } else { "debug" });
    let out_dir = target.join("demo");
    std::fs::create_dir_all(&out_dir)?;
    let ca = out_dir.join("ca.pem");

    let mut server = Command::new(bin_dir.join("fixture-server"))
        .args(["--tls", "--ca-out"])
        .arg(&ca)
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", bin_dir.join("fixture-server").display()))?;
    let mut first = String::new();
    BufReader::new(server.stdout.take().context("fixture-server stdout")?).read_line(&mut first)?;
    let (http, https) = parse_addrs(&first).with_context(|| format!("fixture-server said {first:?}"))?;

    let sites = root.join("tests").join("fixtures").join("sites");
    let mut hosts: Vec<String> = std::fs::read_dir(&sites)?
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    hosts.sort();
    let list = out_dir.join("targets.txt");
    std::fs::write(&list, hosts.iter().map(|h| format!("https://{h}\n")).collect::<String>())?;
    let output = out_dir.join("scan.jsonl");
    eprintln!("xtask: scanning {} fixture sites served at http={http} https={https}", hosts.len());
    let status = Command::new(bin_dir.join("wellknown"))
        .arg("scan")
        .arg("--list")
        .arg(&list)
        .args(["--allow-private", "--rate", "1000", "--per-host", "8", "--concurrency", "32"])
        .arg("--connect-to")
        .arg(format!(":443:127.0.0.1:{https}"))
        .arg("--connect-to")
        .arg(format!(":80:127.0.0.1:{http}"))
        .arg("--ca-cert")
        .arg(&ca)
        .arg("--output")
        .arg(&output)
        .arg("--db")
        .arg(out_dir.join("wellknown.db"))
        .args(&extra)
        .status()
        .context("running wellknown scan")?;
    let _ = server.kill();
    let _ = server.wait();
    summarize(&output)?;
    let code = status.code().map_or_else(|| "killed by a signal".to_string(), |c| c.to_string());
    eprintln!("xtask: records in {} (wellknown exit code {code})", output.display());
    anyhow::ensure!(status.code().is_some_and(|c| c <= 1), "wellknown scan failed ({status})");
    Ok(())
}

fn parse_addrs(line: &str) -> Option<(u16, u16)> {
    let mut http = None;
    let mut https = None;
    for part in line.split_whitespace() {
        let (k, v) = part.split_once('=')?;
        let port = v.rsplit_once(':')?.1.parse().ok()?;
        match k {
            "http" => http = Some(port),
            "https" => https = Some(port),
            _ => {}
        }
    }
    Some((http?, https?))
}

fn summarize(path: &std::path::Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let mut by_type: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_probe: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let t = v["type"].as_str().unwrap_or("?").to_string();
        if t == "candidate" {
            *by_kind.entry(v["kind"].as_str().unwrap_or("?").to_string()).or_default() += 1;
        }
        if t == "document" {
            let e = by_probe.entry(v["probe"].as_str().unwrap_or("?").to_string()).or_default();
            e.0 += 1;
            if v["status"].as_u64().is_some_and(|s| (200..300).contains(&s)) {
                e.1 += 1;
            }
        }
        *by_type.entry(t).or_default() += 1;
    }
    println!("records by type: {by_type:?}");
    println!("documents by probe (attempted, found):");
    for (p, (a, f)) in &by_probe {
        println!("  {p:<28} {a:>6} {f:>6}");
    }
    println!("distinct candidates by kind: {by_kind:?}");
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The targets the demo's build names exist (a renamed example would fail the demo).
    #[test]
    fn the_demo_build_names_targets_that_exist() {
        let root = crate::workspace_root();
        assert!(root.join("plugins/sitemap/examples/parse_file.rs").is_file());
        assert!(
            root.join("tests/src/bin/fixture-server.rs").is_file()
                || root.join("tests/src/bin/fixture-server").is_dir()
        );
        assert!(std::fs::read_to_string(root.join("crates/cli/Cargo.toml")).unwrap().contains("name = \"wellknown\""));
        assert!(super::DEV_BUILD.windows(2).any(|w| w == ["--example", "parse_file"]));
    }
}
