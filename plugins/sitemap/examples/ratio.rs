//! Speed of the parser relative to a bare quick-xml event pass, measured so that a shared, noisy
//! machine does not skew the ratio: the variants run interleaved, round after round, each timed over
//! a batch of passes; the ratio `bare time / variant time` is taken per round and the median over the
//! rounds is printed (with the median times). Complements `cargo bench -p wellknown-sitemap`, whose
//! rows run one after another and so see different loads.
//!
//! ```text
//! cargo run --release -p wellknown-sitemap --example ratio [-- ROUNDS]
//! ```

#[path = "../benches/generator/mod.rs"]
mod generator;
#[path = "../benches/passes/mod.rs"]
mod passes;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use passes::{Count, bare};
use url::Url;
use wellknown_core::{FetchMeta, Timestamp};
use wellknown_sitemap::{Limits, parse_sitemap, visit_sitemap, write_report_streaming};

/// Runs `f` `n` times; the time per run.
fn timed(n: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    start.elapsed() / n
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/sites/geoconnex.us/sitemap/ref/pws/pws__3.xml");
    let pws = std::fs::read(&fixture).unwrap_or_default();
    let plain = generator::large_sitemap();
    let gz = generator::gzip(&plain);
    let inputs: [(&str, &[u8], &str, u32); 3] = [
        ("pws__3.xml", &pws, "https://geoconnex.us/sitemap/ref/pws/pws__3.xml", 10),
        ("generated 50 MB, plain", &plain, "https://www.example.com/sitemap.xml", 1),
        ("generated 50 MB, gzip", &gz, "https://www.example.com/sitemap.xml.gz", 1),
    ];
    let limits = Limits::default();
    println!("{rounds} rounds; median time per pass, median ratio bare/variant (higher is faster)");
    for (name, body, url, batch) in inputs {
        let Ok(u) = Url::parse(url) else { continue };
        let meta = FetchMeta::synthetic(u, None, Timestamp::UNIX_EPOCH);
        let variants: [(&str, &dyn Fn()); 4] = [
            ("bare_quick_xml", &|| {
                black_box(bare(black_box(body)));
            }),
            ("visit_sitemap", &|| {
                let mut c = Count::default();
                black_box(visit_sitemap(black_box(body), &meta, &limits, &mut c));
            }),
            ("write_report_streaming", &|| {
                black_box(write_report_streaming(black_box(body), &meta, &limits, std::io::sink()).ok());
            }),
            ("parse_sitemap", &|| {
                black_box(parse_sitemap(black_box(body), &meta, &limits));
            }),
        ];
        println!("\n{name} ({} bytes)", body.len());
        // parse_sitemap frees a large report after each pass, which changes what the allocator
        // hands the next variant: it is measured in rounds of its own, against bare passes.
        for group in [&[0usize, 1, 2][..], &[0, 3][..]] {
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); group.len()];
            let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); group.len()];
            for &v in group {
                if let Some((_, f)) = variants.get(v) {
                    f(); // warm up
                }
            }
            for _ in 0..rounds {
                let t: Vec<f64> = group
                    .iter()
                    .filter_map(|&v| variants.get(v))
                    .map(|(_, f)| timed(batch, f).as_secs_f64() * 1e3)
                    .collect();
                let base = t.first().copied().unwrap_or(f64::NAN);
                for (i, ti) in t.iter().enumerate() {
                    if let (Some(ts), Some(rs)) = (times.get_mut(i), ratios.get_mut(i)) {
                        ts.push(*ti);
                        rs.push(base / ti);
                    }
                }
            }
            for (i, &v) in group.iter().enumerate() {
                let Some((label, _)) = variants.get(v) else { continue };
                if i == 0 && v == 0 && group.len() == 2 {
                    continue;
                }
                let t = median(times.get(i).cloned().unwrap_or_default());
                let r = median(ratios.get(i).cloned().unwrap_or_default());
                println!("  {label:<24} {t:>9.2} ms   ratio {r:.2}");
            }
        }
    }
}
