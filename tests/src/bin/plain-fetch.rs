//! `plain-fetch --list FILE --http ADDR --https ADDR --ca-cert FILE [--per-host N] [--rate R]`:
//! sends the requests of FILE (lines `METHOD URL`) with [`wellknown_tests::plain_fetch`] and prints
//! one JSON object of what it did. `--help` prints the usage (exit 0); a bad argument prints it on
//! standard error (exit 2); a list that cannot be read exits 1.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use wellknown_tests::plain_fetch::{Options, Planned, fetch_all};

const USAGE: &str = "\
Usage: plain-fetch --list FILE --http ADDR --https ADDR --ca-cert FILE [--per-host N] [--rate R]

Sends the requests of FILE (one `METHOD URL` a line), every host at once, at most N requests in
flight per host (default 2) and request starts R per second per host (default 5; 0 = no spacing);
every http connection goes to ADDR of --http, every https one to that of --https, whatever the host.
Prints one JSON object: requests, answered, failed, connections, hosts, body_bytes, elapsed_ms.

Options:
  --list FILE     the requests
  --http ADDR     where http connections go (IP:PORT)
  --https ADDR    where https connections go (IP:PORT)
  --ca-cert FILE  PEM of the CA to trust for https
  --per-host N    requests in flight per host, 1 to 100 (default 2)
  --rate R        request starts per second per host, 0 for none (default 5)
  -h, --help      print this help and exit";

/// Exits 2 with `message` and the usage on standard error.
fn usage_error(message: &str) -> ! {
    eprintln!("plain-fetch: {message}\n\n{USAGE}");
    std::process::exit(2);
}

fn fail(message: &str) -> ! {
    eprintln!("plain-fetch: {message}");
    std::process::exit(1);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut list, mut http, mut https, mut ca) = (None::<PathBuf>, None::<SocketAddr>, None::<SocketAddr>, None);
    let (mut per_host, mut rate) = (2usize, 5.0f64);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage_error(&format!("{a} needs a value")));
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            "--list" => list = Some(PathBuf::from(value())),
            "--ca-cert" => ca = Some(PathBuf::from(value())),
            "--http" | "--https" => {
                let v = value();
                let addr = v.parse().unwrap_or_else(|_| usage_error(&format!("{a} {v:?}: not IP:PORT")));
                if a == "--http" { http = Some(addr) } else { https = Some(addr) }
            }
            "--per-host" => {
                let v = value();
                per_host = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=100).contains(n))
                    .unwrap_or_else(|| usage_error(&format!("--per-host {v:?}: a whole number 1 to 100")));
            }
            "--rate" => {
                let v = value();
                rate = v
                    .parse()
                    .ok()
                    .filter(|r: &f64| r.is_finite() && *r >= 0.0)
                    .unwrap_or_else(|| usage_error(&format!("--rate {v:?}: a number, 0 or more")));
            }
            other => usage_error(&format!("unknown argument {other:?}")),
        }
    }
    let (Some(list), Some(http), Some(https), Some(ca)) = (list, http, https, ca) else {
        usage_error("--list, --http, --https and --ca-cert are required");
    };
    let text = std::fs::read_to_string(&list).unwrap_or_else(|e| fail(&format!("{}: {e}", list.display())));
    let planned: Vec<Planned> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Planned::parse(l).unwrap_or_else(|e| fail(&format!("{}: {e}", list.display()))))
        .collect();
    let ca_pem = std::fs::read(&ca).unwrap_or_else(|e| fail(&format!("{}: {e}", ca.display())));
    let options = Options { http, https, ca_pem, per_host, rate, timeout: Duration::from_secs(30) };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| fail(&format!("runtime: {e}")));
    let outcome = runtime.block_on(fetch_all(planned, &options)).unwrap_or_else(|e| fail(&e));
    println!(
        "{}",
        serde_json::json!({
            "requests": outcome.requests,
            "answered": outcome.answered,
            "failed": outcome.failed,
            "connections": outcome.connections,
            "hosts": outcome.hosts,
            "body_bytes": outcome.body_bytes,
            "elapsed_ms": outcome.elapsed.as_millis() as u64,
        })
    );
}
