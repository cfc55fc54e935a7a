//! Real robots.txt files from `tests/fixtures/sites/<host>/robots.txt` (see `tests/fixtures/SOURCES.md`):
//! group counts, specific verdicts with their deciding line, sitemaps and the warts (HTML page, BOM,
//! CRLF, empty file, misspellings, a file over the 500 KiB parse limit).

use std::path::PathBuf;

use wellknown_robots::{MatchedRule, PARSE_LIMIT, RobotsTxt};

fn load(host: &str) -> (Vec<u8>, RobotsTxt) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host).join("robots.txt");
    let body = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let robots = RobotsTxt::parse(&body);
    (body, robots)
}

fn rule(line: u32, directive: &'static str, pattern: &str) -> Option<MatchedRule> {
    Some(MatchedRule { line, directive, pattern: pattern.to_string() })
}

fn sitemaps(r: &RobotsTxt) -> Vec<String> {
    r.sitemaps().iter().filter_map(|s| s.url.as_ref().map(|u| u.to_string())).collect()
}

fn count(r: &RobotsTxt, code: &str) -> usize {
    r.diagnostics().iter().filter(|d| d.code == code).count()
}

#[test]
fn docs_oracle_com_is_over_the_parse_limit() {
    let (body, r) = load("docs.oracle.com");
    assert_eq!(body.len(), 852_935);
    assert!(body.len() > PARSE_LIMIT);
    assert_eq!(count(&r, "over_parse_limit"), 1);
    assert!(r.parsed_bytes() <= PARSE_LIMIT);
    assert_eq!(r.groups().len(), 1);
    assert_eq!(r.groups()[0].agents[0].value, "*");
    assert_eq!(r.rule_count(), 19_125);
    let v = r.check("Googlebot", "/cds/anything.html");
    assert!(!v.allowed);
    assert_eq!(v.rule, rule(5, "disallow", "/cds/"));
    assert!(r.check("Googlebot", "/en/java/").allowed);
}

#[test]
fn html_error_pages_declare_nothing() {
    for host in ["103.88.218.109", "misuse.ncbi.nlm.nih.gov", "archive.codeplex.com"] {
        let (_, r) = load(host);
        assert_eq!(count(&r, "html_document"), 1, "{host}");
        // One diagnostic for the page, not one per line (at most a BOM besides).
        let other: Vec<&str> = r
            .diagnostics()
            .iter()
            .map(|d| d.code.as_str())
            .filter(|c| !matches!(*c, "html_document" | "bom"))
            .collect();
        assert!(other.is_empty(), "{host}: {other:?}");
        assert!(r.groups().is_empty(), "{host}");
        assert!(r.sitemaps().is_empty(), "{host}");
        assert!(r.check("Googlebot", "/anything").allowed, "{host}");
    }
    // 103.88.218.109 is also CRLF: 22 lines counted once each.
    assert_eq!(load("103.88.218.109").1.line_count(), 22);
}

#[test]
fn empty_files_allow_everything_silently() {
    for host in ["avaaz.org", "caniuse.com"] {
        let (body, r) = load(host);
        assert!(body.is_empty());
        assert!(r.groups().is_empty() && r.diagnostics().is_empty(), "{host}");
        assert!(r.check("FooBot", "/").allowed);
    }
}

#[test]
fn en_wikipedia_org_bom_and_groups() {
    let (body, r) = load("en.wikipedia.org");
    assert!(body.starts_with(b"\xEF\xBB\xBF"));
    assert_eq!(count(&r, "bom"), 1);
    assert_eq!(r.groups().len(), 33);
    let v = r.check("MJ12bot/v1.4.8", "/wiki/Main_Page");
    assert_eq!((v.allowed, v.rule), (false, rule(12, "disallow", "/")));
    assert_eq!(r.check("FooBot", "/w/load.php?x").rule, rule(155, "allow", "/w/load.php?"));
    assert_eq!(r.check("FooBot", "/w/index.php").rule, rule(157, "disallow", "/w/"));
    assert!(r.check("FooBot", "/wiki/Main_Page").allowed);
}

#[test]
fn www_aao_org_bom_before_a_sitemap_line() {
    let (_, r) = load("www.aao.org");
    assert_eq!(count(&r, "bom"), 1);
    assert_eq!(
        sitemaps(&r),
        ["https://www.aao.org/sitemap.xml", "https://www.aao.org/sitemap_lms.xml", "https://isrs.org/sitemap.xml"]
    );
    assert_eq!(r.sitemaps()[0].line, 1);
    assert_eq!(r.groups().len(), 2);
}

#[test]
fn www_nytimes_com_rules_and_sitemaps() {
    let (_, r) = load("www.nytimes.com");
    assert_eq!(r.groups().len(), 3);
    assert_eq!(r.sitemaps().len(), 6);
    assert_eq!(sitemaps(&r)[0], "https://www.nytimes.com/sitemaps/www.nytimes.com/sitemap.xml.gz");
    assert_eq!(r.check("FooBot", "/ads/public/x").rule, rule(2, "allow", "/ads/public/"));
    assert_eq!(r.check("FooBot", "/ads/x").rule, rule(4, "disallow", "/ads/"));
    assert_eq!(r.check("FooBot", "/report.pdf").rule, rule(13, "disallow", "/*.pdf$"));
    assert!(r.check("FooBot", "/report.pdf?x=1").allowed);
    assert_eq!(r.check("FooBot", "/2020/a.html?utm_source=x").rule, rule(14, "disallow", "/*?*utm_source="));
    assert!(!r.check("omgilibot", "/").allowed);
}

