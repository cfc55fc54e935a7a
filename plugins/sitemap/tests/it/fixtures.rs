//! Real sitemaps from `tests/fixtures/sites/` (see tests/fixtures/SOURCES.md), with values checked
//! against the files: URL counts, specific locs, child counts, and a simulated crawl of the six-level
//! index tree of sitemaps.mydripnurse.com the way the engine follows it (follow-ups, declared_by,
//! visited set, depth cap; absent files answer 404).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Report, Timestamp};
use wellknown_sitemap::{Limits, MAX_INDEX_DEPTH, parse_sitemap};

fn site_path(url: &Url) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/sites")
        .join(url.host_str().unwrap_or("none"))
        .join(url.path().trim_start_matches('/'))
}

fn fetch(url: &Url) -> Option<Vec<u8>> {
    // The fixture tree stores non-ASCII names decoded (CUAHSI_HIS_Isábena_ids__0.xml).
    let p = site_path(url);
    let decoded = percent_decode(&p.to_string_lossy());
    std::fs::read(&p).ok().or_else(|| std::fs::read(decoded).ok())
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn parse_at(url: &str, declared_by: &[&str]) -> Report {
    let url = Url::parse(url).unwrap();
    let body = fetch(&url).unwrap_or_else(|| panic!("fixture missing: {url}"));
    let mut meta = FetchMeta::synthetic(url, None, Timestamp::UNIX_EPOCH);
    meta.declared_by = declared_by.iter().map(|d| Url::parse(d).unwrap()).collect();
    parse_sitemap(&body, &meta, &Limits::default())
}

fn count(r: &Report, code: &str) -> usize {
    r.errors.iter().chain(&r.warnings).filter(|d| d.code == code).count()
}

#[test]
fn geoconnex_index_of_106_children_with_padded_locs() {
    let r = parse_at("https://geoconnex.us/sitemap/_sitemap.xml", &[]);
    assert_eq!(r.kind, "sitemapindex");
    let children: Vec<&str> = r.values(CandidateKind::Sitemap).collect();
    assert_eq!(children.len(), 106);
    assert_eq!(children[0], "https://geoconnex.us/sitemap/CUAHSI/CUAHSI_HIS_NCEIWW2_ids__0.xml");
    assert!(children.contains(&"https://geoconnex.us/sitemap/CUAHSI/CUAHSI_HIS_Is%C3%A1bena_ids__0.xml"));
    assert!(children.contains(&"https://geoconnex.us/sitemap/ref/pws/pws__3.xml"));
    // All children are under /sitemap/, so all are followed.
    assert_eq!(r.follow_ups.len(), 106);
    assert!(r.follow_ups.iter().all(|f| f.probe == "sitemap" && f.role == "child_sitemap"));
    // Padded, non-W3C lastmod: kept trimmed as declared, diagnosed (100 kept, 6 counted).
    assert_eq!(r.candidates.get(0).unwrap().hint("lastmod"), Some("2021-10-28 22:36:25.265782"));
    assert_eq!(count(&r, "invalid_lastmod"), 100);
    assert_eq!(r.facts["suppressed_diagnostics"]["invalid_lastmod"], 6);
    assert_eq!(
        r.candidates.get(2).unwrap().locator(),
        Some(wellknown_core::Locator::Xml("/sitemapindex/sitemap[3]/loc".into()))
    );
}

#[test]
fn geoconnex_largest_urlset() {
    let r = parse_at("https://geoconnex.us/sitemap/ref/pws/pws__3.xml", &[]);
    assert_eq!(r.kind, "urlset");
    let locs: Vec<&str> = r.values(CandidateKind::Url).collect();
    assert_eq!(locs.len(), 31_175);
    assert_eq!(locs[0], "https://geoconnex.us/ref/pws/IL1615450");
    assert_eq!(locs[locs.len() - 1], "https://geoconnex.us/ref/pws/PA0000000");
    // /ref/pws/... is outside /sitemap/ref/pws/: flagged, never dropped.
    assert!(r.candidates.iter().all(|c| c.has_flag("out_of_location")));
    assert_eq!(r.facts["out_of_location"], 31_175);
    // ... unless geoconnex.us's robots.txt declared the sitemap (cross-submission).
    let r = parse_at("https://geoconnex.us/sitemap/ref/pws/pws__3.xml", &["https://geoconnex.us/robots.txt"]);
    assert!(r.candidates.iter().all(|c| !c.has_flag("out_of_location")));
    assert_eq!(count(&r, "out_of_location"), 0);
}

#[test]
fn geoconnex_all_present_children_parse() {
    let index = parse_at("https://geoconnex.us/sitemap/_sitemap.xml", &[]);
    let (mut present, mut absent, mut urls) = (0, 0, 0);
    for f in &index.follow_ups {
        match fetch(&f.url) {
            Some(body) => {
                present += 1;
                let mut meta = FetchMeta::synthetic(f.url.clone(), None, Timestamp::UNIX_EPOCH);
                meta.declared_by = vec![Url::parse("https://geoconnex.us/robots.txt").unwrap()];
                let r = parse_sitemap(&body, &meta, &Limits::default());
                assert_eq!(r.kind, "urlset", "{}", f.url);
                urls += r.values(CandidateKind::Url).count();
            }
            None => absent += 1,
        }
    }
    assert_eq!((present, absent), (84, 22));
    assert!(urls > 48_000, "{urls}");
}

#[test]
fn mykumi_tree_and_products() {
    let r = parse_at("https://sitemap.mykumi.com/live-sitemap.xml", &[]);
    assert_eq!(
        r.values(CandidateKind::Sitemap).collect::<Vec<_>>(),
        [
            "https://sitemap.mykumi.com/en.xml",
            "https://sitemap.mykumi.com/fr.xml",
            "https://sitemap.mykumi.com/de.xml",
            "https://sitemap.mykumi.com/nl.xml"
        ]
    );
    let en = parse_at("https://sitemap.mykumi.com/en.xml", &["https://sitemap.mykumi.com/live-sitemap.xml"]);
    assert_eq!(en.values(CandidateKind::Sitemap).count(), 18);
    assert_eq!(count(&en, "nested_index"), 1);
    let p = parse_at("https://sitemap.mykumi.com/en-products-1.xml", &["https://sitemap.mykumi.com/en.xml"]);
    let locs: Vec<&str> = p.values(CandidateKind::Url).collect();
    assert_eq!(locs.len(), 2_501);
    assert_eq!(locs[1], "https://mykumi.com/products/chic-audrey-jersey-line-knee-length-dress");
    // Page URLs live on mykumi.com, the sitemap on sitemap.mykumi.com.
    assert!(p.candidates.iter().all(|c| c.has_flag("out_of_location")));
    let p = parse_at("https://sitemap.mykumi.com/en-products-1.xml", &["https://mykumi.com/robots.txt"]);
    assert!(p.candidates.iter().all(|c| !c.has_flag("out_of_location")));
}

#[test]
fn ou7line_hreflang_alternates() {
    let r = parse_at("https://ou7line.com/sitemap-en.xml", &[]);
    assert_eq!(r.kind, "urlset");
    assert_eq!(r.values(CandidateKind::Url).filter(|_| true).count(), 26 + 77);
    let locs: Vec<_> = r.candidates.iter().filter(|c| c.relation() == "sitemap_loc").collect();
    let alts: Vec<_> = r.candidates.iter().filter(|c| c.relation() == "sitemap_alternate").collect();
    assert_eq!((locs.len(), alts.len()), (26, 77));
    assert_eq!(locs[0].value(), "https://ou7line.com/");
    assert_eq!(locs[0].hint("priority"), Some("1.0"));
    assert_eq!(locs[0].hint("changefreq"), Some("weekly"));
    let fr = alts.iter().find(|c| c.value() == "https://fr.ou7line.com/").expect("fr alternate");
    assert_eq!(fr.hint("hreflang"), Some("fr"));
    assert_eq!(fr.locator(), Some(wellknown_core::Locator::Xml("/urlset/url[1]/link[2]".into())));
    // Alternates on other hosts are legal: never flagged.
    assert!(alts.iter().all(|c| !c.has_flag("out_of_location")));
    assert!(r.valid(), "{:?}", r.errors);
}

#[test]
fn sitemaps_org_own_sitemap() {
    let r = parse_at("https://www.sitemaps.org/sitemap.xml", &[]);
    assert_eq!(r.kind, "urlset");
    let locs: Vec<&str> = r.values(CandidateKind::Url).collect();
    assert_eq!(locs.len(), 84);
    assert_eq!(locs[0], "https://www.sitemaps.org/");
    assert_eq!(locs[83], "https://www.sitemaps.org/zh_TW/terms.html");
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.candidates.get(1).unwrap().hint("lastmod"), Some("2016-11-21"));
}

