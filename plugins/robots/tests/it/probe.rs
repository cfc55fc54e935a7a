//! The `robots` probe: registration, candidates from `interpret`, RFC 9309 fetch semantics in
//! `interpret_unavailable`, and `run` against an in-memory fetch context.

use std::future::Future;
use std::path::PathBuf;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use wellknown_core::async_trait::async_trait;
use wellknown_core::jiff::Timestamp;
use wellknown_core::url::Url;
use wellknown_core::{
    CandidateKind, CandidateRef, FailureClass, FetchFailure, FetchMeta, FetchRequest, FetchResult, Locator, Origin,
    ProbeContext, Report, Target, WellKnownProbe,
};
use wellknown_robots::RobotsProbe;

fn meta(url: &str, ct: Option<&str>) -> FetchMeta {
    FetchMeta::synthetic(Url::parse(url).expect("url"), ct, Timestamp::UNIX_EPOCH)
}

fn interpret(body: &str) -> Report {
    RobotsProbe.interpret(body.as_bytes(), &meta("https://a.example/robots.txt", Some("text/plain")))
}

fn fixture(host: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites").join(host).join("robots.txt");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn simple(c: CandidateRef<'_>) -> (String, String, String, Option<u32>) {
    let line = match c.locator() {
        Some(Locator::Line(n)) => Some(n),
        _ => None,
    };
    (c.kind().to_string(), c.relation().to_string(), c.value().to_string(), line)
}

fn tuple(kind: &str, rel: &str, value: &str, line: u32) -> (String, String, String, Option<u32>) {
    (kind.into(), rel.into(), value.into(), Some(line))
}

#[test]
fn registered_with_its_identity() {
    let p = wellknown_core::probe_by_id("robots").expect("robots probe registered");
    assert_eq!((p.id(), p.suffix(), p.spec()), ("robots", None, "RFC 9309"));
    let policy = p.policy();
    assert!(policy.follow_redirects);
    assert_eq!(policy.max_redirects, 5);
    assert_eq!(policy.max_body_bytes, 1024 * 1024);
    let origin = Origin::parse_target("https://a.example:8443").expect("origin");
    assert_eq!(p.locations(&Target::origin(origin))[0].as_str(), "https://a.example:8443/robots.txt");
}

#[test]
fn candidates_in_document_order() {
    let r = interpret(
        "Sitemap: https://a.example/sitemap.xml\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n\
         User-agent: *\nCrawl-delay: 5\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/press$\n\
         Disallow:\nDisallow: /private/\nDisallow: /b%c3%BCcher/\nSitemap: https://cdn.example/s.xml\n\
         Sitemap: https://a.example/sitemap.xml\n",
    );
    assert!(r.valid());
    assert_eq!(r.kind, "robots");
    assert_eq!(r.facts.get("availability").and_then(|v| v.as_str()), Some("available"));
    assert_eq!(r.facts.get("groups").and_then(|v| v.as_u64()), Some(2));
    let got: Vec<_> = r.candidates.iter().map(simple).collect();
    assert_eq!(
        got,
        vec![
            tuple("sitemap", "robots_sitemap", "https://a.example/sitemap.xml", 1),
            tuple("path", "robots_disallow", "/", 4),
            tuple("url", "robots_disallow", "https://a.example/", 4),
            tuple("path", "robots_disallow", "/private/", 8),
            tuple("url", "robots_disallow", "https://a.example/private/", 8),
            tuple("path", "robots_disallow", "/*.pdf$", 9),
            tuple("path", "robots_allow", "/private/press$", 10),
            tuple("url", "robots_allow", "https://a.example/private/press", 10),
            tuple("path", "robots_disallow", "/private/", 12),
            tuple("path", "robots_disallow", "/b%C3%BCcher/", 13),
            tuple("url", "robots_disallow", "https://a.example/b%C3%BCcher/", 13),
            tuple("sitemap", "robots_sitemap", "https://cdn.example/s.xml", 14),
        ]
    );
    let second = r.candidates.get(1).unwrap();
    assert_eq!(second.hint("group"), Some("GPTBot,CCBot"));
    assert_eq!(second.hint("crawl_delay"), None);
    assert_eq!(r.candidates.get(3).unwrap().hint("group"), Some("*"));
    assert_eq!(r.candidates.get(3).unwrap().hint("crawl_delay"), Some("5"));
    assert!(r.candidates.get(11).unwrap().has_flag("cross_origin"));
    assert!(!r.candidates.get(0).unwrap().has_flag("cross_origin"));
    let follow: Vec<_> = r.follow_ups.iter().map(|f| (f.probe.as_str(), f.url.as_str(), f.role.as_str())).collect();
    assert_eq!(
        follow,
        [
            ("sitemap", "https://a.example/sitemap.xml", "robots_sitemap"),
            ("sitemap", "https://cdn.example/s.xml", "robots_sitemap")
        ]
    );
    let delay = r.facts.get("crawl_delay").expect("crawl_delay fact");
    assert_eq!(delay, &serde_json::json!([{"line": 7, "value": "5", "seconds": 5.0, "group": "*"}]));
}

