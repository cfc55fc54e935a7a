//! Throughput of the sitemap parser against a bare quick-xml event pass over the same bytes (the floor
//! of a streaming design): the largest real sitemaps of the fixtures, and a generated 50 MB /
//! 50,000-URL file, plain and gzipped. Rows:
//!
//! * `parse_sitemap`: the full report built in memory (`wellknown_core::Report`, what the engine gets);
//! * `write_report_streaming`: the full report written as JSON while parsing (what `wellknown parse
//!   sitemap` prints), into a sink;
//! * `visit_sitemap`: the streaming pass with a visitor that keeps nothing;
//! * `url_parse_only`: `Url::parse` of every URL the file declares (what the fast path avoids);
//! * `bare_quick_xml`: read every event, count start tags.
//!
//! Report: `docs/benchmarks/sitemap.md`.
//!
//! `cargo bench -p wellknown-sitemap`

mod generator;
mod passes;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use passes::{Count, bare_gzip, bare_slice};
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::{Limits, parse_sitemap, visit_sitemap, write_report_streaming};

fn stream(body: &[u8], m: &FetchMeta) -> bool {
    write_report_streaming(body, m, &Limits::default(), std::io::sink()).unwrap_or(false)
}

fn visit(body: &[u8], m: &FetchMeta) -> usize {
    let mut c = Count::default();
    visit_sitemap(body, m, &Limits::default(), &mut c);
    c.0
}

fn fixture(rel: &str) -> (String, Vec<u8>) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(rel);
    let body = std::fs::read(&p).unwrap_or_default();
    (format!("https://{rel}"), body)
}

fn meta(url: &str) -> FetchMeta {
    FetchMeta::synthetic(
        Url::parse(url).unwrap_or_else(|_| Url::parse("https://a.example/").unwrap()),
        None,
        Timestamp::UNIX_EPOCH,
    )
}

fn real(c: &mut Criterion) {
    let mut g = c.benchmark_group("real");
    g.measurement_time(Duration::from_secs(5));
    for rel in [
        "geoconnex.us/sitemap/ref/pws/pws__3.xml",
        "geoconnex.us/sitemap/CUAHSI/CUAHSI_HIS_GHCN_ids__0.xml",
        "sitemap.mykumi.com/en-products-1.xml",
        "ou7line.com/sitemap-en.xml",
    ] {
        let (url, body) = fixture(rel);
        let m = meta(&url);
        let values: Vec<String> =
            parse_sitemap(&body, &m, &Limits::default()).candidates.iter().map(|c| c.value().to_string()).collect();
        let urls = values.len();
        let name = rel.rsplit('/').next().unwrap_or(rel);
        eprintln!("{name}: {} bytes, {urls} URLs", body.len());
        g.throughput(Throughput::Bytes(body.len() as u64));
        g.bench_with_input(BenchmarkId::new("parse_sitemap", name), &body, |b, body| {
            b.iter(|| parse_sitemap(black_box(body), &m, &Limits::default()))
        });
        g.bench_with_input(BenchmarkId::new("write_report_streaming", name), &body, |b, body| {
            b.iter(|| stream(black_box(body), &m))
        });
        g.bench_with_input(BenchmarkId::new("visit_sitemap", name), &body, |b, body| {
            b.iter(|| visit(black_box(body), &m))
        });
        // The floor set by URL normalisation alone: `Url::parse` of every URL the file declares.
        g.bench_with_input(BenchmarkId::new("url_parse_only", name), &values, |b, values| {
            b.iter(|| values.iter().filter(|v| Url::parse(black_box(v)).is_ok()).count())
        });
        g.bench_with_input(BenchmarkId::new("bare_quick_xml", name), &body, |b, body| {
            b.iter(|| bare_slice(black_box(body)))
        });
    }
    g.finish();
}

fn generated(c: &mut Criterion) {
    let plain = generator::large_sitemap();
    let gz = generator::gzip(&plain);
    eprintln!("generated: {} bytes plain, {} bytes gzipped, {} URLs", plain.len(), gz.len(), generator::URLS);
    let m = meta("https://www.example.com/sitemap.xml");
    let mut g = c.benchmark_group("generated_50MB");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Bytes(plain.len() as u64));
    g.bench_function("parse_sitemap/plain", |b| b.iter(|| parse_sitemap(black_box(&plain), &m, &Limits::default())));
    g.bench_function("write_report_streaming/plain", |b| b.iter(|| stream(black_box(&plain), &m)));
    g.bench_function("visit_sitemap/plain", |b| b.iter(|| visit(black_box(&plain), &m)));
    g.bench_function("bare_quick_xml/plain", |b| b.iter(|| bare_slice(black_box(&plain))));
    g.bench_function("parse_sitemap/gzip", |b| b.iter(|| parse_sitemap(black_box(&gz), &m, &Limits::default())));
    g.bench_function("write_report_streaming/gzip", |b| b.iter(|| stream(black_box(&gz), &m)));
    g.bench_function("visit_sitemap/gzip", |b| b.iter(|| visit(black_box(&gz), &m)));
    g.bench_function("bare_quick_xml/gzip", |b| b.iter(|| bare_gzip(black_box(&gz))));
    g.finish();
}

criterion_group!(benches, real, generated);
criterion_main!(benches);