/// Follows the tree from robots.txt as the engine does: follow-ups keyed on URL in a visited set, the
/// declaring document passed as `declared_by`, at most `MAX_INDEX_DEPTH` hops.
#[test]
fn mydripnurse_six_level_index_tree() {
    let robots = fetch(&Url::parse("https://sitemaps.mydripnurse.com/robots.txt").unwrap()).unwrap();
    let robots = String::from_utf8(robots).unwrap();
    let start: Vec<Url> =
        robots.lines().filter_map(|l| l.strip_prefix("Sitemap:")).map(|v| Url::parse(v.trim()).unwrap()).collect();
    assert_eq!(start, [Url::parse("https://sitemaps.mydripnurse.com/sitemap.xml").unwrap()]);
    let robots_url = Url::parse("https://sitemaps.mydripnurse.com/robots.txt").unwrap();

    let mut queue: VecDeque<(Url, Url, u8)> = start.into_iter().map(|u| (u, robots_url.clone(), 1)).collect();
    let mut visited = BTreeSet::new();
    let mut per_level: BTreeMap<u8, usize> = BTreeMap::new();
    let (mut not_found, mut declared_children, mut out_of_location, mut nested) = (0, 0, BTreeSet::new(), 0);
    while let Some((url, parent, level)) = queue.pop_front() {
        if !visited.insert(url.clone()) || level > MAX_INDEX_DEPTH {
            continue;
        }
        let Some(body) = fetch(&url) else {
            not_found += 1;
            continue;
        };
        *per_level.entry(level).or_default() += 1;
        let mut meta = FetchMeta::synthetic(url.clone(), None, Timestamp::UNIX_EPOCH);
        meta.declared_by = vec![parent];
        let r = parse_sitemap(&body, &meta, &Limits::default());
        assert_eq!(r.kind, "sitemapindex", "{url}");
        declared_children += r.values(CandidateKind::Sitemap).count();
        nested += count(&r, "nested_index");
        for c in r.candidates.iter().filter(|c| c.has_flag("out_of_location")) {
            out_of_location.insert(c.value().to_string());
        }
        for f in r.follow_ups {
            queue.push_back((f.url, url.clone(), level + 1));
        }
    }
    // Six nested index levels: root, states, state, counties, county, city.
    assert_eq!(per_level.keys().copied().max(), Some(6));
    assert_eq!(per_level[&1], 1);
    assert_eq!(per_level[&2], 1);
    assert_eq!(per_level[&3], 51);
    assert_eq!(per_level.values().sum::<usize>(), 156);
    // Every index below the root was declared by another sitemap.
    assert_eq!(nested, 155);
    // Children on other hosts are recorded (flagged), not followed.
    assert!(out_of_location.contains("https://mydripnurse.com/sitemap.xml"));
    assert!(out_of_location.contains("https://delaware.mydripnurse.com/sitemap.xml"));
    assert!(out_of_location.iter().all(|u| !u.starts_with("https://sitemaps.mydripnurse.com/")));
    assert!(not_found > 0);
    assert!(declared_children > 156 + not_found);
}
