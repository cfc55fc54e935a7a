//! `cargo xtask bench-scan --workers N --db postgres://… --latency MS [--origins K] [--concurrency C]`:
//! what sharing a scan costs (docs/benchmarks.md, "Many workers, one database").
//!
//! 1. Builds the release binaries and the `lease_rate` example; lays out K fixture origins (default
//!    200), each under a registrable domain of its own (`o0000-bench.test`: workers lease whole
//!    registrable domains, and `o0000.bench.test` would be one), and serves them behind delay
//!    proxies of MS milliseconds, as the latency benchmark does.
//! 2. Scans them with one process into SQLite at concurrency C (default 16): the reference.
//! 3. Records the same scan in a fresh PostgreSQL database (`scan --workers-only`) and runs it with
//!    one `wellknown work` at concurrency C, then again (another fresh database) with N workers at
//!    concurrency C/N each, all started together; wall time from the first worker's start to the
//!    last one's exit, and each worker's peak RSS. Goal: N workers within 1.15 x one worker.
//! 4. The write rate: the records the reference scan wrote (its JSON Lines output, which the store
//!    mirrors) over each run's wall time.
//! 5. Lease throughput: `lease_rate` with 10,000 one-unit groups and 32 idle workers asking (each
//!    leases, then writes the unit done and releases its group in one transaction, nothing else),
//!    one group per lease and then 16 (each group still completed on its own, as slots do); then
//!    50,000 groups, one a lease (a lease's cost must not grow with the scan). Goal: 2,000 units a
//!    second.
//!
//! URL names a role that may create databases (`wellknown_bench_workers_*`, made anew each run).

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use anyhow::Context;

use crate::bench_latency::{server_addresses, start_server, watch};
use crate::bench_scan::lay_out_named;
use crate::{cargo, workspace_root};

/// What `--workers` runs.
pub struct Options {
    /// Workers of the shared run.
    pub workers: usize,
    /// The PostgreSQL server (a role that may create databases).
    pub db: String,
    /// Round trip, milliseconds.
    pub latency_ms: u64,
    /// Origins laid out.
    pub origins: usize,
    /// Origins in flight of the single process (the workers share it).
    pub concurrency: usize,
}

struct Measured {
    wall: f64,
    peak_kib: Vec<u64>,
}

