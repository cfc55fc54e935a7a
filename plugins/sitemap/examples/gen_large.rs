//! Writes the benchmark's generated sitemap (50,000 URLs, just under 50 MB) gzipped to a file, for
//! measuring peak memory of parsing it:
//!
//! ```text
//! cargo run --release -p wellknown-sitemap --example gen_large -- /tmp/large.xml.gz
//! /usr/bin/time -v target/release/examples/parse_file /tmp/large.xml.gz https://www.example.com/sitemap.xml.gz --summary
//! cargo build --release -p wellknown
//! /usr/bin/time -v target/release/wellknown parse sitemap /tmp/large.xml.gz --url https://www.example.com/sitemap.xml.gz
//! ```

#[path = "../benches/generator/mod.rs"]
mod generator;

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(out) = std::env::args().nth(1) else {
        eprintln!("usage: gen_large OUT.xml.gz [--plain]");
        return ExitCode::from(2);
    };
    let plain = generator::large_sitemap();
    let bytes = if std::env::args().any(|a| a == "--plain") { plain.clone() } else { generator::gzip(&plain) };
    if let Err(e) = std::fs::write(&out, &bytes) {
        eprintln!("{out}: {e}");
        return ExitCode::from(2);
    }
    println!("{out}: {} bytes ({} uncompressed, {} URLs)", bytes.len(), plain.len(), generator::URLS);
    ExitCode::SUCCESS
}
