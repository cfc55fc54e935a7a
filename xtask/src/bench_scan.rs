//! `cargo xtask bench-scan [--origins N] [--concurrency N] [--seconds S]`: the scan benchmark of
//! docs/benchmarks/scan.md. With `--latency MS`, the latency benchmark instead
//! ([`crate::bench_latency`]).
//!
//! 1. Builds the release binaries (`wellknown`, `fixture-server`).
//! 2. Lays out N fixture origins (`oNNNN.bench.test`, default 2,000) in `target/bench-scan/sites`,
//!    each a symlink to one of the real-world fixture sites, so every origin has real documents.
//! 3. Serves them with `fixture-server` (HTTPS and HTTP on loopback, a throwaway CA; it answers for
//!    any Host).
//! 4. Scans `https://oNNNN.bench.test` with the product's defaults — every plugin, verification,
//!    depth 1, the store (`target/bench-scan/wellknown.db`), 16 units at a time, 2 requests per host
//!    — except `--rate 0` (no per-host request spacing on loopback), and samples the scan's peak
//!    resident memory (VmHWM) while it runs.
//! 5. Replays the same requests (hosts and paths taken from the scan's records; HEAD sent as GET,
//!    which wrk cannot read) against the same fixture server with `wrk` over HTTPS with keep-alive
//!    (installed with apt-get when missing): the ceiling.
//! 6. Prints origins/s, requests/s, the ratio to the ceiling and the peak RSS.
//!
//! Not part of `cargo test`: it takes a minute and needs `wrk`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use crate::{cargo, workspace_root};

struct Options {
    origins: usize,
    concurrency: usize,
    seconds: u32,
}

/// The throughput benchmark's options, or the latency benchmark's (`--latency`).
enum Mode {
    Throughput(Options),
    Latency(crate::bench_latency::Options),
    /// `--workers N --db URL`: a shared scan against one process ([`crate::bench_workers`]).
    Workers(crate::bench_workers::Options),
}

const USAGE: &str = "bench-scan [--origins N] [--concurrency N] [--seconds S] | bench-scan --latency MS [--origins N] [--runs K] [-- SCAN-ARGS...] | bench-scan --workers N --db postgres://... --latency MS [--origins K] [--concurrency C]";

