//! Parser and signature-verification throughput on real files from the corpus.
//!
//! `cargo bench -p wellknown-security-txt --bench parse`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_security_txt::signed::{split, split_lines};
use wellknown_security_txt::{parse, verify};

fn meta(url: &str) -> FetchMeta {
    let now: Timestamp = "2026-12-01T00:00:00Z".parse().expect("now");
    FetchMeta::synthetic(url::Url::parse(url).expect("url"), Some("text/plain; charset=utf-8"), now)
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).expect("bench input")
}

fn benches(c: &mut Criterion) {
    let signed = read("tests/corpus/internet.nl/.well-known/security.txt");
    let small = read("tests/corpus/en.wikipedia.org/.well-known/security.txt");
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(signed.len() as u64));
    let m = meta("https://internet.nl/.well-known/security.txt");
    g.bench_function("internet.nl (signed, 2290 B)", |b| b.iter(|| parse(black_box(&signed), &m)));
    g.throughput(Throughput::Bytes(small.len() as u64));
    let m = meta("https://en.wikipedia.org/.well-known/security.txt");
    g.bench_function("en.wikipedia.org (222 B)", |b| b.iter(|| parse(black_box(&small), &m)));
    g.finish();

    // The whole corpus, once per iteration.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("manifest");
    let files: Vec<(FetchMeta, Vec<u8>)> = manifest
        .lines()
        .skip(1)
        .filter_map(|row| {
            let mut cols = row.split('\t');
            let (host, path) = (cols.next()?, cols.next()?);
            let body = std::fs::read(root.join(host).join(path.trim_start_matches('/'))).ok()?;
            Some((meta(&format!("https://{host}{path}")), body))
        })
        .collect();
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("1216 files", |b| {
        b.iter(|| files.iter().map(|(m, body)| parse(black_box(body), m).errors.len()).sum::<usize>())
    });
    g.finish();

    let case = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown");
    let body = std::fs::read_to_string(case.join("sectxt_signed_valid.input")).expect("case");
    let meta_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("sectxt_signed_valid.meta.json")).expect("meta"))
            .expect("json");
    let key = meta_json["pgp_public_key"].as_str().expect("key").as_bytes().to_vec();
    let doc = split(split_lines(&body).0).signed.expect("signed");
    c.bench_function("verify Ed25519 cleartext signature", |b| b.iter(|| verify(black_box(&doc), &key)));
}

criterion_group!(benches_group, benches);
criterion_main!(benches_group);
