//! Throughput of the OpenID Connect Discovery interpreter over the real fixtures (the RFC 8414 and
//! JWK Set interpreters: `cargo bench -p wellknown-oauth-authorization-server --bench metadata`):
//! `cargo bench -p wellknown-openid-configuration --bench metadata`.

use std::path::Path;

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};

fn load(host_path: &str) -> (Vec<u8>, FetchMeta) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host_path);
    let body = std::fs::read(&file).expect("fixture");
    let url = Url::parse(&format!("https://{host_path}")).expect("url");
    (body, FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
}

mod fixtures;
use fixtures::OIDC;

fn bench(c: &mut Criterion) {
    let docs: Vec<_> = OIDC.iter().map(|p| load(p)).collect();
    let bytes: usize = docs.iter().map(|(b, _)| b.len()).sum();
    let mut g = c.benchmark_group("openid-configuration");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("19 real documents", |b| {
        b.iter(|| {
            for (body, meta) in &docs {
                black_box(wellknown_openid_configuration::interpret(black_box(body), meta));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