#[test]
fn leniency_and_odd_values() {
    let r = interpret(
        "Host: https://mirror.a.example\nDisallow: /before-any-agent\nUser-agent: *\nDisallow: //evil.example/x\n\
         Disallow: relative\nSitemap: /relative.xml\nSitemap: ftp://a.example/s.xml\nNoindex: /x\n",
    );
    let got: Vec<_> = r.candidates.iter().map(simple).collect();
    assert_eq!(
        got,
        vec![
            tuple("host", "robots_host", "mirror.a.example", 1),
            tuple("path", "robots_disallow", "/before-any-agent", 2),
            tuple("url", "robots_disallow", "https://a.example/before-any-agent", 2),
            tuple("path", "robots_disallow", "//evil.example/x", 4),
            tuple("path", "robots_disallow", "relative", 5),
        ]
    );
    assert!(r.candidates.get(1).unwrap().has_flag("outside_group"));
    for code in ["rule_outside_group", "invalid_pattern", "relative_sitemap_url", "invalid_sitemap_url"] {
        assert!(r.has_code(code), "{code}: {:?}", r.warnings);
    }
    assert!(r.follow_ups.is_empty());
    let nonstandard = r.facts.get("nonstandard").and_then(|v| v.as_array()).map(Vec::len);
    assert_eq!(nonstandard, Some(2));
}

#[test]
fn latin1_octets_become_percent_encoded_candidates() {
    let body =
        b"User-agent: *\nDisallow: /caf\xE9/\nAllow: /caf\xE9/menu$\nSitemap: https://latin.test/sitem\xE1p.xml\n";
    let r = RobotsProbe.interpret(body, &meta("https://latin.test/robots.txt", Some("text/plain")));
    let got: Vec<_> = r.candidates.iter().map(simple).collect();
    assert_eq!(
        got,
        vec![
            tuple("path", "robots_disallow", "/caf%E9/", 2),
            tuple("url", "robots_disallow", "https://latin.test/caf%E9/", 2),
            tuple("path", "robots_allow", "/caf%E9/menu$", 3),
            tuple("url", "robots_allow", "https://latin.test/caf%E9/menu", 3),
            tuple("sitemap", "robots_sitemap", "https://latin.test/sitem%E1p.xml", 4),
        ]
    );
    let follow: Vec<_> = r.follow_ups.iter().map(|f| f.url.as_str()).collect();
    assert_eq!(follow, ["https://latin.test/sitem%E1p.xml"]);
    let lines: Vec<_> =
        r.errors.iter().filter(|d| d.code == "invalid_utf8").map(|d| d.locator.clone()).collect::<Vec<_>>();
    assert_eq!(lines, [Some(Locator::Line(2)), Some(Locator::Line(3)), Some(Locator::Line(4))]);
}

#[test]
fn content_type_and_html() {
    let m = meta("https://a.example/robots.txt", Some("text/html; charset=utf-8"));
    let r = RobotsProbe.interpret(&fixture("archive.codeplex.com"), &m);
    assert!(r.has_code("invalid_content_type"));
    assert!(r.has_code("html_document"));
    assert!(r.candidates.is_empty());
    assert!(r.valid());
    let m = meta("https://a.example/robots.txt", Some("text/plain; charset=iso-8859-1"));
    assert!(RobotsProbe.interpret(b"User-agent: *\n", &m).has_code("invalid_charset"));
}