#[test]
fn www_google_com_longest_match() {
    let (_, r) = load("www.google.com");
    assert_eq!(r.groups().len(), 4);
    assert_eq!(sitemaps(&r), ["https://www.google.com/sitemap.xml"]);
    assert_eq!(r.check("FooBot", "/search?q=x").rule, rule(2, "disallow", "/search"));
    assert_eq!(r.check("FooBot", "/search/about").rule, rule(3, "allow", "/search/about"));
    assert_eq!(r.check("FooBot", "/?hl=en&gws_rd=ssl").rule, rule(12, "allow", "/?hl=*&gws_rd=ssl$"));
    assert_eq!(r.check("FooBot", "/?hl=en&x=1").rule, rule(11, "disallow", "/?hl=*&"));
    assert_eq!(r.check("FooBot", "/m/finance").rule, rule(23, "allow", "/m/finance"));
}

#[test]
fn www_reddit_com_tokens_with_digits() {
    let (_, r) = load("www.reddit.com");
    assert_eq!(r.groups().len(), 7);
    assert_eq!(r.check("008", "/r/rust").rule, rule(3, "disallow", "/"));
    assert_eq!(r.check("MJ12bot", "/").rule, rule(16, "disallow", "/"));
    assert!(!r.check("bender", "/my_shiny_metal_ass").allowed);
    assert!(r.check("bender", "/r/rust").allowed);
    assert!(!r.check("FooBot", "/r/rust/submit").allowed);
    assert!(r.check("FooBot", "/r/rust/submit/x").allowed);
    assert!(!r.check("FooBot", "/data.json").allowed);
}

#[test]
fn misspellings_google_accepts() {
    let (_, r) = load("www.dbs.com");
    assert_eq!(count(&r, "misspelled_directive"), 2);
    // Line 13 (Googlebot group) and line 43 (the `*` group) both read as disallow.
    assert_eq!(r.check("Googlebot", "/B3W-qTPjPeSSLAFk/x").rule, rule(13, "disallow", "/B3W-qTPjPeSSLAFk/"));
    assert_eq!(r.check("FooBot", "/B3W-qTPjPeSSLAFk/x").rule, rule(43, "disallow", "/B3W-qTPjPeSSLAFk/"));
    let (_, r) = load("www.answers.com");
    assert_eq!(count(&r, "misspelled_directive"), 3);
    assert_eq!(r.groups().iter().filter(|g| g.agents.iter().any(|a| a.token == "sosobot")).count(), 1);
    assert_eq!(r.nonstandard().iter().filter(|n| n.name == "noindex").count(), 17);
    let (_, r) = load("www.talbots.com");
    assert_eq!(count(&r, "misspelled_directive"), 1);
    assert_eq!(r.groups().len(), 1);
    assert_eq!(r.groups()[0].agents[0].token, "*");
}

#[test]
fn nonstandard_records() {
    let (_, r) = load("adguard.com");
    let names: Vec<&str> = r.nonstandard().iter().map(|n| n.name).collect();
    assert_eq!(names, ["clean-param", "host"]);
    assert_eq!(r.nonstandard()[1].value, "https://adguard.com");
    assert_eq!(r.nonstandard()[1].group, Some(0));
    let (_, r) = load("twitter.com");
    assert_eq!(r.crawl_delay("FooBot"), Some(1.0));
    assert_eq!(sitemaps(&r), ["https://twitter.com/sitemap.xml"]);
    let (_, r) = load("ipwatchdog.com");
    assert_eq!(r.nonstandard()[0].line, 1);
    assert_eq!(r.nonstandard()[0].group, None);
    assert_eq!(r.crawl_delay("FooBot"), None);
    assert_eq!(count(&r, "invalid_pattern"), 2);
}

#[test]
fn crlf_files_parse_like_lf() {
    let (body, r) = load("adage.com");
    assert!(body.windows(2).any(|w| w == b"\r\n"));
    let lf: Vec<u8> = body.iter().copied().filter(|&b| b != b'\r').collect();
    let r2 = RobotsTxt::parse(&lf);
    assert_eq!(r.groups(), r2.groups());
    assert_eq!(r.groups().len(), 2);
    assert_eq!(r.rule_count(), 42);
}

#[test]
fn every_fixture_parses_and_answers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path().join("robots.txt");
        let Ok(body) = std::fs::read(&path) else { continue };
        let r = RobotsTxt::parse(&body);
        for agent in ["Googlebot", "FooBot/1.0", "*", ""] {
            for p in ["/", "/robots.txt", "/a/b?c=d", "/%E3%83%84"] {
                let v = r.check(agent, p);
                assert_eq!(v.allowed, r.is_allowed(agent, p), "{}", path.display());
            }
            assert!(r.check(agent, "/robots.txt").allowed);
        }
        n += 1;
    }
    assert!(n >= 30, "only {n} robots.txt fixtures");
}
