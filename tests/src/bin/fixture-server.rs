//! `fixture-server [--root DIR] [--tls] [--ca-out FILE] [--log] [--latency MS]`: serves the
//! fixture tree on 127.0.0.1 (random ports) until killed; prints `http=ADDR https=ADDR` on its first
//! line. With `--latency`, those addresses are [`wellknown_tests::DelayProxy`]s in front of the
//! listeners. `--help` prints the usage (exit 0); a bad argument prints it on standard error (exit 2).

use std::path::PathBuf;
use std::time::Duration;

use wellknown_tests::DelayProxy;

const USAGE: &str = "\
Usage: fixture-server [--root DIR] [--tls] [--ca-out FILE] [--log] [--latency MS]

Serves the fixture tree (tests/fixtures/sites: one directory per host) on 127.0.0.1, random ports,
until killed. Prints `http=ADDR https=ADDR` on its first line (`https=-` without --tls).

Options:
  --root DIR     serve DIR instead of tests/fixtures/sites
  --tls          also serve HTTPS, with a certificate from a throwaway CA
  --ca-out FILE  write that CA's PEM to FILE (give it to `wellknown scan --ca-cert`)
  --log          print each request answered on standard error (`STATUS METHOD URL`), and with
                 --latency the proxies' counters when they change (`proxy connections=N ...`)
  --latency MS   answer through a delay proxy adding MS milliseconds of round trip (MS/2 each way,
                 one more MS per new connection); the first line then gives the proxies' addresses
                 and ends with `latency=MSms`
  -h, --help     print this help and exit";

/// Exits 2 with `message` and the usage on standard error.
fn usage_error(message: &str) -> ! {
    eprintln!("fixture-server: {message}\n\n{USAGE}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = wellknown_tests::fixture_sites();
    let (mut tls, mut ca_out, mut log, mut latency) = (false, None::<PathBuf>, false, None::<u64>);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            "--root" => match args.next() {
                Some(v) => root = PathBuf::from(v),
                None => usage_error("--root needs a directory"),
            },
            "--tls" => tls = true,
            "--ca-out" => match args.next() {
                Some(v) => ca_out = Some(PathBuf::from(v)),
                None => usage_error("--ca-out needs a file"),
            },
            "--log" => log = true,
            "--latency" => match args.next().map(|v| v.parse::<u64>()) {
                Some(Ok(ms)) if (1..=60_000).contains(&ms) => latency = Some(ms),
                _ => usage_error("--latency needs a whole number of milliseconds, 1 to 60000"),
            },
            other => usage_error(&format!("unknown argument {other:?}")),
        }
    }
    if !root.is_dir() {
        usage_error(&format!("--root {}: not a directory", root.display()));
    }
    let server = match wellknown_tests::FixtureServer::start(root, tls) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("fixture-server: {e}");
            std::process::exit(2);
        }
    };
    if let (Some(path), Some(pem)) = (&ca_out, &server.ca_pem)
        && let Err(e) = std::fs::write(path, pem)
    {
        eprintln!("fixture-server: writing {}: {e}", path.display());
        std::process::exit(2);
    }
    let proxies = match latency {
        Some(ms) => match start_proxies(&server, Duration::from_millis(ms)) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("fixture-server: starting the delay proxy: {e}");
                std::process::exit(2);
            }
        },
        None => None,
    };
    match &proxies {
        Some(p) => {
            let https = p.https.as_ref().map(|h| h.addr.to_string()).unwrap_or_else(|| "-".into());
            println!("http={} https={https} latency={}ms", p.http.addr, latency.unwrap_or_default());
        }
        None => {
            let https = server.https_addr.map(|a| a.to_string()).unwrap_or_else(|| "-".into());
            println!("http={} https={https}", server.http_addr);
        }
    }
    let (mut seen, mut said) = (0, String::new());
    loop {
        std::thread::sleep(Duration::from_millis(200));
        if log {
            let reqs = server.requests_since(seen);
            for r in &reqs {
                eprintln!("{} {} {}://{}{}", r.status, r.method, r.scheme, r.host, r.path);
            }
            seen += reqs.len();
            if let Some(p) = &proxies {
                let now = p.describe();
                if now != said {
                    eprintln!("{now}");
                    said = now;
                }
            }
        }
    }
}

/// The delay proxies in front of the server's listeners, on a runtime of their own.
struct Proxies {
    http: DelayProxy,
    https: Option<DelayProxy>,
    _runtime: tokio::runtime::Runtime,
}

impl Proxies {
    /// `proxy connections=N bytes_up=N bytes_down=N`, both proxies summed.
    fn describe(&self) -> String {
        let (mut connections, mut up, mut down) = (0, 0, 0);
        for p in std::iter::once(&self.http).chain(&self.https) {
            let c = p.counters();
            connections += c.connections;
            up += c.bytes_up;
            down += c.bytes_down;
        }
        format!("proxy connections={connections} bytes_up={up} bytes_down={down}")
    }
}

fn start_proxies(server: &wellknown_tests::FixtureServer, rtt: Duration) -> std::io::Result<Proxies> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let http = runtime.block_on(DelayProxy::start(server.http_addr, rtt))?;
    let https = match server.https_addr {
        Some(a) => Some(runtime.block_on(DelayProxy::start(a, rtt))?),
        None => None,
    };
    Ok(Proxies { http, https, _runtime: runtime })
}
