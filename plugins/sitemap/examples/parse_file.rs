//! Parses one local sitemap file as if fetched from a URL and prints the report (JSON) or, with
//! `--summary`, one line of counts; with `--visit`, only streams through a counting visitor. Used to measure peak memory:
//! `/usr/bin/time -v cargo run --release -p wellknown-sitemap --example parse_file -- FILE URL --summary`.

use std::process::ExitCode;

use std::ops::ControlFlow;
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};

use wellknown_core::Diagnostic;
use wellknown_sitemap::{Found, Limits, Visitor, parse_sitemap, visit_sitemap};

#[derive(Default)]
struct Counter {
    found: u64,
    diagnostics: u64,
}

impl Visitor for Counter {
    fn found(&mut self, _found: Found) -> ControlFlow<()> {
        self.found += 1;
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, _diagnostic: Diagnostic) {}

    fn wants(&mut self, _code: &str) -> bool {
        // Count diagnostics without building them.
        self.diagnostics += 1;
        false
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), Some(url)) = (args.first(), args.get(1)) else {
        eprintln!("usage: parse_file FILE URL [--summary | --visit]");
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
    // `--repeat N`: parse N times (for profiling); the last result is printed.
    let repeat = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1usize);
    if args.iter().any(|a| a == "--visit") {
        // Streaming only: count what is found, keep nothing.
        let mut v = Counter::default();
        let mut s = visit_sitemap(&body, &meta, &Limits::default(), &mut v);
        for _ in 1..repeat {
            v = Counter::default();
            s = visit_sitemap(&body, &meta, &Limits::default(), &mut v);
        }
        println!("kind={} found={} diagnostics={} bytes={} urls={}", s.kind(), v.found, v.diagnostics, s.bytes, s.urls);
        return ExitCode::SUCCESS;
    }
    // `--repeat N`: parse N times (for profiling); the last report is printed.
    let repeat = args
        .iter()
        .position(|a| a == "--repeat")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1usize);
    let mut report = parse_sitemap(&body, &meta, &Limits::default());
    for _ in 1..repeat {
        report = parse_sitemap(&body, &meta, &Limits::default());
    }
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
