//! `cargo xtask bench-query [--evidence N[,N...]] [--postgres URL]`: the analyses on large graphs.
//!
//! For each size (evidence rows; default 1,000,000 and 10,000,000), builds a synthetic store with
//! the store crate's `synthetic_store` example (kept under `target/bench-query/` and reused by
//! later runs), then runs the release binary's `candidates --kind url --in-scope`, `diff 9 10`
//! and `graph --scan 10 --kind url` on it, each writing to `/dev/null`, and prints the wall time
//! and the peak resident set of each: memory should not grow with the graph (docs/benchmarks.md).
//! With `--postgres URL` (a server the caller runs, where URL's role may create databases), the same
//! on PostgreSQL, one database per size (`wellknown_bench_<N>`, reused).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::Context;

use crate::bench_latency::watch;

const USAGE: &str = "usage: cargo xtask bench-query [--evidence N[,N...]] [--postgres URL]";

/// The commands measured, as arguments after `wellknown`.
const COMMANDS: &[&[&str]] = &[
    &["candidates", "--kind", "url", "--in-scope"],
    &["diff", "9", "10"],
    &["graph", "--scan", "10", "--kind", "url"],
];

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut sizes: Vec<u64> = vec![1_000_000, 10_000_000];
    let mut postgres: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--evidence" => {
                let v = it.next().context(USAGE)?;
                sizes = v.split(',').map(|s| s.trim().parse()).collect::<Result<_, _>>().context(USAGE)?;
            }
            "--postgres" => postgres = Some(it.next().context(USAGE)?.clone()),
            other => anyhow::bail!("unknown option {other:?}\n{USAGE}"),
        }
    }
    let root = crate::workspace_root();
    let mut build = Command::new(env!("CARGO"));
    crate::without_run_env(&mut build);
    build.current_dir(&root).args(["build", "--release", "-p", "wellknown", "-p", "wellknown-store"]);
    build.args(["-p", "wellknown-store-postgres", "--example", "synthetic_store", "--example", "synthetic_pg_store"]);
    build.args(["--bin", "wellknown"]);
    anyhow::ensure!(build.status()?.success(), "cargo build --release failed");
    let release = root.join("target/release");
    let work = root.join("target/bench-query");
    std::fs::create_dir_all(&work)?;
    println!("bench-query: {} CPU(s)", std::thread::available_parallelism().map_or(1, |n| n.get()));
    for &n in &sizes {
        let db = work.join(format!("evidence-{n}.db"));
        if !db.exists() {
            let example = release.join("examples/synthetic_store");
            generate(Command::new(example).arg(&db).arg(n.to_string()))?;
        }
        measure("sqlite", n, &release, &db.display().to_string())?;
        if let Some(url) = &postgres {
            let name = format!("wellknown_bench_{n}");
            let db_url = with_database(url, &name)?;
            if create_database(url, &name)? {
                let example = release.join("examples/synthetic_pg_store");
                generate(Command::new(example).arg(&db_url).arg(n.to_string()))?;
            }
            measure("postgres", n, &release, &db_url)?;
        }
    }
    Ok(())
}

fn generate(cmd: &mut Command) -> anyhow::Result<()> {
    let started = Instant::now();
    let out = cmd.output().context("running the synthetic_store example")?;
    anyhow::ensure!(out.status.success(), "synthetic_store: {}", String::from_utf8_lossy(&out.stderr));
    println!("  built: {} ({:.0} s)", String::from_utf8_lossy(&out.stdout).trim(), started.elapsed().as_secs_f64());
    Ok(())
}

fn measure(backend: &str, n: u64, release: &Path, db: &str) -> anyhow::Result<()> {
    for args in COMMANDS {
        let started = Instant::now();
        let child = Command::new(release.join("wellknown"))
            .args(*args)
            .args(["--db", db, "--output", "/dev/null"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("running wellknown")?;
        let w = watch(child, started)?;
        anyhow::ensure!(w.status.code().is_some_and(|c| c <= 1), "wellknown {} failed ({})", args.join(" "), w.status);
        println!(
            "  {backend:<8} {n:>11} evidence rows  {:<42} {:>7.2} s wall {:>6.1} s CPU  peak RSS {:>6.1} MiB",
            args.join(" "),
            w.wall,
            w.cpu,
            w.peak_kib as f64 / 1024.0
        );
    }
    Ok(())
}

/// `url` with its database replaced by `name`.
pub fn with_database(url: &str, name: &str) -> anyhow::Result<String> {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let rest =
        base.strip_prefix("postgres://").or_else(|| base.strip_prefix("postgresql://")).context("a postgres:// URL")?;
    let host = rest.split_once('/').map_or(rest, |(h, _)| h);
    Ok(match query {
        Some(q) => format!("postgres://{host}/{name}?{q}"),
        None => format!("postgres://{host}/{name}"),
    })
}

/// Runs `sql` through `psql` at `url`; its standard output.
pub fn psql(url: &str, sql: &str) -> anyhow::Result<String> {
    let out = Command::new("psql").args([url, "-qtAc", sql]).output().context("running psql")?;
    anyhow::ensure!(out.status.success(), "psql: {}", String::from_utf8_lossy(&out.stderr));
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Creates database `name` through `psql` at `url` unless it exists; true when it created it.
fn create_database(url: &str, name: &str) -> anyhow::Result<bool> {
    if psql(url, &format!("SELECT 1 FROM pg_database WHERE datname = '{name}'"))? == "1" {
        return Ok(false);
    }
    psql(url, &format!("CREATE DATABASE {name}"))?;
    Ok(true)
}
