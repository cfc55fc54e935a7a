//! The page size budget (docs/graph-page.md): a synthetic scan of 2,000 origins.

use serde_json::Value;
use wellknown_graph_page::{Page, PageOptions};

use crate::records::{candidate, document, relation, scan};

/// The documented budget for the synthetic 2,000-origin graph below.
const BUDGET: u64 = 16 * 1024 * 1024;

#[test]
fn a_scan_of_2000_origins_stays_under_the_budget() {
    let mut page = Page::new(PageOptions::default());
    let mut push = |r: Value| page_push(&mut page, r);
    push(scan(1));
    let origins = 2_000;
    // Per origin: robots.txt (5 disallowed paths, the sitemap), a sitemap of 200 URLs, security.txt
    // (a contact), and for one origin in ten an OpenID configuration (issuer, 4 endpoints, verified).
    for o in 0..origins {
        let base = format!("https://o{o}.example");
        for (doc, _) in docs(&base, o) {
            push(document(&doc, 200));
        }
    }
    for o in 0..origins {
        let base = format!("https://o{o}.example");
        let robots = format!("{base}/robots.txt");
        let sitemap = format!("{base}/sitemap.xml");
        for p in 0..5 {
            push(candidate("path", &format!("/private/{p}"), true, None));
            push(relation(&robots, "robots_disallow", "path", &format!("/private/{p}"), p, 1));
        }
        push(relation(&robots, "robots_sitemap", "sitemap", &sitemap, 9, 1));
        for u in 0..200 {
            push(relation(&sitemap, "sitemap_loc", "url", &format!("{base}/articles/2026/{u}/a-long-slug"), u, 1));
        }
        push(relation(
            &format!("{base}/.well-known/security.txt"),
            "contact",
            "contact",
            &format!("mailto:sec@o{o}.example"),
            1,
            1,
        ));
        if o.is_multiple_of(10) {
            let oidc = format!("{base}/.well-known/openid-configuration");
            push(relation(&oidc, "issuer", "issuer", &base, 1, 1));
            for e in ["authorization", "token", "userinfo", "jwks"] {
                push(candidate("endpoint", &format!("{base}/oauth/{e}"), true, Some("alive")));
                push(relation(&oidc, &format!("{e}_endpoint"), "endpoint", &format!("{base}/oauth/{e}"), 2, 1));
            }
        }
    }
    let mut out = Vec::new();
    let stats = page.finish(&mut out).unwrap();
    if let Some(path) = std::env::var_os("WELLKNOWN_PAGE_SAMPLE") {
        std::fs::write(path, &out).unwrap();
    }
    eprintln!("2,000 origins: {stats:?}");
    assert_eq!(stats.groups_collapsed, 2_000);
    assert_eq!(stats.relations_collapsed, 400_000);
    assert_eq!(stats.values_kept, 20_000);
    assert!(stats.bytes < BUDGET, "page of {} bytes over the budget of {BUDGET}", stats.bytes);
}

fn docs(base: &str, o: usize) -> Vec<(String, ())> {
    let mut v = vec![
        (format!("{base}/robots.txt"), ()),
        (format!("{base}/sitemap.xml"), ()),
        (format!("{base}/.well-known/security.txt"), ()),
    ];
    if o.is_multiple_of(10) {
        v.push((format!("{base}/.well-known/openid-configuration"), ()));
    }
    v
}

fn page_push(page: &mut Page, r: Value) {
    page.push(&r).unwrap();
}
