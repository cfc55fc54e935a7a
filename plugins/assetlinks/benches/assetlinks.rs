//! `cargo bench -p wellknown-assetlinks`: interpretation speed on real statement lists.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};

fn fixture(host: &str) -> Vec<u8> {
    let path = format!("{}/../../tests/fixtures/sites/{host}/.well-known/assetlinks.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("assetlinks");
    for host in ["auth.wikimedia.org", "en.wikipedia.org"] {
        let body = fixture(host);
        let url = Url::parse(&format!("https://{host}/.well-known/assetlinks.json")).expect("url");
        let meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_function(host, |b| b.iter(|| wellknown_assetlinks::interpret(black_box(&body), &meta)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
