//! Property tests: the parser, the matcher and the probe never panic, whatever the bytes, agent and
//! path; and a few invariants hold for every input.

use proptest::prelude::*;
use wellknown_conformance::invariants::check_interpret;
use wellknown_core::FetchMeta;
use wellknown_core::jiff::Timestamp;
use wellknown_core::url::Url;
use wellknown_robots::{PARSE_LIMIT, RobotsProbe, RobotsTxt, check_url};

/// Bytes biased towards robots.txt syntax, so that groups and rules are actually built.
fn robots_like() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        Just(b"User-agent: *".to_vec()),
        Just(b"user agent FooBot".to_vec()),
        "[A-Za-z*]{0,8}".prop_map(|s| format!("User-agent: {s}").into_bytes()),
        "[/a-z*$%0-9A-F?=&.~ ]{0,16}".prop_map(|s| format!("Disallow: {s}").into_bytes()),
        "[/a-z*$%0-9A-F?=&.~]{0,16}".prop_map(|s| format!("allow {s}").into_bytes()),
        "[ -~]{0,30}".prop_map(|s| format!("Sitemap: {s}").into_bytes()),
        "[ -~]{0,12}".prop_map(|s| format!("Crawl-delay: {s}").into_bytes()),
        "[ -~]{0,12}".prop_map(|s| format!("Host: {s}").into_bytes()),
        proptest::collection::vec(any::<u8>(), 0..24),
    ];
    let end = prop_oneof![Just(b"\n".to_vec()), Just(b"\r\n".to_vec()), Just(b"\r".to_vec())];
    proptest::collection::vec((line, end), 0..24).prop_map(|lines| {
        let mut out = Vec::new();
        for (l, e) in lines {
            out.extend(l);
            out.extend(e);
        }
        out
    })
}

fn meta() -> FetchMeta {
    FetchMeta::synthetic(
        Url::parse("https://a.example/robots.txt").expect("url"),
        Some("text/plain"),
        Timestamp::UNIX_EPOCH,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..2048), agent in any::<String>(), path in any::<String>()) {
        let r = RobotsTxt::parse(&body);
        let v = r.check(&agent, &path);
        prop_assert_eq!(v.allowed, r.is_allowed(&agent, &path));
        // A path is checked against the file (robots_url None: the file governs it) or refused with
        // an error, never both.
        let outcome = check_url(&r, None, &agent, &path);
        prop_assert_eq!(outcome.allowed.is_none(), outcome.error.is_some());
        check_interpret(&RobotsProbe, &body, &meta()).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn robots_like_input_never_panics(body in robots_like(), agent in "[A-Za-z0-9/ .*-]{0,12}", path in "[/a-z*$%0-9A-F?=&.~#]{0,24}") {
        let r = RobotsTxt::parse(&body);
        let v = r.check(&agent, &path);
        prop_assert_eq!(v.allowed, r.is_allowed(&agent, &path));
        // The deciding rule exists in the file, on the line it names.
        if let Some(rule) = &v.rule {
            let found = r.groups().iter().flat_map(|g| &g.rules).any(|x| x.line == rule.line && x.pattern == rule.pattern);
            prop_assert!(found);
        }
        prop_assert!(r.check(&agent, "/robots.txt").allowed);
        let report = check_interpret(&RobotsProbe, &body, &meta()).map_err(TestCaseError::fail)?;
        prop_assert!(report.candidates.iter().all(|c| !c.value().is_empty()));
    }

    #[test]
    fn parse_limit_holds(pad in 0usize..12, tail in "[ -~]{0,40}") {
        let mut body = b"User-agent: *\n".to_vec();
        body.resize(PARSE_LIMIT - pad, b'#');
        body.extend_from_slice(format!("\nDisallow: /{tail}\n").as_bytes());
        let r = RobotsTxt::parse(&body);
        prop_assert!(r.parsed_bytes() <= PARSE_LIMIT);
        prop_assert!(r.has_code("over_parse_limit"));
        prop_assert_eq!(r.rule_count(), 0);
    }
}