#[test]
fn real_file_candidates() {
    let m = meta("https://www.nytimes.com/robots.txt", Some("text/plain"));
    let r = RobotsProbe.interpret(&fixture("www.nytimes.com"), &m);
    assert_eq!(r.values(CandidateKind::Sitemap).count(), 6);
    assert_eq!(r.follow_ups.len(), 6);
    assert_eq!(r.values(CandidateKind::Path).count(), 17);
    let urls: Vec<&str> = r.values(CandidateKind::Url).collect();
    assert!(urls.contains(&"https://www.nytimes.com/ads/public/"));
    assert!(urls.contains(&"https://www.nytimes.com/register"));
    assert!(!urls.iter().any(|u| u.contains('*') || u.contains(".pdf")));
    // "Disallow: /" appears for omgilibot and omgili: one URL candidate, first locator kept.
    let root: Vec<CandidateRef<'_>> = r.candidates.iter().filter(|c| c.value() == "https://www.nytimes.com/").collect();
    assert_eq!(root.len(), 1);
    assert_eq!(root[0].locator(), Some(Locator::Line(19)));

    let m = meta("https://docs.oracle.com/robots.txt", Some("text/plain"));
    let r = RobotsProbe.interpret(&fixture("docs.oracle.com"), &m);
    assert!(r.has_code("over_parse_limit"));
    assert_eq!(r.facts.get("rules").and_then(|v| v.as_u64()), Some(19_125));
}

fn failed(status: Option<u16>, class: Option<FailureClass>) -> FetchMeta {
    let mut m = meta("https://a.example/robots.txt", None);
    m.status = status;
    m.failure = class.map(|class| FetchFailure { class, message: "test".into() });
    m
}

fn availability(m: &FetchMeta) -> Option<(String, String, Vec<String>)> {
    RobotsProbe.interpret_unavailable(m).map(|r| {
        let f = |k: &str| r.facts.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
        (f("availability"), f("crawl_policy"), r.warnings.iter().map(|d| d.code.clone()).collect())
    })
}

#[test]
fn fetch_semantics() {
    let unavailable = Some(("unavailable".to_string(), "allow_all".to_string(), vec!["unavailable".to_string()]));
    let unreachable = Some(("unreachable".to_string(), "disallow_all".to_string(), vec!["unreachable".to_string()]));
    assert_eq!(availability(&failed(Some(404), None)), unavailable);
    assert_eq!(availability(&failed(Some(401), None)), unavailable);
    assert_eq!(availability(&failed(Some(410), None)), unavailable);
    assert_eq!(availability(&failed(Some(301), Some(FailureClass::TooManyRedirects))), unavailable);
    assert_eq!(availability(&failed(None, Some(FailureClass::RedirectLoop))), unavailable);
    assert_eq!(availability(&failed(Some(500), None)), unreachable);
    assert_eq!(availability(&failed(Some(503), None)), unreachable);
    assert_eq!(availability(&failed(Some(429), None)), unreachable);
    for class in [
        FailureClass::DnsNxdomain,
        FailureClass::ConnectRefused,
        FailureClass::ConnectTimeout,
        FailureClass::Tls,
        FailureClass::Timeout,
    ] {
        assert_eq!(availability(&failed(None, Some(class))), unreachable, "{class}");
    }
    assert_eq!(availability(&failed(Some(404), Some(FailureClass::BodyTooLarge))), unavailable);
    assert_eq!(availability(&failed(Some(502), Some(FailureClass::BodyTooLarge))), unreachable);
    assert_eq!(availability(&failed(None, Some(FailureClass::PrivateAddress))), None);
    assert_eq!(availability(&failed(None, Some(FailureClass::OutOfScope))), None);
    let r = RobotsProbe.interpret_unavailable(&failed(Some(503), None)).expect("report");
    assert_eq!(r.kind, "robots");
    assert_eq!(r.facts.get("status").and_then(|v| v.as_u64()), Some(503));
}

/// A fetch context that answers every request with one canned result.
struct Canned(FetchResult);