fn options(args: &[String]) -> anyhow::Result<Mode> {
    let mut o = Options { origins: 2000, concurrency: 16, seconds: 10 };
    let (mut latency, mut runs, mut origins_given, mut throughput_only) = (None, 1, false, None);
    let (mut workers, mut db): (Option<usize>, Option<String>) = (None, None);
    let mut scan_args = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--origins" => {
                o.origins = value()?.parse()?;
                origins_given = true;
            }
            "--concurrency" => {
                o.concurrency = value()?.parse()?;
                throughput_only = Some(a.clone());
            }
            "--seconds" => {
                o.seconds = value()?.parse()?;
                throughput_only = Some(a.clone());
            }
            "--latency" => latency = Some(value()?.parse::<u64>().context("--latency: milliseconds")?),
            "--runs" => runs = value()?.parse::<usize>().context("--runs: a count")?.max(1),
            "--workers" => workers = Some(value()?.parse::<usize>().context("--workers: a count")?),
            "--db" => db = Some(value()?.clone()),
            "--" => scan_args = it.by_ref().cloned().collect(),
            other => bail!("bench-scan: unknown argument {other:?} (usage: {USAGE})"),
        }
    }
    if let Some(workers) = workers {
        let db = db.context("bench-scan: --workers needs --db postgres://... (a role that may create databases)")?;
        let latency_ms = latency.context("bench-scan: --workers needs --latency MS")?;
        let origins = if origins_given { o.origins } else { 200 };
        return Ok(Mode::Workers(crate::bench_workers::Options {
            workers,
            db,
            latency_ms,
            origins,
            concurrency: o.concurrency,
        }));
    }
    anyhow::ensure!(db.is_none(), "bench-scan: --db is for --workers");
    let Some(latency_ms) = latency else {
        anyhow::ensure!(scan_args.is_empty() && runs == 1, "bench-scan: --runs and SCAN-ARGS need --latency");
        return Ok(Mode::Throughput(o));
    };
    anyhow::ensure!((1..=60_000).contains(&latency_ms), "bench-scan: --latency takes 1 to 60000 milliseconds");
    if let Some(flag) = throughput_only {
        bail!("bench-scan: {flag} is for the throughput benchmark; with --latency, pass scan options after `--`");
    }
    let origins = if origins_given { o.origins } else { 1000 };
    Ok(Mode::Latency(crate::bench_latency::Options { latency_ms, origins, runs, scan_args }))
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let opts = match options(args)? {
        Mode::Throughput(o) => o,
        Mode::Latency(o) => return crate::bench_latency::run(&o),
        Mode::Workers(o) => return crate::bench_workers::run(&o),
    };
    ensure_wrk()?;
    cargo(&["build", "--release", "-p", "wellknown", "-p", "wellknown-tests", "--bins"])?;
    let root = workspace_root();
    let target = crate::dist::target_dir(&root);
    let bin = target.join("release");
    let work = target.join("bench-scan");
    let sites = lay_out(&root.join("tests").join("fixtures").join("sites"), &work, opts.origins)?;

    let ca = work.join("ca.pem");
    let mut server = Command::new(bin.join("fixture-server"))
        .arg("--root")
        .arg(&sites)
        .arg("--tls")
        .arg("--ca-out")
        .arg(&ca)
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", bin.join("fixture-server").display()))?;
    let mut first = String::new();
    BufReader::new(server.stdout.take().context("fixture-server stdout")?).read_line(&mut first)?;
    let port = |key: &str| -> Option<u16> {
        first
            .split_whitespace()
            .find_map(|p| p.strip_prefix(key))
            .and_then(|a| a.rsplit_once(':'))
            .and_then(|(_, p)| p.parse().ok())
    };
    let ports = port("http=").zip(port("https=")).with_context(|| format!("fixture-server said {first:?}"))?;
    let result = measure(&bin, &work, ports, &ca, &opts);
    let _ = server.kill();
    let _ = server.wait();
    result
}

fn ensure_wrk() -> anyhow::Result<()> {
    if Command::new("wrk").arg("--version").output().is_ok() {
        return Ok(());
    }
    eprintln!("xtask: installing wrk (apt-get)");
    let ok = Command::new("apt-get").args(["install", "-y", "-qq", "wrk"]).status()?.success()
        || (Command::new("apt-get").args(["update", "-qq"]).status()?.success()
            && Command::new("apt-get").args(["install", "-y", "-qq", "wrk"]).status()?.success());
    anyhow::ensure!(ok, "could not install wrk; install it and run again");
    Ok(())
}

/// `work/sites/oNNNN.bench.test` -> a real-world fixture site, round robin. Returns `work/sites`.
pub fn lay_out(fixtures: &Path, work: &Path, n: usize) -> anyhow::Result<PathBuf> {
    lay_out_named(fixtures, work, n, |i| format!("o{i:04}.bench.test"))
}

/// [`lay_out`] with origin `i` named `host(i)`: the shared-scan benchmark names each origin under a
/// registrable domain of its own (`o0000-bench.test`), as a list of real sites would be, since
/// workers lease whole registrable domains.
pub fn lay_out_named(
    fixtures: &Path,
    work: &Path,
    n: usize,
    host: impl Fn(usize) -> String,
) -> anyhow::Result<PathBuf> {
    let mut real: Vec<PathBuf> = std::fs::read_dir(fixtures)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            // Real hosts only: the synthetic ones stall, loop or are oversized on purpose.
            !(name.ends_with(".test") || name.ends_with(".example") || name.ends_with(".invalid"))
                && name.parse::<std::net::IpAddr>().is_err()
        })
        .collect();
    real.sort();
    anyhow::ensure!(!real.is_empty(), "no real-world fixture sites under {}", fixtures.display());
    let sites = work.join("sites");
    if sites.exists() {
        std::fs::remove_dir_all(&sites)?;
    }
    std::fs::create_dir_all(&sites)?;
    let mut list = String::new();
    for i in 0..n {
        let host = host(i);
        std::os::unix::fs::symlink(&real[i % real.len()], sites.join(&host))?;
        list.push_str(&format!("https://{host}\n"));
    }
    std::fs::write(work.join("targets.txt"), list)?;
    eprintln!("xtask: {n} origins over {} real-world fixture sites", real.len());
    Ok(sites)
}