pub fn run(opts: &Options) -> anyhow::Result<()> {
    anyhow::ensure!(opts.workers >= 1 && opts.concurrency >= opts.workers, "--concurrency must be at least --workers");
    cargo(&["build", "--release", "-p", "wellknown", "-p", "wellknown-tests", "--bins"])?;
    cargo(&["build", "--release", "-p", "wellknown-store-postgres", "--example", "lease_rate"])?;
    let root = workspace_root();
    let target = crate::dist::target_dir(&root);
    let bin = target.join("release");
    let work = target.join("bench-workers");
    // Each origin under a registrable domain of its own: workers lease whole registrable domains.
    let sites = lay_out_named(&root.join("tests").join("fixtures").join("sites"), &work, opts.origins, |i| {
        format!("o{i:04}-bench.test")
    })?;
    let (ca, log) = (work.join("ca.pem"), work.join("server.log"));
    let mut server = start_server(&bin, &sites, opts.latency_ms, &ca, &log)?;
    let result = (|| {
        let (http, https) = server_addresses(&mut server)?;
        let routing: Vec<String> = vec![
            "--allow-private".into(),
            "--quiet".into(),
            "--connect-to".into(),
            format!(":443:{https}"),
            "--connect-to".into(),
            format!(":80:{http}"),
            "--ca-cert".into(),
            ca.display().to_string(),
        ];
        println!(
            "bench-scan --workers: {} origins, round trip {} ms, {} CPU(s)",
            opts.origins,
            opts.latency_ms,
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
        let (single, records) = sqlite_scan(&bin, &work, &routing, opts.concurrency)?;
        report("SQLite, one process", opts.concurrency, &single, records);
        let one = shared(&bin, &work, &routing, &opts.db, 1, opts.concurrency)?;
        report("PostgreSQL, 1 worker", opts.concurrency, &one, records);
        let per = opts.concurrency / opts.workers;
        let many = shared(&bin, &work, &routing, &opts.db, opts.workers, per)?;
        report(&format!("PostgreSQL, {} workers", opts.workers), per, &many, records);
        println!(
            "  {} workers / 1 worker: {:.2} x wall (goal 1.15 at most); PostgreSQL 1 worker / SQLite: {:.2} x",
            opts.workers,
            many.wall / one.wall,
            one.wall / single.wall
        );
        for (units, per_lease) in [("10000", "1"), ("10000", "16"), ("50000", "1")] {
            let url = fresh_database(&opts.db, &format!("wellknown_bench_workers_lease_{per_lease}"))?;
            let out = Command::new(bin.join("examples/lease_rate"))
                .args([url.as_str(), units, "32", per_lease])
                .output()
                .context("running lease_rate")?;
            anyhow::ensure!(out.status.success(), "lease_rate: {}", String::from_utf8_lossy(&out.stderr));
            println!("  leases: {}", String::from_utf8_lossy(&out.stdout).trim());
        }
        Ok(())
    })();
    let _ = server.kill();
    let _ = server.wait();
    result
}

fn report(what: &str, concurrency: usize, m: &Measured, records: usize) {
    let peaks: Vec<String> = m.peak_kib.iter().map(|k| format!("{:.1}", *k as f64 / 1024.0)).collect();
    println!(
        "  {what:<24} concurrency {concurrency:>3}: {:>7.2} s wall, {:>7.0} records stored/s, peak RSS {} MiB",
        m.wall,
        records as f64 / m.wall,
        peaks.join(" / ")
    );
}

/// The reference: one `wellknown scan` into a fresh SQLite store. Returns its measure and the
/// records it wrote.
fn sqlite_scan(bin: &Path, work: &Path, routing: &[String], concurrency: usize) -> anyhow::Result<(Measured, usize)> {
    let db = work.join("single.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let output = work.join("single.jsonl");
    let started = Instant::now();
    let child = Command::new(bin.join("wellknown"))
        .arg("scan")
        .arg("--list")
        .arg(work.join("targets.txt"))
        .args(routing)
        .args(["--concurrency", &concurrency.to_string(), "--db"])
        .arg(&db)
        .arg("--output")
        .arg(&output)
        .stdin(Stdio::null())
        .spawn()
        .context("running wellknown scan")?;
    let w = watch(child, started)?;
    anyhow::ensure!(w.status.code().is_some_and(|c| c <= 1), "wellknown scan failed ({})", w.status);
    let records = std::fs::read_to_string(&output)?.lines().count();
    Ok((Measured { wall: w.wall, peak_kib: vec![w.peak_kib] }, records))
}

/// A shared scan of the targets in a fresh database, run by `workers` processes at `concurrency`.
fn shared(
    bin: &Path,
    work: &Path,
    routing: &[String],
    server: &str,
    workers: usize,
    concurrency: usize,
) -> anyhow::Result<Measured> {
    let url = fresh_database(server, &format!("wellknown_bench_workers_{workers}"))?;
    let record = Command::new(bin.join("wellknown"))
        .args(["scan", "--db", &url, "--workers-only", "--list"])
        .arg(work.join("targets.txt"))
        .args(routing)
        .output()
        .context("recording the shared scan")?;
    anyhow::ensure!(record.status.success(), "scan --workers-only: {}", String::from_utf8_lossy(&record.stderr));
    let started = Instant::now();
    let children: Vec<Child> = (0..workers)
        .map(|_| {
            Command::new(bin.join("wellknown"))
                .args(["work", "--db", &url])
                .args(routing)
                .args(["--concurrency", &concurrency.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .context("running wellknown work")
        })
        .collect::<Result<_, _>>()?;
    // Each worker is watched on a thread of its own (peak RSS sampled every 20 ms).
    let watchers: Vec<_> = children.into_iter().map(|c| std::thread::spawn(move || watch(c, started))).collect();
    let mut peak_kib = Vec::new();
    let mut wall: f64 = 0.0;
    for w in watchers {
        let w = w.join().map_err(|_| anyhow::anyhow!("a watcher panicked"))??;
        anyhow::ensure!(w.status.success(), "wellknown work failed ({})", w.status);
        wall = wall.max(w.wall);
        peak_kib.push(w.peak_kib);
    }
    Ok(Measured { wall, peak_kib })
}

/// Drops and creates database `name` on the server of `url` (through `psql`); returns its URL.
fn fresh_database(url: &str, name: &str) -> anyhow::Result<String> {
    for sql in [format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"), format!("CREATE DATABASE {name}")] {
        crate::bench_query::psql(url, &sql)?;
    }
    crate::bench_query::with_database(url, name)
}