#[async_trait]
impl ProbeContext for Canned {
    async fn fetch(&self, request: FetchRequest) -> FetchResult {
        let mut r = self.0.clone();
        r.meta.requested_url = request.url.clone();
        r.meta.url = request.url;
        r
    }

    fn now(&self) -> Timestamp {
        Timestamp::UNIX_EPOCH
    }
}

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

#[test]
fn run_interprets_a_body_cut_at_the_cap() {
    let mut m = failed(Some(200), Some(FailureClass::BodyTooLarge));
    m.truncated = true;
    let body = b"User-agent: *\nDisallow: /x\n".to_vec();
    let cx = Canned(FetchResult { meta: m, body });
    let target = Target::origin(Origin::parse_target("https://a.example").expect("origin"));
    let docs = block_on(RobotsProbe.run(&target, &cx));
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].meta.url.as_str(), "https://a.example/robots.txt");
    let r = docs[0].report.as_ref().expect("report");
    assert!(r.has_code("too_large"));
    assert_eq!(r.values(CandidateKind::Path).collect::<Vec<_>>(), ["/x"]);

    let cx = Canned(FetchResult { meta: failed(Some(503), None), body: Vec::new() });
    let docs = block_on(RobotsProbe.run(&target, &cx));
    let r = docs[0].report.as_ref().expect("report");
    assert_eq!(r.facts.get("availability").and_then(|v| v.as_str()), Some("unreachable"));
}

#[test]
fn a_file_requested_elsewhere_than_robots_txt_is_diagnosed() {
    let body = b"User-agent: *\nDisallow: /private/\n";
    let elsewhere = RobotsProbe.interpret(body, &meta("https://a.example/x/robots.txt", Some("text/plain")));
    let d = elsewhere.warnings.iter().find(|d| d.code == "wrong_location").expect("wrong_location");
    assert!(d.message.contains("https://a.example/x/robots.txt"), "{}", d.message);
    // It governs nothing: no crawl policy, though its candidates are still listed.
    let fact = |r: &wellknown_core::Report, k: &str| r.facts.get(k).and_then(|v| v.as_str()).map(str::to_string);
    assert_eq!(fact(&elsewhere, "crawl_policy").as_deref(), Some("none"));
    assert_eq!(fact(&elsewhere, "availability").as_deref(), Some("available"));
    assert_eq!(elsewhere.values(CandidateKind::Path).collect::<Vec<_>>(), ["/private/"]);
    let upper = RobotsProbe.interpret(body, &meta("https://a.example/Robots.txt", Some("text/plain")));
    assert!(upper.has_code("wrong_location"), "{:?}", upper.warnings);
    // Reached through a redirect from /robots.txt: the request is what counts.
    let mut redirected = meta("https://cdn.example/files/robots.txt", Some("text/plain"));
    redirected.requested_url = url::Url::parse("https://a.example/robots.txt").unwrap();
    let r = RobotsProbe.interpret(body, &redirected);
    assert!(!r.has_code("wrong_location"), "{:?}", r.warnings);
    assert_eq!(fact(&r, "crawl_policy").as_deref(), Some("rules"));
    assert!(!RobotsProbe.interpret(body, &meta("https://a.example/robots.txt", None)).has_code("wrong_location"));
}

#[test]
fn the_location_is_compared_after_decoding_unreserved_characters() {
    // RFC 3986 6.2.2.2: %72 is `r`, %2E is `.`, in either hex case: still /robots.txt.
    let body = b"User-agent: *\nDisallow: /private/\n";
    for same in
        ["https://a.example/%72obots.txt", "https://a.example/robots%2etxt", "https://a.example/%72%6F%62ots.txt"]
    {
        let r = RobotsProbe.interpret(body, &meta(same, Some("text/plain")));
        assert!(!r.has_code("wrong_location"), "{same}: {:?}", r.warnings);
    }
    // Reserved characters stay encoded (%2F is no `/`), and case matters in a path.
    for other in ["https://a.example/%2Frobots.txt", "https://a.example/Robots.txt", "https://a.example/%52obots.txt"] {
        let r = RobotsProbe.interpret(body, &meta(other, Some("text/plain")));
        assert!(r.has_code("wrong_location"), "{other}: {:?}", r.warnings);
    }
}
