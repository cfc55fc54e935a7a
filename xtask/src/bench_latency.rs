//! `cargo xtask bench-scan --latency MS [--origins N] [--runs K] [-- SCAN-ARGS...]`: the scan on a
//! network with a round trip of MS milliseconds (docs/benchmarks/scan.md, "Latency").
//!
//! 1. Builds the release binaries (`wellknown`, `fixture-server`, `plain-fetch`) and lays out N
//!    fixture origins (default 1,000) as the throughput benchmark does, in `target/bench-latency`.
//! 2. Serves them with `fixture-server --tls --log --latency MS`: every connection goes through a
//!    delay proxy (`wellknown_tests::DelayProxy`: MS/2 each way per chunk, one more MS per new
//!    connection, so TCP set-up, TLS handshakes and every request pay real round trips).
//! 3. Scans them K times (default 1) with the product's defaults — only `--allow-private`,
//!    `--connect-to`, `--ca-cert`, `--db`, `--output` and `--quiet`, which the loopback set-up needs,
//!    plus SCAN-ARGS — from a directory without `wellknown.toml` and without `WELLKNOWN_*` variables;
//!    measures wall time and peak RSS (VmHWM).
//! 4. Computes the lower bound of each run's requests (the fixture server's log) and dependency
//!    chains (the scan's records): [`crate::latency_bound`].
//! 5. Sends the first run's requests again with `plain-fetch` (the same per-host concurrency and
//!    rate, every host at once, no parsing) through the same proxies: the plain async fetcher.
//! 6. Prints every figure and the ratios.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::bench_scan::{lay_out, peak_rss_kib};
use crate::latency_bound::{Bound, Model, Records, Served};
use crate::{cargo, workspace_root};

/// What `--latency` runs.
pub struct Options {
    /// Round trip, milliseconds.
    pub latency_ms: u64,
    /// Origins laid out.
    pub origins: usize,
    /// Scans made (the baseline runs once).
    pub runs: usize,
    /// Extra `wellknown scan` arguments (after `--`).
    pub scan_args: Vec<String>,
}

/// The politeness the scan runs with: the product defaults, or SCAN-ARGS.
struct Politeness {
    /// Origins in flight (`--concurrency`), when known.
    concurrency: Option<usize>,
    per_host: usize,
    rate: f64,
}

/// One scan.
struct Run {
    wall: f64,
    peak_kib: u64,
    cpu: f64,
    requests: Vec<Served>,
    /// Connections the proxies accepted during the scan.
    connections: u64,
    bound: Bound,
    summary: serde_json::Value,
}

pub fn run(opts: &Options) -> anyhow::Result<()> {
    cargo(&["build", "--release", "-p", "wellknown", "-p", "wellknown-tests", "--bins"])?;
    let root = workspace_root();
    let target = crate::dist::target_dir(&root);
    let bin = target.join("release");
    let work = target.join("bench-latency");
    let sites = lay_out(&root.join("tests").join("fixtures").join("sites"), &work, opts.origins)?;
    let targets = std::fs::read_to_string(work.join("targets.txt"))?;
    let hosts: Vec<String> = targets.lines().map(crate::latency_bound::host_of).collect();
    let politeness = politeness(&root, &opts.scan_args)?;
    let model = Model { rtt: opts.latency_ms as f64 / 1000.0, per_host: politeness.per_host, rate: politeness.rate };

    let ca = work.join("ca.pem");
    let log_path = work.join("server.log");
    let mut server = start_server(&bin, &sites, opts.latency_ms, &ca, &log_path)?;
    let result = (|| {
        let proxies = server_addresses(&mut server)?;
        let mut log = Log { path: log_path.clone(), seen: 0, connections: 0 };
        let mut runs = Vec::new();
        for i in 0..opts.runs.max(1) {
            let run = scan(&bin, &work, &proxies, &ca, opts, &model, &mut log)?;
            print_run(i + 1, &run);
            runs.push(run);
        }
        let baseline = plain_fetch(&bin, &work, &proxies, &ca, &politeness, &runs[0].requests, &mut log)?;
        report(opts, &politeness, &model, &hosts, &runs, &baseline);
        Ok(())
    })();
    let _ = server.kill();
    let _ = server.wait();
    result
}

