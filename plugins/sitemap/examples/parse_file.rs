//! Parses one local sitemap file as if fetched from a URL and prints the report (JSON) or, with
//! `--summary`, one line of counts; with `--visit`, only streams through a counting visitor; with
//! `--stream`, writes the report as JSON while parsing (`write_report_streaming`, what `wellknown
//! parse sitemap` does); with `--bare`, only runs a bare quick-xml event pass over a plain file (the
//! benchmark's floor). `--repeat N` runs N times (for profiling). Used to measure peak memory:
//! `/usr/bin/time -v target/release/examples/parse_file FILE URL --summary`.

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
    fn found(&mut self, _found: &Found<'_>) -> ControlFlow<()> {
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

/// A bare quick-xml event pass (counting start tags), as in the benchmark.
fn bare(body: &[u8]) -> usize {
    let mut r = quick_xml::Reader::from_reader(body);
    r.config_mut().allow_dangling_amp = true;
    r.config_mut().check_end_names = false;
    let mut n = 0;
    loop {
        match r.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => n += 1,
            Ok(quick_xml::events::Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    n
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), Some(url)) = (args.first(), args.get(1)) else {
        eprintln!("usage: parse_file FILE URL [--summary | --visit | --stream | --bare] [--repeat N]");
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
    if args.iter().any(|a| a == "--bare") {
        let mut n = 0;
        for _ in 0..repeat {
            n = bare(&body);
        }
        println!("start tags={n}");
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "--stream") {
        use std::io::Write;
        let mut valid = false;
        for i in 0..repeat {
            let out: Box<dyn Write> =
                if i + 1 == repeat { Box::new(std::io::stdout().lock()) } else { Box::new(std::io::sink()) };
            let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
            valid = match wellknown_sitemap::write_report_streaming(&body, &meta, &Limits::default(), &mut out)
                .and_then(|v| out.write_all(b"\n").and_then(|()| out.flush()).map(|()| v))
            {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            };
        }
        return if valid { ExitCode::SUCCESS } else { ExitCode::from(1) };
    }
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