/// `http(s)://host[:port]/path?query#fragment` -> (host, `/path?query`); None for other schemes.
fn split_http(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let host = authority.rsplit_once(':').map_or(authority, |(h, _)| h);
    let path = path.split('#').next().unwrap_or("/");
    Some((host.to_string(), path.to_string()))
}

/// The peak resident set (VmHWM) of process `pid` so far, KiB; `None` once it is gone.
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The benchmarks' scan: `wellknown scan` of `work/targets.txt` with every origin's ports sent to
/// the fixture server (`http`, `https`: `ADDR:PORT`), trusting its CA, a fresh store
/// `work/wellknown.db` (the old one and its `-wal`/`-shm` removed) and output `work/scan.jsonl`.
/// Returns the command (callers add their own options), the output path and the store path.
pub fn scan_command(bin: &Path, work: &Path, (http, https): (&str, &str), ca: &Path) -> (Command, PathBuf, PathBuf) {
    let db = work.join("wellknown.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let output = work.join("scan.jsonl");
    let mut cmd = Command::new(bin.join("wellknown"));
    cmd.arg("scan")
        .arg("--list")
        .arg(work.join("targets.txt"))
        .args(["--allow-private", "--quiet"])
        .arg("--connect-to")
        .arg(format!(":443:{https}"))
        .arg("--connect-to")
        .arg(format!(":80:{http}"))
        .arg("--ca-cert")
        .arg(ca)
        .arg("--db")
        .arg(&db)
        .arg("--output")
        .arg(&output)
        .stdin(Stdio::null());
    (cmd, output, db)
}

fn measure(bin: &Path, work: &Path, (http, https): (u16, u16), ca: &Path, opts: &Options) -> anyhow::Result<()> {
    let (http, https) = (format!("127.0.0.1:{http}"), format!("127.0.0.1:{https}"));
    let (mut cmd, output, db) = scan_command(bin, work, (&http, &https), ca);
    let started = Instant::now();
    let mut child = cmd
        .args(["--rate", "0"])
        .args(["--concurrency", &opts.concurrency.to_string()])
        .spawn()
        .context("running wellknown scan")?;
    let pid = child.id();
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = peak_rss_kib(pid) {
            peak = peak.max(kib);
        }
        if let Some(s) = child.try_wait()? {
            break s;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed().as_secs_f64();
    anyhow::ensure!(status.code().is_some_and(|c| c <= 1), "wellknown scan failed ({status})");

    let text = std::fs::read_to_string(&output)?;
    let mut requests: Vec<(String, String, String)> = Vec::new();
    let (mut documents, mut verified, mut units) = (0usize, 0usize, 0usize);
    let mut summary = serde_json::Value::Null;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let mut push = |method: &str, url: &str| {
            if let Some((host, path)) = split_http(url) {
                requests.push((method.to_string(), host, path));
            }
        };
        match v["type"].as_str() {
            Some("document") if v["failure"]["class"] != "out_of_scope" => {
                documents += 1;
                push("GET", v["requested_url"].as_str().unwrap_or_default());
                for hop in v["redirect_chain"].as_array().into_iter().flatten().skip(1) {
                    push("GET", hop["url"].as_str().unwrap_or_default());
                }
            }
            Some("verification") if v["source"] == "request" => {
                verified += 1;
                let value = v["value"].as_str().unwrap_or_default();
                if v["method"] == "GET" {
                    push("HEAD", value);
                }
                push(v["method"].as_str().unwrap_or("HEAD"), value);
            }
            Some("origin") => units += 1,
            Some("summary") => summary = v,
            _ => {}
        }
    }
    anyhow::ensure!(!requests.is_empty(), "the scan made no request");
    let scan_rps = requests.len() as f64 / elapsed;

    // The ceiling: the same requests replayed by wrk (a request list read at start-up: a Lua
    // table literal of 100,000 entries is over LuaJIT's constant limit).
    let list = work.join("replay.txt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&list)?);
    for (_, h, p) in &requests {
        writeln!(f, "{h} {p}")?;
    }
    f.flush()?;
    drop(f);
    let lua = |close: bool| {
        let extra = if close { ", [\"Connection\"] = \"close\"" } else { "" };
        format!(
            "local reqs = {{}}\nfor line in io.lines({:?}) do\n  local h, p = line:match(\"^(%S+) (.*)$\")\n  reqs[#reqs + 1] = {{h, p}}\nend\nlocal i = 0\nrequest = function()\n  i = i + 1\n  if i > #reqs then i = 1 end\n  local r = reqs[i]\n  return wrk.format(\"GET\", r[2], {{[\"Host\"] = r[1]{extra}}})\nend\n",
            list.display().to_string()
        )
    };
    let run_wrk = |close: bool| -> anyhow::Result<(f64, String)> {
        let script = work.join(if close { "replay-close.lua" } else { "replay.lua" });
        std::fs::write(&script, lua(close))?;
        let wrk = Command::new("wrk")
            .args(["-t", "2", "-c", &opts.concurrency.to_string(), "-d", &format!("{}s", opts.seconds)])
            .arg("-s")
            .arg(&script)
            .arg(format!("https://127.0.0.1:{https}/"))
            .output()
            .context("running wrk")?;
        let out = String::from_utf8_lossy(&wrk.stdout).into_owned();
        let rps: f64 = out
            .lines()
            .find_map(|l| l.strip_prefix("Requests/sec:"))
            .and_then(|v| v.trim().parse().ok())
            .with_context(|| format!("wrk said:\n{out}{}", String::from_utf8_lossy(&wrk.stderr)))?;
        Ok((rps, out))
    };
    let (ceiling, wrk_out) = run_wrk(false)?;
    // For comparison only: every request on a new TLS connection (the scan reuses a connection
    // within an origin, but opens at least one per origin; wrk with keep-alive opens 16 in all).
    let (closing, _) = run_wrk(true)?;

    let origins = opts.origins as f64;
    println!(
        "bench-scan: {} origins over HTTPS, concurrency {}, all plugins, verification on, depth 1, store on, --rate 0",
        opts.origins, opts.concurrency
    );
    println!("  scan: {elapsed:.2} s wall, {:.0} origins/s, {units} units", origins / elapsed);
    println!(
        "  requests: {} ({documents} documents, {verified} verifications) = {scan_rps:.0} requests/s",
        requests.len()
    );
    println!(
        "  ceiling (wrk -t2 -c{} -d{}s over HTTPS with keep-alive, replaying the same requests): {ceiling:.0} requests/s",
        opts.concurrency, opts.seconds
    );
    println!("  scan / ceiling: {:.1} %", 100.0 * scan_rps / ceiling);
    println!(
        "  for comparison, wrk with Connection: close (a TLS handshake per request): {closing:.0} requests/s (scan = {:.0} % of it)",
        100.0 * scan_rps / closing
    );
    println!("  peak RSS of the scan: {:.1} MiB", peak as f64 / 1024.0);
    println!("  summary: {summary}");
    let db_size = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0);
    println!("  store: {} ({:.1} MiB)", db.display(), db_size as f64 / 1_048_576.0);
    print!("{wrk_out}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn latency_options() {
        let Ok(Mode::Latency(o)) = options(&args(&["--latency", "50", "--runs", "3", "--", "--rate", "0"])) else {
            panic!("latency mode expected");
        };
        assert_eq!((o.latency_ms, o.origins, o.runs, o.scan_args), (50, 1000, 3, args(&["--rate", "0"])));
        let Ok(Mode::Latency(o)) = options(&args(&["--origins", "200", "--latency", "5"])) else { panic!() };
        assert_eq!((o.origins, o.runs), (200, 1));
        let Ok(Mode::Throughput(o)) = options(&args(&["--origins", "20"])) else { panic!("throughput mode expected") };
        assert_eq!((o.origins, o.concurrency, o.seconds), (20, 16, 10));
        for bad in [
            &["--latency", "50", "--concurrency", "4"][..],
            &["--runs", "2"],
            &["--latency", "0"],
            &["--", "--rate", "0"],
        ] {
            assert!(options(&args(bad)).is_err(), "{bad:?}");
        }
    }
}