/// Starts `fixture-server` on the laid-out `sites` behind delay proxies of `latency_ms` (TLS, request
/// log on standard error into `log_path`, its CA written to `ca`).
pub fn start_server(bin: &Path, sites: &Path, latency_ms: u64, ca: &Path, log_path: &Path) -> anyhow::Result<Child> {
    Command::new(bin.join("fixture-server"))
        .arg("--root")
        .arg(sites)
        .args(["--tls", "--log", "--latency", &latency_ms.to_string(), "--ca-out"])
        .arg(ca)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log_path)?)
        .spawn()
        .with_context(|| format!("starting {}", bin.join("fixture-server").display()))
}

/// The `(http, https)` addresses the server of [`start_server`] announces on its first line.
pub fn server_addresses(server: &mut Child) -> anyhow::Result<(String, String)> {
    let mut first = String::new();
    BufReader::new(server.stdout.take().context("fixture-server stdout")?).read_line(&mut first)?;
    let addr = |key: &str| first.split_whitespace().find_map(|p| p.strip_prefix(key)).map(str::to_string);
    addr("http=").zip(addr("https=")).with_context(|| format!("fixture-server said {first:?}"))
}

/// The defaults of `crates/cli/src/config.rs` (`impl Default for Settings`), overridden by
/// `--concurrency`, `--per-host` and `--rate` in `scan_args`.
fn politeness(root: &Path, scan_args: &[String]) -> anyhow::Result<Politeness> {
    let config = root.join("crates/cli/src/config.rs");
    let src = std::fs::read_to_string(&config).with_context(|| format!("reading {}", config.display()))?;
    let default = |key: &str| setting_default(&src, key);
    let given = |flag: &str| -> Option<String> {
        let mut it = scan_args.iter();
        let mut found = None;
        while let Some(a) = it.next() {
            if a == flag {
                found = it.next().cloned();
            } else if let Some(v) = a.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                found = Some(v.to_string());
            }
        }
        found
    };
    let pick = |flag: &str, key: &str| given(flag).or_else(|| default(key));
    let per_host = pick("--per-host", "per_host")
        .and_then(|v| v.parse().ok())
        .with_context(|| format!("no `per_host:` default found in {}", config.display()))?;
    let rate = pick("--rate", "rate")
        .and_then(|v| v.parse().ok())
        .with_context(|| format!("no `rate:` default found in {}", config.display()))?;
    let concurrency = pick("--concurrency", "concurrency").and_then(|v| v.parse().ok());
    Ok(Politeness { concurrency, per_host, rate })
}

/// The value written for `key` in `impl Default for Settings` (`per_host: 2,` -> `2`).
pub fn setting_default(src: &str, key: &str) -> Option<String> {
    let block = src.split("impl Default for Settings").nth(1)?;
    let block = &block[..block.find("\n}")?];
    block.lines().find_map(|l| {
        let (k, v) = l.trim().split_once(':')?;
        (k.trim() == key).then(|| v.trim().trim_end_matches(',').replace('_', ""))
    })
}

/// The fixture server's log file, read on from where the last cut ended.
struct Log {
    path: PathBuf,
    /// Lines already taken.
    seen: usize,
    /// The proxies' connection count as last printed (a `proxy connections=N` line).
    connections: u64,
}

impl Log {
    /// The lines written since the last cut, once the server has printed everything it answered
    /// (it prints every 200 ms: the file is read until two reads 500 ms apart agree).
    fn cut(&mut self) -> anyhow::Result<Vec<String>> {
        let mut last: Option<usize> = None;
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let text = std::fs::read_to_string(&self.path)?;
            let n = text.lines().count();
            if last == Some(n) {
                let lines: Vec<String> = text.lines().skip(self.seen).map(str::to_string).collect();
                self.seen = n;
                if let Some(c) = connections_in(&lines) {
                    self.connections = c;
                }
                return Ok(lines);
            }
            last = Some(n);
        }
    }
}

/// The requests of a cut.
fn requests_of(lines: &[String]) -> Vec<Served> {
    lines.iter().filter_map(|l| Served::parse(l)).collect()
}

/// The proxies' connection count in the last `proxy connections=N` line of a cut.
fn connections_in(lines: &[String]) -> Option<u64> {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("proxy connections="))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// A child process run to its end.
pub struct Watched {
    /// Seconds from `started`.
    pub wall: f64,
    /// Peak resident set, KiB.
    pub peak_kib: u64,
    /// User and system CPU seconds, as last sampled (at most 20 ms before it exited).
    pub cpu: f64,
    /// How it ended.
    pub status: std::process::ExitStatus,
}

