//! `cargo xtask <task>`: project automation in Rust (the matklad xtask pattern).
//!
//! * `demo` — serve the real-world fixture sites on loopback and scan them with the binary: the main
//!   job on real input, on a machine without internet.
//! * `bench-scan [--origins N] ...` — the whole-scan benchmark on loopback (throughput against a wrk
//!   ceiling); with `--latency MS`, behind a delay proxy against a lower bound and a plain fetcher
//!   (docs/benchmarks/scan.md).
//! * `bench-parse [--runs N] [--bin BIN] [--against BIN]` — the whole `wellknown parse sitemap` command on a
//!   generated 50,000-URL sitemap, plain and gzipped, optionally against another build.
//! * `bench-query [--evidence N,...] [--postgres URL]` — `candidates`, `diff` and `graph` on
//!   synthetic stores of millions of evidence rows: wall time and peak RSS.
//! * `ci [--no-test]` — what CI runs: fmt check, clippy with `-D warnings` (the fuzz targets too),
//!   the test suite, docs
//!   (`.ci/run` runs `cargo test --workspace` itself, then `ci --no-test`).
//! * `dist [--target TRIPLE]` — the release archive with man pages, completions and a `.sha256`.
//! * `new-plugin <suffix>` — scaffold a probe crate and wire it in (`docs/plugin-guide.md`).
//! * `registry` — IANA well-known suffixes with and without a plugin; fails on bad claims.
//! * `diagnostics [--check]` — regenerate (or check) `docs/diagnostics.md` from the code constants.

mod archive;
mod bench_latency;
mod bench_parse;
mod bench_query;
mod bench_scan;
mod bench_workers;
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

/// What `cargo xtask --help` prints (standard output, exit 0), and what a missing or unknown task
/// prints (standard error, exit 2).
const USAGE: &str = "usage: cargo xtask <task>

  demo [--release] [-- SCAN-ARGS...]  scan the fixture sites served on loopback (the README's first command)
  bench-scan [--origins N] [--latency MS [--runs K] [-- SCAN-ARGS...]]
                                      the scan benchmark with peak RSS (minutes; not part of the tests;
                                      docs/benchmarks/scan.md)
  bench-scan --workers N --db postgres://URL --latency MS [--origins K] [--concurrency C]
                                      a shared scan by N workers against one, and the lease rate
                                      (docs/benchmarks.md)
  bench-parse [--runs N] [--bin BIN] [--against BIN]
                                      the whole `parse sitemap` command on a generated 10 MB sitemap
                                      (docs/benchmarks.md)
  bench-query [--evidence N[,N...]] [--postgres URL]
                                      candidates, diff and graph on synthetic stores of 1 M and 10 M
                                      evidence rows: wall time and peak RSS (docs/benchmarks.md)
  ci [--no-test]                      fmt, clippy -D warnings, tests, docs
  dist [--target TRIPLE]              release archive target/dist/wellknown-<version>-<target>.tar.gz
  new-plugin <suffix> [--force]       scaffold plugins/<suffix> and wire it in
  registry                            IANA suffixes with and without a plugin
  diagnostics [--check]               regenerate (or check) docs/diagnostics.md
  help, --help, -h                    this text";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo::run(&args[1..]),
        Some("bench-parse") => bench_parse::run(&args[1..]),
        Some("bench-scan") => bench_scan::run(&args[1..]),
        Some("bench-query") => bench_query::run(&args[1..]),
        Some("ci") => ci(&args[1..]),
        Some("dist") => dist::run(&args[1..]),
        Some("new-plugin") => new_plugin::run(&args[1..]),
        Some("registry") => registry::run(&args[1..]),
        Some("diagnostics") => diagnostics::run(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            return;
        }
        other => {
            if let Some(task) = other {
                eprintln!("xtask: unknown task {task:?}\n");
            }
            eprintln!("{USAGE}");
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
    without_run_env(&mut cmd);
    if std::env::var_os("CARGO_TARGET_DIR").is_some() {
        // The same directory the tasks then look in, even when the variable is relative.
        cmd.env("CARGO_TARGET_DIR", dist::target_dir(&root));
    }
    let status = cmd.status()?;
    anyhow::ensure!(status.success(), "cargo {} failed ({status})", args.join(" "));
    Ok(())
}

/// Removes from `cmd`'s environment what `cargo run` set for this process and a shell does not
/// have: the package variables (`CARGO_PKG_*`, `CARGO_MANIFEST_DIR`, `CARGO_CRATE_NAME`, ...). Build
/// scripts ask to be rerun when some of them change (ring's `rerun-if-env-changed=CARGO_PKG_NAME`,
/// `CARGO_MANIFEST_DIR`, ...) and cargo compares them in its own environment, so with xtask's values
/// a nested `cargo build` would rebuild ring, rustls and all above them, and the next plain `cargo
/// test` would rebuild them back. Without them, `cargo xtask demo` and `cargo test` share one build.
pub fn without_run_env(cmd: &mut Command) {
    const SET_BY_CARGO_RUN: [&str; 8] = [
        "CARGO_MANIFEST_DIR",
        "CARGO_MANIFEST_PATH",
        "CARGO_MANIFEST_LINKS",
        "CARGO_CRATE_NAME",
        "CARGO_BIN_NAME",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_RUSTC_CURRENT_DIR",
        "OUT_DIR",
    ];
    for (key, _) in std::env::vars_os() {
        if let Some(k) = key.to_str()
            && (k.starts_with("CARGO_PKG_") || SET_BY_CARGO_RUN.contains(&k))
        {
            cmd.env_remove(k);
        }
    }
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
    let mut doc = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    doc.args(["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings").current_dir(workspace_root());
    without_run_env(&mut doc);
    let status = doc.status()?;
    anyhow::ensure!(status.success(), "cargo doc failed ({status})");
    Ok(())
}

#[cfg(test)]
mod usage_tests {
    /// Every task `main` dispatches is in the usage text.
    #[test]
    fn the_usage_names_every_task() {
        let main = include_str!("main.rs");
        let tasks: Vec<&str> = main
            .lines()
            .filter_map(|l| l.trim().strip_prefix("Some(\"")?.split_once('"').map(|(t, _)| t))
            .filter(|t| *t != "help")
            .collect();
        assert_eq!(tasks.len(), 9, "{tasks:?}");
        for t in tasks {
            assert!(super::USAGE.lines().any(|l| l.trim_start().starts_with(t)), "{t} missing from the usage");
        }
    }
}
