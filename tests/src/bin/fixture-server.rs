//! `fixture-server [--root DIR] [--tls] [--ca-out FILE] [--log]`: serves the fixture tree on
//! 127.0.0.1 (random ports) until killed; prints `http=ADDR https=ADDR` on its first line.

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = wellknown_tests::fixture_sites();
    let (mut tls, mut ca_out, mut log) = (false, None::<PathBuf>, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--root" => root = args.next().map(PathBuf::from).unwrap_or(root),
            "--tls" => tls = true,
            "--ca-out" => ca_out = args.next().map(PathBuf::from),
            "--log" => log = true,
            other => {
                eprintln!("fixture-server: unknown argument {other:?}");
                std::process::exit(2);
            }
        }
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
