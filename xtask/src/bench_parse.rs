//! `cargo xtask bench-parse [--runs N] [--bin BIN] [--against BIN]`: the whole `wellknown parse
//! sitemap` command on a large generated sitemap, timed from outside (process start to exit, output to
//! a file).
//!
//! 1. Builds the release binary (`wellknown`), unless `--bin BIN` names the binary to time.
//! 2. Writes `target/bench-parse/large.xml` (50,000 `<url>` entries, about 10 MB: `<loc>`,
//!    `<lastmod>`, `<changefreq>` and `<priority>` each, as a shop's product sitemap) and its gzip
//!    form `large.xml.gz`, deterministic.
//! 3. Runs `wellknown parse sitemap FILE --url https://www.example.com/sitemap.xml` `N` times per file
//!    (default 7) and prints the fastest and the median wall time; with `--against BIN`, the same for
//!    that other build of the binary (runs interleaved), and the ratios of the medians.
//!
//! Figures and what they decided: `docs/benchmarks.md` ("One parser per format"). Not part of
//! `cargo test`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::{cargo, workspace_root};

/// Entries of the generated sitemap (the protocol's URL limit).
const URLS: usize = 50_000;

const WORDS: &[&str] = &[
    "organic", "cotton", "relaxed", "fit", "shirt", "linen", "summer", "dress", "wool", "knit", "classic", "denim",
    "jacket", "slim", "trousers", "leather", "boots", "canvas", "sneakers", "silk", "scarf", "recycled", "blend",
    "hooded", "sweater", "pleated", "skirt", "striped", "navy", "olive", "charcoal", "ivory",
];

/// A linear congruential generator: the same file on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }

    fn words(&mut self, n: usize, sep: &str, out: &mut String) {
        for i in 0..n {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(WORDS[self.next() % WORDS.len()]);
        }
    }
}

/// The generated sitemap: plain UTF-8 XML, [`URLS`] entries, about 10 MB.
pub fn sitemap() -> String {
    use std::fmt::Write as _;
    let mut rng = Lcg(42);
    let mut out = String::with_capacity(11 << 20);
    out.push_str(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for i in 0..URLS {
        out.push_str("  <url>\n    <loc>https://www.example.com/catalog/");
        rng.words(2, "-", &mut out);
        let _ = write!(out, "/product-{i:06}-");
        rng.words(3, "-", &mut out);
        out.push_str("</loc>\n");
        let _ = writeln!(
            out,
            "    <lastmod>2024-{:02}-{:02}T{:02}:{:02}:{:02}+00:00</lastmod>",
            1 + rng.next() % 12,
            1 + rng.next() % 28,
            rng.next() % 24,
            rng.next() % 60,
            rng.next() % 60
        );
        out.push_str("    <changefreq>weekly</changefreq>\n    <priority>0.8</priority>\n  </url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

struct Options {
    runs: usize,
    bin: Option<PathBuf>,
    against: Option<PathBuf>,
}

fn options(args: &[String]) -> anyhow::Result<Options> {
    let mut o = Options { runs: 7, bin: None, against: None };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => o.runs = it.next().context("--runs N")?.parse().context("--runs N")?,
            "--bin" => o.bin = Some(PathBuf::from(it.next().context("--bin BIN")?)),
            "--against" => o.against = Some(PathBuf::from(it.next().context("--against BIN")?)),
            other => anyhow::bail!("bench-parse: unknown argument {other:?} (--runs N, --bin BIN, --against BIN)"),
        }
    }
    anyhow::ensure!(o.runs > 0, "--runs must be at least 1");
    Ok(o)
}

/// One run of `bin parse sitemap file`, output to `out`; its wall time.
fn once(bin: &Path, file: &Path, out: &Path) -> anyhow::Result<Duration> {
    let sink = std::fs::File::create(out)?;
    let t = Instant::now();
    let status = Command::new(bin)
        .args(["parse", "sitemap"])
        .arg(file)
        .args(["--url", "https://www.example.com/sitemap.xml", "--now", "2026-01-01T00:00:00Z"])
        .stdout(Stdio::from(sink))
        .status()
        .with_context(|| format!("running {}", bin.display()))?;
    let took = t.elapsed();
    // Exit 0 (valid) or 1 (errors) are both reports; anything else is a failure.
    anyhow::ensure!(matches!(status.code(), Some(0 | 1)), "{} exited with {status}", bin.display());
    Ok(took)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let opts = options(args)?;
    let root = workspace_root();
    let target = crate::dist::target_dir(&root);
    let bin = match opts.bin {
        Some(b) => b,
        None => {
            cargo(&["build", "--release", "-p", "wellknown", "--bin", "wellknown"])?;
            target.join("release").join("wellknown")
        }
    };
    let work = target.join("bench-parse");
    std::fs::create_dir_all(&work)?;
    let plain = sitemap();
    let xml = work.join("large.xml");
    std::fs::write(&xml, plain.as_bytes())?;
    let gz = work.join("large.xml.gz");
    {
        use std::io::Write as _;
        let mut e = flate2::write::GzEncoder::new(std::fs::File::create(&gz)?, flate2::Compression::default());
        e.write_all(plain.as_bytes())?;
        e.finish()?;
    }
    println!("{}: {} bytes, {URLS} URLs", xml.display(), plain.len());
    println!("{}: {} bytes", gz.display(), std::fs::metadata(&gz)?.len());
    let mut bins = vec![("this build", bin)];
    if let Some(other) = opts.against {
        bins.push(("--against", other));
    }
    for file in [&xml, &gz] {
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); bins.len()];
        // Interleaved, so that load on a shared machine falls on every binary alike.
        for _ in 0..opts.runs {
            for (i, (_, b)) in bins.iter().enumerate() {
                let out = work.join(format!("out-{i}.json"));
                times[i].push(once(b, file, &out)?);
            }
        }
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let mut medians = Vec::new();
        for ((label, b), t) in bins.iter().zip(times.iter_mut()) {
            let m = median(t);
            medians.push(m);
            println!(
                "{name}: {label} ({}): fastest {:.1} ms, median {:.1} ms over {} runs",
                b.display(),
                t.first().copied().unwrap_or_default().as_secs_f64() * 1e3,
                m.as_secs_f64() * 1e3,
                opts.runs
            );
        }
        if let [a, b] = medians[..] {
            println!("{name}: --against / this build = {:.2}", b.as_secs_f64() / a.as_secs_f64().max(1e-9));
            let same = std::fs::read(work.join("out-0.json"))? == std::fs::read(work.join("out-1.json"))?;
            println!("{name}: outputs {}", if same { "identical" } else { "DIFFER" });
        }
    }
    Ok(())
}
