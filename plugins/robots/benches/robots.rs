//! `cargo bench -p wellknown-robots`: parse every robots.txt of `benches/corpus/` (300 real files)
//! and answer the same fixed (agent, URL) queries per file with `wellknown-robots`, `texting_robots`
//! and `robotstxt`. Figures and the machine are in `docs/benchmarks/robots.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod queries;

use queries::{AGENTS, Input, load_corpus, query_count, run_ours, run_robotstxt, run_texting};

fn corpus(c: &mut Criterion) {
    let inputs = load_corpus();
    let queries = query_count(&inputs);
    let mut group = c.benchmark_group("corpus_parse_and_query");
    group.throughput(Throughput::Elements(queries as u64));
    let mut out = Vec::with_capacity(queries);
    group.bench_function("wellknown_robots", |b| {
        b.iter(|| {
            out.clear();
            run_ours(black_box(&inputs), &mut out);
            black_box(out.len())
        })
    });
    group.bench_function("wellknown_robots_check_verdict", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for input in black_box(&inputs) {
                let robots = wellknown_robots::RobotsTxt::parse(&input.body);
                for agent in AGENTS {
                    for url in &input.urls {
                        n += usize::from(robots.check(agent, url).rule.is_some());
                    }
                }
            }
            black_box(n)
        })
    });
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            out.clear();
            run_texting(black_box(&inputs), &mut out);
            black_box(out.len())
        })
    });
    group.bench_function("robotstxt", |b| {
        b.iter(|| {
            out.clear();
            run_robotstxt(black_box(&inputs), &mut out);
            black_box(out.len())
        })
    });
    group.finish();

    let bytes: usize = inputs.iter().map(|i| i.body.len()).sum();
    let mut group = c.benchmark_group("corpus_parse_only");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("wellknown_robots", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for input in black_box(&inputs) {
                n += wellknown_robots::RobotsTxt::parse(&input.body).groups().len();
            }
            black_box(n)
        })
    });
    group.bench_function("texting_robots_one_agent", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for input in black_box(&inputs) {
                n += usize::from(texting_robots::Robot::new("FooBot", &input.body).is_ok());
            }
            black_box(n)
        })
    });
    group.finish();
    let _unused: Option<&Input> = None;
}

fn config() -> Criterion {
    Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4))
}

criterion_group! { name = benches; config = config(); targets = corpus }
criterion_main!(benches);
