//! `cargo xtask <task>`: project automation in Rust (the matklad xtask pattern).
//!
//! * `demo` — serve the real-world fixture sites on loopback and scan them with the binary: the main
//!   job on real input, on a machine without internet.
//! * `ci` — what CI runs: fmt check, clippy with `-D warnings`, the test suite, docs.

mod demo;

use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo::run(&args[1..]),
        Some("ci") => ci(),
        _ => {
            eprintln!(
                "usage: cargo xtask <demo|ci>\n\n  demo [--release] [-- SCAN-ARGS...]  scan the fixture sites served on loopback\n  ci                                  fmt, clippy -D warnings, tests, docs"
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
    let status = Command::new(cargo).args(args).current_dir(workspace_root()).status()?;
    anyhow::ensure!(status.success(), "cargo {} failed ({status})", args.join(" "));
    Ok(())
}

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> std::path::PathBuf {
    let here = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(std::path::Path::to_path_buf).unwrap_or(here)
}

fn ci() -> anyhow::Result<()> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    cargo(&["test", "--workspace"])?;
    // SAFETY of env: only this process; rustdoc warnings become errors.
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["doc", "--workspace", "--no-deps"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(workspace_root())
        .status()?;
    anyhow::ensure!(status.success(), "cargo doc failed ({status})");
    Ok(())
}
