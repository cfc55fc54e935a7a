//! The store's write path: what one scan's records cost the single writer thread.
//!
//! Synthetic records shaped like a scan's (see docs/benchmarks/store.md): `DOCS` documents, each
//! declaring `PER_DOC` relations; half of every document's targets were declared by an earlier
//! document too (a further sighting: a new evidence row on an existing node and, when the source
//! differs, a new relation), and each document is followed by a verification of a quarter of its
//! targets. Written to a WAL file store in batches of 2,048 writes, one transaction each, as the
//! scan's writer thread does. Throughput is in writes (records) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use wellknown_core::{CandidateKind, Method, Timestamp};
use wellknown_records::{VerifySource, VerifyStatus};
use wellknown_store::model::{DocumentRow, RelationWrite, VerificationRow, Write};
use wellknown_store::{SqliteStore, Store};

const DOCS: usize = 40;
const PER_DOC: usize = 1_000;

fn writes() -> Vec<Write> {
    let at = Timestamp::UNIX_EPOCH;
    let mut out = Vec::new();
    for d in 0..DOCS {
        let url = format!("https://o{:04}.bench.test/sitemap.xml", d % 10);
        let url = format!("{url}?part={d}");
        out.push(Write::Document(DocumentRow {
            id: 0,
            scan: 0,
            origin: format!("https://o{:04}.bench.test", d % 10),
            probe: "sitemap".into(),
            role: "follow_up".into(),
            hop: 1,
            requested_url: url.clone(),
            url: url.clone(),
            status: Some(200),
            redirect_chain: "[]".into(),
            content_type: Some("application/xml".into()),
            size: 120_000,
            sha256: Some("0".repeat(64)),
            truncated: false,
            fetched_at: at,
            failure_class: None,
            failure_message: None,
            kind: Some("urlset".into()),
            valid: Some(true),
            facts: "{}".into(),
            via: String::new(),
            not_attempted: false,
        }));
        for i in 0..PER_DOC {
            // The second half repeats the previous document's first half.
            let n = if i < PER_DOC / 2 { d * PER_DOC + i } else { d.saturating_sub(1) * PER_DOC + i - PER_DOC / 2 };
            out.push(Write::Relation(RelationWrite {
                probe: "sitemap".into(),
                document_url: url.clone(),
                relation: "sitemap_loc".into(),
                kind: CandidateKind::Url,
                value: format!("https://o{:04}.bench.test/products/item-{n}/details", d % 10),
                in_scope: Some(true),
                fetched_at: at,
                status: Some(200),
                locator: Some(format!("{{\"xml\":\"/urlset/url[{}]/loc\"}}", i + 1)),
                hints: "{\"lastmod\":\"2024-01-01\"}".into(),
                flags: "[]".into(),
            }));
        }
        for i in (0..PER_DOC).step_by(4) {
            out.push(Write::Verification(VerificationRow {
                kind: CandidateKind::Url,
                value: format!("https://o{:04}.bench.test/products/item-{}/details", d % 10, d * PER_DOC + i),
                scan: 0,
                status: VerifyStatus::Alive,
                http_status: Some(200),
                target: None,
                method: Some(Method::Head),
                failure_class: None,
                failure_message: None,
                source: VerifySource::Request,
                verified_at: at,
            }));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let writes = writes();
    let mut g = c.benchmark_group("store_write");
    g.sample_size(10);
    g.throughput(Throughput::Elements(writes.len() as u64));
    g.bench_function("sqlite_file_wal", |b| {
        b.iter_with_setup(
            || {
                let dir = tempfile::tempdir().expect("tempdir");
                let mut store = SqliteStore::open(&dir.path().join("bench.db")).expect("open");
                let scan = store.begin_scan(Timestamp::UNIX_EPOCH, &serde_json::json!({}), &[]).expect("scan");
                (dir, store, scan)
            },
            |(dir, mut store, scan)| {
                for batch in writes.chunks(2_048) {
                    store.write(scan, batch).expect("write");
                }
                drop(store);
                drop(dir);
            },
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
