//! Every security.txt of the real-world corpus (`tests/corpus/`, 1,216 files; see its SOURCES.md)
//! through the parser: none panics, and the summary counts are pinned. The same counts are published
//! in `docs/security-txt-corpus.md`, computed with `now` fixed at 2026-12-01T00:00:00Z and each file
//! served as `text/plain; charset=utf-8` from `https://<host><path>`.
//!
//! `cargo test -p wellknown-security-txt --test corpus -- --nocapture` prints the table.

use std::collections::BTreeMap;
use std::path::Path;

use wellknown_core::{FetchMeta, Report, Timestamp};
use wellknown_security_txt::parse;

const NOW: &str = "2026-12-01T00:00:00Z";

fn corpus() -> Vec<(String, String, Report)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let now: Timestamp = NOW.parse().expect("now");
    let mut out = Vec::new();
    for row in manifest.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (host, path) = (cols[0], cols[1]);
        let body = std::fs::read(root.join(host).join(path.trim_start_matches('/'))).expect("corpus file");
        let url = url::Url::parse(&format!("https://{host}{path}")).expect("url");
        let meta = FetchMeta::synthetic(url, Some("text/plain; charset=utf-8"), now);
        let report = std::panic::catch_unwind(|| parse(&body, &meta))
            .unwrap_or_else(|_| panic!("parser panicked on {host}{path}"));
        out.push((host.to_string(), path.to_string(), report));
    }
    out
}

/// Files per (diagnostic code, severity).
type CodeCounts = BTreeMap<(String, &'static str), usize>;

/// Summary rows: (label, count), and files per code.
fn summary(reports: &[(String, String, Report)]) -> (Vec<(&'static str, usize)>, CodeCounts) {
    let count = |f: &dyn Fn(&Report) -> bool| reports.iter().filter(|(_, _, r)| f(r)).count();
    let fact = |r: &Report, k: &str, v: &str| r.facts.get(k).and_then(|x| x.as_str()) == Some(v);
    let rows = vec![
        ("files", reports.len()),
        ("at /.well-known/security.txt", reports.iter().filter(|(_, p, _)| p == "/.well-known/security.txt").count()),
        ("at legacy /security.txt", reports.iter().filter(|(_, p, _)| p == "/security.txt").count()),
        ("valid (no error)", count(&|r| r.valid())),
        ("HTML page, not read as fields", count(&|r| r.kind == "html")),
        ("OpenPGP-signed", count(&|r| r.facts.get("signed") == Some(&serde_json::Value::Bool(true)))),
        ("with an Expires date", count(&|r| r.facts.contains_key("expires"))),
        ("expired at `now`", count(&|r| r.has_code("expired"))),
        ("missing Contact", count(&|r| r.has_code("missing_contact"))),
        ("missing Expires", count(&|r| r.has_code("missing_expires"))),
        ("with a Canonical field", count(&|r| r.candidates.iter().any(|c| c.relation() == "canonical"))),
        ("canonical_mismatch", count(&|r| r.has_code("canonical_mismatch"))),
        (
            "at least one contact candidate",
            count(&|r| r.values(wellknown_core::CandidateKind::Contact).next().is_some()),
        ),
        ("signature not checked (no key given)", count(&|r| fact(r, "signature", "not_checked"))),
    ];
    let mut codes = CodeCounts::new();
    for (_, _, r) in reports {
        let mut seen = std::collections::BTreeSet::new();
        for d in &r.errors {
            seen.insert((d.code.clone(), "error"));
        }
        for d in &r.warnings {
            seen.insert((d.code.clone(), "warning"));
        }
        for k in seen {
            *codes.entry(k).or_default() += 1;
        }
    }
    (rows, codes)
}

#[test]
fn corpus_never_panics_and_counts_are_pinned() {
    let reports = corpus();
    let (rows, codes) = summary(&reports);
    println!("| measure | files |\n| --- | ---: |");
    for (label, n) in &rows {
        println!("| {label} | {n} |");
    }
    println!("\n| code | severity | files |\n| --- | --- | ---: |");
    for ((code, sev), n) in &codes {
        println!("| `{code}` | {sev} | {n} |");
    }
    let want_rows: Vec<(&str, usize)> = vec![
        ("files", 1216),
        ("at /.well-known/security.txt", 910),
        ("at legacy /security.txt", 306),
        ("valid (no error)", 5),
        ("HTML page, not read as fields", 0),
        ("OpenPGP-signed", 3),
        ("with an Expires date", 5),
        ("expired at `now`", 0),
        ("missing Contact", 1),
        ("missing Expires", 1211),
        ("with a Canonical field", 13),
        ("canonical_mismatch", 4),
        ("at least one contact candidate", 1201),
        ("signature not checked (no key given)", 3),
    ];
    assert_eq!(rows, want_rows);
    let want_codes: Vec<(&str, &str, usize)> = vec![
        ("bom", "error", 5),
        ("canonical_mismatch", "error", 4),
        ("cr_line_ending", "error", 4),
        ("insecure_uri", "error", 15),
        ("invalid_line", "error", 10),
        ("legacy_location", "warning", 306),
        ("long_expiry", "warning", 4),
        ("missing_contact", "error", 1),
        ("missing_encryption", "warning", 114),
        ("missing_expires", "error", 1211),
        ("missing_final_newline", "error", 278),
        ("not_a_uri", "error", 742),
        ("not_signed", "warning", 1213),
        ("signed_without_canonical", "warning", 1),
        ("unknown_field", "warning", 524),
        ("whitespace_before_colon", "error", 3),
    ];
    let got_codes: Vec<(&str, &str, usize)> = codes.iter().map(|((c, s), n)| (c.as_str(), *s, *n)).collect();
    assert_eq!(got_codes, want_codes);
}

#[test]
fn corpus_candidates_are_normalised() {
    for (host, path, r) in corpus() {
        for c in &r.candidates {
            assert!(c.locator().is_some(), "{host}{path}: candidate without a line: {c:?}");
            match c.kind() {
                wellknown_core::CandidateKind::Url => {
                    let u = url::Url::parse(c.value()).expect("url candidate parses");
                    assert_eq!(u.as_str(), c.value(), "{host}{path}");
                    assert!(matches!(u.scheme(), "http" | "https"), "{host}{path}: {}", c.value());
                }
                wellknown_core::CandidateKind::Host => {
                    assert_eq!(c.value(), c.value().to_ascii_lowercase(), "{host}{path}");
                    assert!(!c.value().is_empty());
                }
                _ => {}
            }
        }
        let covers = r.facts.get("covers_host").and_then(|v| v.as_str());
        assert_eq!(covers, Some(host.as_str()), "{host}{path}");
    }
}

#[test]
fn internet_nl_is_signed_and_canonical() {
    let all = corpus();
    let (_, _, r) = all.iter().find(|(h, _, _)| h == "internet.nl").expect("internet.nl");
    assert_eq!(r.facts.get("signed"), Some(&serde_json::Value::Bool(true)));
    assert_eq!(r.facts.get("signature").and_then(|v| v.as_str()), Some("not_checked"));
    assert!(!r.has_code("canonical_mismatch"));
    assert!(!r.has_code("invalid_signature_format"));
    assert_eq!(r.candidates.iter().filter(|c| c.relation() == "canonical").count(), 16);
}
