//! `cargo bench -p wellknown-apple-app-site-association`: interpretation speed on real files.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};

fn fixture(host: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/sites/{host}/.well-known/apple-app-site-association",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("aasa");
    for host in ["test.wikipedia.org", "www.home-assistant.io"] {
        let body = fixture(host);
        let url = Url::parse(&format!("https://{host}/.well-known/apple-app-site-association")).expect("url");
        let meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_function(host, |b| {
            b.iter(|| wellknown_apple_app_site_association::interpret(black_box(&body), &meta))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
