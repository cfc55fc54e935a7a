//! `cargo xtask <task>`: project automation in Rust (the matklad xtask pattern).
//!
//! * `demo` — serve the real-world fixture sites on loopback and scan them with the binary: the main
//!   job on real input, on a machine without internet.
//! * `bench-scan [--origins N] ...` — the whole-scan benchmark on loopback (throughput against a wrk
//!   ceiling); with `--latency MS`, behind a delay proxy against a lower bound and a plain fetcher
//!   (docs/benchmarks/scan.md).
//! * `ci [--no-test]` — what CI runs: fmt check, clippy with `-D warnings` (the fuzz targets too),
//!   the test suite, docs
//!   (`.ci/run` runs `cargo test --workspace` itself, then `ci --no-test`).
//! * `dist [--target TRIPLE]` — the release archive with man pages, completions and a `.sha256`.
//! * `new-plugin <suffix>` — scaffold a probe crate and wire it in (`docs/plugin-guide.md`).
//! * `registry` — IANA well-known suffixes with and without a plugin; fails on bad claims.
//! * `diagnostics [--check]` — regenerate (or check) `docs/diagnostics.md` from the code constants.

mod archive;
mod bench_latency;
mod bench_scan;
mod demo;
mod diagnostics;
mod dist;
#[cfg(test)]
mod docs_tests;
mod iana;
mod latency_bound;
mod new_plugin;
mod registry;

use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo::run(&args[1..]),
        Some("bench-scan") => bench_scan::run(&args[1..]),
        Some("ci") => ci(&args[1..]),
        Some("dist") => dist::run(&args[1..]),
        Some("new-plugin") => new_plugin::run(&args[1..]),
        Some("registry") => registry::run(&args[1..]),
        Some("diagnostics") => diagnostics::run(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <task>\n\n  demo [--release] [-- SCAN-ARGS...]  scan the fixture sites served on loopback\n  bench-scan [--origins N] [--latency MS [--runs K] [-- SCAN-ARGS...]]\n                                      the scan benchmark (docs/benchmarks/scan.md)\n  ci [--no-test]                      fmt, clippy -D warnings, tests, docs\n  dist [--target TRIPLE]              release archive target/dist/wellknown-<version>-<target>.tar.gz\n  new-plugin <suffix> [--force]       scaffold plugins/<suffix> and wire it in\n  registry                            IANA suffixes with and without a plugin\n  diagnostics [--check]               regenerate (or check) docs/diagnostics.md"
            );
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("xtask: {e:#}");
        std::process::exit(1);
    }
}

/// Runs `cargo` with `args` from the workspace root; fails on a non-zero exit.
pub fn cargo(args: &[&str]) -> anyhow::Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("xtask: cargo {}", args.join(" "));
    let root = workspace_root();
    let mut cmd = Command::new(cargo);
    cmd.args(args).current_dir(&root);
    // `cargo run` gave this process the xtask package's variables (CARGO_MANIFEST_DIR, CARGO_PKG_*,
    // ...). Passed on, they differ from a shell's, and build scripts that watch them (ring's
    // `rerun-if-env-changed=CARGO_MANIFEST_DIR`) would rebuild ring, rustls and everything above
    // them: minutes of release build for nothing.
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if ["CARGO_MANIFEST_", "CARGO_PKG_", "CARGO_CRATE_", "CARGO_BIN_", "CARGO_PRIMARY_PACKAGE"]
            .iter()
            .any(|p| k.starts_with(p))
        {
            cmd.env_remove(&key);
        }
    }
    if std::env::var_os("CARGO_TARGET_DIR").is_some() {
        // The same directory the tasks then look in, even when the variable is relative.
        cmd.env("CARGO_TARGET_DIR", dist::target_dir(&root));
    }
    let status = cmd.status()?;
    anyhow::ensure!(status.success(), "cargo {} failed ({status})", args.join(" "));
    Ok(())
}

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> std::path::PathBuf {
    let here = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(std::path::Path::to_path_buf).unwrap_or(here)
}

fn ci(args: &[String]) -> anyhow::Result<()> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    // The fuzz targets are a workspace of their own (fuzz/README.md): kept compiling and clean.
    cargo(&["fmt", "--manifest-path", "fuzz/Cargo.toml", "--", "--check"])?;
    cargo(&["clippy", "--manifest-path", "fuzz/Cargo.toml", "--", "-D", "warnings"])?;
    if !args.iter().any(|a| a == "--no-test") {
        cargo(&["test", "--workspace"])?;
    }
    // SAFETY of env: only this process; rustdoc warnings become errors.
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["doc", "--workspace", "--no-deps"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(workspace_root())
        .status()?;
    anyhow::ensure!(status.success(), "cargo doc failed ({status})");
    Ok(())
}