/// Runs `child` to its end, sampling its peak RSS and CPU time every 20 ms.
pub fn watch(mut child: Child, started: Instant) -> anyhow::Result<Watched> {
    let pid = child.id();
    let (mut peak_kib, mut cpu) = (0, 0.0);
    let status = loop {
        if let Some(kib) = peak_rss_kib(pid) {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(c) = cpu_seconds(pid) {
            cpu = c;
        }
        if let Some(s) = child.try_wait()? {
            break s;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Watched { wall: started.elapsed().as_secs_f64(), peak_kib, cpu, status })
}

/// utime + stime of `/proc/PID/stat` (fields 14 and 15), at the usual 100 ticks a second.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn scan(
    bin: &Path,
    work: &Path,
    (http, https): &(String, String),
    ca: &Path,
    opts: &Options,
    model: &Model,
    log: &mut Log,
) -> anyhow::Result<Run> {
    log.cut()?;
    let connections_before = log.connections;
    let (mut cmd, output, _) = crate::bench_scan::scan_command(bin, work, (http, https), ca);
    cmd.args(&opts.scan_args).current_dir(work);
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().to_ascii_uppercase().starts_with("WELLKNOWN_") {
            cmd.env_remove(k);
        }
    }
    let started = Instant::now();
    let child = cmd.spawn().context("running wellknown scan")?;
    let Watched { wall, peak_kib, cpu, status } = watch(child, started)?;
    anyhow::ensure!(status.code().is_some_and(|c| c <= 1), "wellknown scan failed ({status})");
    let requests = requests_of(&log.cut()?);
    anyhow::ensure!(!requests.is_empty(), "the fixture server answered no request");
    let (records, summary) = read_records(&output)?;
    let bound = Bound::compute(model, &requests, &records);
    let connections = log.connections.saturating_sub(connections_before);
    Ok(Run { wall, peak_kib, cpu, requests, connections, bound, summary })
}

