//! Deterministic generator of a large sitemap for the benchmark and the peak-memory example: exactly
//! 50,000 `<url>` entries (the protocol's URL limit) padded to just under 50 MB (the protocol's size
//! limit), shaped like a large shop's image sitemap: `<loc>`, `<lastmod>`, `<changefreq>`,
//! `<priority>` and one `<image:image>` with a title and a long caption per entry.

#![allow(dead_code)]

/// Entries generated.
pub const URLS: usize = 50_000;
/// Target size in bytes (sitemaps.org limit, 52,428,800, minus a little).
pub const TARGET_BYTES: usize = 52_400_000;

const WORDS: &[&str] = &[
    "organic", "cotton", "relaxed", "fit", "shirt", "linen", "summer", "dress", "wool", "knit", "classic", "denim",
    "jacket", "slim", "trousers", "leather", "boots", "canvas", "sneakers", "silk", "scarf", "recycled", "blend",
    "hooded", "sweater", "pleated", "skirt", "striped", "navy", "olive", "charcoal", "ivory",
];

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

/// The generated sitemap (plain XML, UTF-8).
pub fn large_sitemap() -> Vec<u8> {
    let mut rng = Lcg(42);
    let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
                  xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n";
    let footer = "</urlset>\n";
    let per_entry = (TARGET_BYTES - header.len() - footer.len()) / URLS;
    let mut out = String::with_capacity(TARGET_BYTES + 4096);
    out.push_str(header);
    let mut entry = String::with_capacity(2 * per_entry);
    for i in 0..URLS {
        entry.clear();
        entry.push_str("  <url>\n    <loc>https://www.example.com/catalog/");
        rng.words(2, "-", &mut entry);
        entry.push_str(&format!("/product-{i:06}-"));
        rng.words(4, "-", &mut entry);
        entry.push_str("</loc>\n");
        entry.push_str(&format!(
            "    <lastmod>2024-{:02}-{:02}T{:02}:{:02}:{:02}+00:00</lastmod>\n",
            1 + rng.next() % 12,
            1 + rng.next() % 28,
            rng.next() % 24,
            rng.next() % 60,
            rng.next() % 60
        ));
        entry.push_str("    <changefreq>weekly</changefreq>\n    <priority>0.8</priority>\n");
        entry.push_str(&format!(
            "    <image:image>\n      <image:loc>https://cdn.example.net/img/{i:06}/main.jpg</image:loc>\n      <image:title>"
        ));
        rng.words(5, " ", &mut entry);
        entry.push_str("</image:title>\n      <image:caption>");
        let tail = "</image:caption>\n    </image:image>\n  </url>\n";
        while entry.len() + tail.len() < per_entry {
            let w = WORDS[rng.next() % WORDS.len()];
            if entry.len() + tail.len() + w.len() + 1 > per_entry {
                break;
            }
            entry.push_str(w);
            entry.push(' ');
        }
        while entry.len() + tail.len() < per_entry {
            entry.push('.');
        }
        entry.push_str(tail);
        out.push_str(&entry);
    }
    out.push_str(footer);
    out.into_bytes()
}

/// gzip of `b` at the default level.
pub fn gzip(b: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::with_capacity(b.len() / 4), flate2::Compression::default());
    let _ = e.write_all(b);
    e.finish().unwrap_or_default()
}
