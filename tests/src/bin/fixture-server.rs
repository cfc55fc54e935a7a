//! `fixture-server [--root DIR] [--tls] [--ca-out FILE] [--log]`: serves the fixture tree on
//! 127.0.0.1 (random ports) until killed; prints `http=ADDR https=ADDR` on its first line.
//! `--help` prints the usage (exit 0); a bad argument prints it on standard error (exit 2).

use std::path::PathBuf;

const USAGE: &str = "\
Usage: fixture-server [--root DIR] [--tls] [--ca-out FILE] [--log]

Serves the fixture tree (tests/fixtures/sites: one directory per host) on 127.0.0.1, random ports,
until killed. Prints `http=ADDR https=ADDR` on its first line (`https=-` without --tls).

Options:
  --root DIR     serve DIR instead of tests/fixtures/sites
  --tls          also serve HTTPS, with a certificate from a throwaway CA
  --ca-out FILE  write that CA's PEM to FILE (give it to `wellknown scan --ca-cert`)
  --log          print each request answered on standard error
  -h, --help     print this help and exit";

/// Exits 2 with `message` and the usage on standard error.
fn usage_error(message: &str) -> ! {
    eprintln!("fixture-server: {message}\n\n{USAGE}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = wellknown_tests::fixture_sites();
    let (mut tls, mut ca_out, mut log) = (false, None::<PathBuf>, false);
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
    let https = server.https_addr.map(|a| a.to_string()).unwrap_or_else(|| "-".into());
    println!("http={} https={https}", server.http_addr);
    let mut seen = 0;
    loop {
        std::thread::sleep(std::time::Duration::from_millis(200));
        if log {
            let reqs = server.requests();
            for r in reqs.iter().skip(seen) {
                eprintln!("{} {} {}://{}{}", r.status, r.method, r.scheme, r.host, r.path);
            }
            seen = reqs.len();
        }
    }
}