/// The scan's records, in two passes over the file (documents and verifications, then the
/// declarations of the URLs those requested), and its summary.
fn read_records(output: &Path) -> anyhow::Result<(Records, serde_json::Value)> {
    let mut records = Records::default();
    let mut summary = serde_json::Value::Null;
    let lines = || -> anyhow::Result<_> {
        let file = std::fs::File::open(output).with_context(|| format!("reading {}", output.display()))?;
        Ok(BufReader::new(file).lines().map_while(Result::ok))
    };
    for line in lines()? {
        if !(line.contains("\"type\":\"document\"")
            || line.contains("\"type\":\"verification\"")
            || line.contains("\"type\":\"summary\""))
        {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
        if v["type"] == "summary" {
            summary = v;
        } else {
            records.add_line(&v);
        }
    }
    let wanted = records.wanted();
    for line in lines()? {
        if !(line.contains("\"type\":\"candidate\"") || line.contains("\"type\":\"evidence\"")) {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
        records.add_declaration(&v, &wanted);
    }
    Ok((records, summary))
}

/// What `plain-fetch` did.
struct Baseline {
    wall: f64,
    peak_kib: u64,
    cpu: f64,
    said: serde_json::Value,
    served: usize,
}

fn plain_fetch(
    bin: &Path,
    work: &Path,
    (http, https): &(String, String),
    ca: &Path,
    politeness: &Politeness,
    requests: &[Served],
    log: &mut Log,
) -> anyhow::Result<Baseline> {
    let list = work.join("requests.txt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&list)?);
    for s in requests {
        writeln!(f, "{} {}", s.method, s.url)?;
    }
    f.flush()?;
    drop(f);
    log.cut()?;
    let started = Instant::now();
    let mut child = Command::new(bin.join("plain-fetch"))
        .arg("--list")
        .arg(&list)
        .args(["--http", http, "--https", https])
        .arg("--ca-cert")
        .arg(ca)
        .args(["--per-host", &politeness.per_host.to_string(), "--rate", &politeness.rate.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .context("running plain-fetch")?;
    // One line of output: it fits the pipe, so it is read once the child has exited.
    let mut stdout = child.stdout.take().context("plain-fetch stdout")?;
    let Watched { wall, peak_kib, cpu, status } = watch(child, started)?;
    anyhow::ensure!(status.success(), "plain-fetch failed ({status})");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text)?;
    let said: serde_json::Value =
        serde_json::from_str(text.trim()).with_context(|| format!("plain-fetch said {text:?}"))?;
    let served = requests_of(&log.cut()?).len();
    Ok(Baseline { wall, peak_kib, cpu, said, served })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// `5/s`, or `none` for 0 (no spacing).
fn rate_text(rate: f64) -> String {
    if rate > 0.0 { format!("{rate}/s") } else { "none".into() }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn print_run(i: usize, run: &Run) {
    println!(
        "  run {i}: {:.2} s wall, {:.1} s CPU, peak RSS {:.1} MiB, {} requests, {} connections, bound {:.2} s, scan / bound {:.2}",
        run.wall,
        run.cpu,
        mib(run.peak_kib),
        run.requests.len(),
        run.connections,
        run.bound.seconds(),
        run.wall / run.bound.seconds()
    );
}

/// `hosts`: the target hosts in list order.
fn report(opts: &Options, p: &Politeness, model: &Model, hosts: &[String], runs: &[Run], base: &Baseline) {
    let wall = median(runs.iter().map(|r| r.wall).collect());
    let peak = runs.iter().map(|r| r.peak_kib).max().unwrap_or(0);
    let first = &runs[0];
    let bound = first.bound.seconds();
    let concurrency = p.concurrency.map_or_else(|| "?".into(), |c| c.to_string());
    println!(
        "bench-scan --latency {}: {} origins over HTTPS, {} ms round trip (delay proxy), scan defaults{}: concurrency {concurrency}, per host {}, rate {}",
        opts.latency_ms,
        opts.origins,
        opts.latency_ms,
        if opts.scan_args.is_empty() { String::new() } else { format!(" with {}", opts.scan_args.join(" ")) },
        p.per_host,
        rate_text(p.rate),
    );
    println!(
        "  scan: median {wall:.2} s of {} run(s) ({}), median CPU {:.1} s, peak RSS {:.1} MiB (largest)",
        runs.len(),
        runs.iter().map(|r| format!("{:.2}", r.wall)).collect::<Vec<_>>().join(", "),
        median(runs.iter().map(|r| r.cpu).collect()),
        mib(peak)
    );
    let gets = first.requests.iter().filter(|s| s.method == "GET").count();
    println!(
        "  requests: {} ({gets} GET, {} HEAD) to {} hosts; summary: documents {}, verification_requests {}",
        first.requests.len(),
        first.requests.len() - gets,
        first.bound.hosts.len(),
        first.summary["documents"],
        first.summary["verification_requests"]
    );
    println!("  lower bound (every host at once): {bound:.2} s; scan / bound: {:.2}", wall / bound);
    if let Some(c) = p.concurrency {
        let at = first.bound.at_concurrency(c);
        println!(
            "  lower bound with {c} origins in flight (sum of host bounds / {c}): {at:.2} s; scan / that: {:.2}",
            wall / at
        );
        let listed = first.bound.in_list_order(c, hosts);
        println!(
            "  not a bound: every host at exactly its bound, taken in list order by {c} slots: {listed:.2} s; scan / that: {:.2}",
            wall / listed
        );
    }
    for h in first.bound.hosts.iter().take(3) {
        println!(
            "    {}: {} requests, chain {} (+{} set-up round trips): chain {:.2} s, rate {:.2} s, per-host concurrency {:.2} s",
            h.host, h.requests, h.chain, h.setup_rtts, h.chain_s, h.rate_s, h.concurrency_s
        );
    }
    let longest = first.bound.hosts.iter().map(|h| h.chain).max().unwrap_or(0);
    println!(
        "    longest chain of any host: {longest} requests ({:.2} s at {} ms)",
        f64::from(longest) * model.rtt,
        opts.latency_ms
    );
    println!(
        "  plain fetcher (same {} requests, per host {}, rate {}, every host at once): {:.2} s, {:.1} s CPU, peak RSS {:.1} MiB, server answered {}; {}",
        first.requests.len(),
        p.per_host,
        rate_text(p.rate),
        base.wall,
        base.cpu,
        mib(base.peak_kib),
        base.served,
        base.said
    );
    println!("  scan / plain fetcher: {:.2}; plain fetcher / bound: {:.2}", wall / base.wall, base.wall / bound);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_product_defaults() {
        let src = std::fs::read_to_string(workspace_root().join("crates/cli/src/config.rs")).unwrap();
        let per_host: usize = setting_default(&src, "per_host").unwrap().parse().unwrap();
        let rate: f64 = setting_default(&src, "rate").unwrap().parse().unwrap();
        assert!(per_host >= 1 && rate >= 0.0);
        let fake = "struct Settings { per_host: usize }\nimpl Default for Settings {\n    fn default() -> Self {\n        Settings {\n            concurrency: 1_000,\n            per_host: 2,\n        }\n    }\n}\n";
        assert_eq!(setting_default(fake, "concurrency").as_deref(), Some("1000"));
        assert_eq!(setting_default(fake, "per_host").as_deref(), Some("2"));
        assert_eq!(setting_default(fake, "rate"), None);
    }
}
