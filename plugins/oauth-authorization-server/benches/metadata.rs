//! Throughput of the RFC 8414 and JWK Set interpreters over real and synthetic fixtures:
//! `cargo bench -p wellknown-oauth-authorization-server --bench metadata`.

use std::path::Path;

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_oauth_metadata::jwks;

fn load(host_path: &str) -> (Vec<u8>, FetchMeta) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host_path);
    let body = std::fs::read(&file).expect("fixture");
    let url = Url::parse(&format!("https://{host_path}")).expect("url");
    (body, FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
}

fn bench(c: &mut Criterion) {
    let (body, meta) = load("bsky.social/.well-known/oauth-authorization-server");
    let mut g = c.benchmark_group("oauth-authorization-server");
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("bsky.social", |b| {
        b.iter(|| black_box(wellknown_oauth_authorization_server::interpret(black_box(&body), &meta)))
    });
    g.finish();

    let (body, meta) = load("leaky-idp.example/oauth2/jwks.json");
    let mut g = c.benchmark_group("jwks");
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("2 keys with x5c", |b| b.iter(|| black_box(jwks::interpret(black_box(&body), &meta))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
