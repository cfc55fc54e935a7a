//! Parses one local sitemap file as if fetched from a URL and prints the report (JSON) or, with
//! `--summary`, one line of counts. Used to measure peak memory:
//! `/usr/bin/time -v cargo run --release -p wellknown-sitemap --example parse_file -- FILE URL --summary`.

use std::process::ExitCode;

use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::{Limits, parse_sitemap};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), Some(url)) = (args.first(), args.get(1)) else {
        eprintln!("usage: parse_file FILE URL [--summary]");
        return ExitCode::from(2);
    };
    let body = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    let Ok(url) = Url::parse(url) else {
        eprintln!("not a URL: {url}");
        return ExitCode::from(2);
    };
    let meta = FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH);
    let report = parse_sitemap(&body, &meta, &Limits::default());
    if args.iter().any(|a| a == "--summary") {
        println!(
            "kind={} candidates={} errors={} warnings={} facts={}",
            report.kind,
            report.candidates.len(),
            report.errors.len(),
            report.warnings.len(),
            serde_json::Value::Object(report.facts.clone())
        );
    } else {
        match serde_json::to_string_pretty(&report) {
            Ok(s) => println!("{s}"),
            Err(e) => eprintln!("{e}"),
        }
    }
    ExitCode::SUCCESS
}
