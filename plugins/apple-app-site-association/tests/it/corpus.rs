//! The 18 real association files in `tests/fixtures/sites/` (sources in `tests/fixtures/SOURCES.md`)
//! parse with the apps, path patterns and URLs a reader sees in them.

use std::path::Path;

use url::Url;
use wellknown_conformance::distinct_values as distinct;
use wellknown_core::{CandidateKind, FetchMeta, Report, Timestamp};

/// Parses `tests/fixtures/sites/<host><path>` as if fetched from `https://<host><path>` with
/// `application/json`.
fn parse(host: &str, path: &str) -> Report {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/fixtures/sites/{host}{path}"));
    let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let url = Url::parse(&format!("https://{host}{path}")).expect("url");
    let meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    wellknown_apple_app_site_association::interpret(&body, &meta)
}

fn well_known(host: &str) -> Report {
    parse(host, "/.well-known/apple-app-site-association")
}

fn warnings(report: &Report) -> Vec<&str> {
    report.warnings.iter().map(|d| d.code.as_str()).collect()
}

const WIKIPEDIA_APPS: [&str; 5] = [
    "apple:AKK7J2GV64.org.wikimedia.wikipedia.developer",
    "apple:AKK7J2GV64.org.wikimedia.wikipedia.tfalpha",
    "apple:AKK7J2GV64.org.wikimedia.wikipedia.tfbeta",
    "apple:AKK7J2GV64.org.wikimedia.wikipedia.adhoc",
    "apple:AKK7J2GV64.org.wikimedia.wikipedia",
];

/// (host, apps, paths as written (`NOT ` for excluded), URLs, warnings) of the well-known files.
#[allow(clippy::type_complexity)]
const EXPECTED: &[(&str, &[&str], &[&str], &[&str], &[&str])] = &[
    ("5calls.org", &["apple:5A8RM3W5R7.org.fivecalls.FiveCalls-ios"], &["/issue/*"], &[], &[]),
    ("bsky.app", &["apple:B3LX46C5HS.xyz.blueskyweb.app"], &["*"], &[], &["legacy_applinks_format"]),
    (
        "coopcycle.org",
        &["apple:66HUGQ2V5L.org.coopcycle.CoopCycle"],
        &["/register/confirm/*", "/resetting/reset/*"],
        &[],
        &["legacy_applinks_format"],
    ),
    ("en.wikipedia.org", &WIKIPEDIA_APPS, &["/wiki/*"], &[], &["legacy_applinks_format"]),
    (
        "minid.no",
        &["apple:9NR5K6K6B5.no.digdir.minid.authenticator.dev", "apple:9NR5K6K6B5.no.digdir.minid.authenticator"],
        &["/app/*", "/app-dev/*"],
        &[],
        &[],
    ),
    (
        "new.expensify.com",
        &["apple:368M544MTT.com.chat.expensify.chat"],
        &[
            "/r/*",
            "/settings/*",
            "/setpassword/*",
            "/details/*",
            "/v/*",
            "/bank-account/*",
            "/iou/*",
            "/enable-payments/*",
            "/partners/plaid/oauth_ios",
            "/statements/*",
            "/concierge/*",
        ],
        &["https://new.expensify.com/partners/plaid/oauth_ios"],
        &[],
    ),
    (
        "prideinlondon.org",
        &["apple:VZ6G7FCBVU.org.prideinlondon.festival"],
        &["/events/*"],
        &[],
        &["legacy_applinks_format"],
    ),
    (
        "provenance-emu.com",
        &[
            "apple:S32Z3HMYVQ.org.provenance-emu.provenance",
            "apple:S32Z3HMYVQ.org.provenance-emu.provenance-watch.watchkitapp",
            "apple:S32Z3HMYVQ.org.provenance-emu.provenance.Clip",
        ],
        &["/buy/*", "/skins/install", "NOT /skins/install", "/skins/*", "NOT /help/website/*", "/help/*", "/game/*"],
        &["https://provenance-emu.com/skins/install"],
        &[],
    ),
    (
        "safe.global",
        &[
            "apple:ZKG876RKJ8.io.gnosis.multisig.prod.mainnet",
            "apple:ZKG876RKJ8.io.gnosis.multisig.prerelease",
            "apple:ZKG876RKJ8.io.gnosis.multisig.dev.mainnet",
            "apple:ZKG876RKJ8.io.gnosis.multisig.dev.rinkeby",
            "apple:ZKG876RKJ8.io.gnosis.multisig.staging.mainnet",
            "apple:ZKG876RKJ8.io.gnosis.multisig.staging.rinkeby",
        ],
        &["*"],
        &[],
        &[],
    ),
    (
        "tab.gladly.io",
        &["apple:839867Y5K7.io.gladly.appforacause"],
        &["/mobile", "/mobile/*"],
        &["https://tab.gladly.io/mobile"],
        &["legacy_applinks_format"],
    ),
    ("thankyou.wikipedia.org", &WIKIPEDIA_APPS, &["NOT /wiki/*"], &[], &[]),
    (
        "welcometomygarden.org",
        &["apple:9RZPVFH532.org.welcometomygarden.app"],
        &["NOT */terms/*", "*"],
        &[],
        &["mixed_applinks_formats"],
    ),
];

#[test]
fn real_files_parse_with_expected_apps_paths_and_urls() {
    for (host, apps, paths, urls, warns) in EXPECTED {
        let r = well_known(host);
        assert!(r.valid(), "{host}: {:?}", r.errors);
        assert_eq!(warnings(&r), *warns, "{host}");
        assert_eq!(distinct(&r, CandidateKind::App), *apps, "{host}");
        assert_eq!(distinct(&r, CandidateKind::Path), *paths, "{host}");
        assert_eq!(distinct(&r, CandidateKind::Url), *urls, "{host}");
        let hosts: Vec<String> = if urls.is_empty() { vec![] } else { vec![host.to_string()] };
        assert_eq!(distinct(&r, CandidateKind::Host), hosts, "{host}");
    }
}

#[test]
fn legacy_copies_match_and_are_noted() {
    for host in ["en.wikipedia.org", "minid.no", "test.wikipedia.org", "thankyou.wikipedia.org"] {
        let modern = well_known(host);
        let legacy = parse(host, "/apple-app-site-association");
        assert!(legacy.has_code("legacy_location"), "{host}");
        assert!(!modern.has_code("legacy_location"), "{host}");
        assert_eq!(legacy.facts.get("location"), Some(&serde_json::json!("legacy")));
        assert_eq!(distinct(&legacy, CandidateKind::App), distinct(&modern, CandidateKind::App), "{host}");
        assert_eq!(distinct(&legacy, CandidateKind::Path), distinct(&modern, CandidateKind::Path), "{host}");
    }
}

#[test]
fn wikipedia_services_relations() {
    let r = well_known("en.wikipedia.org");
    for service in ["applinks", "webcredentials", "activitycontinuation"] {
        let apps: Vec<&str> = r
            .candidates
            .iter()
            .filter(|c| c.kind() == CandidateKind::App && c.relation() == service)
            .map(|c| c.value())
            .collect();
        assert_eq!(apps, WIKIPEDIA_APPS, "{service}");
    }
    assert_eq!(r.facts.get("applinks_format"), Some(&serde_json::json!("paths")));
}

#[test]
fn test_wikipedia_route_table() {
    let r = well_known("test.wikipedia.org");
    assert!(r.valid(), "{:?}", r.errors);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let paths: Vec<_> = r.candidates.iter().filter(|c| c.kind() == CandidateKind::Path).collect();
    assert_eq!(paths.len(), 236);
    assert_eq!(paths.iter().filter(|c| c.has_flag("excluded")).count(), 235);
    assert_eq!(paths[0].value(), "/wiki/Thank_You*");
    assert_eq!(paths[0].hint("comment"), Some("Exclude thank you pages"));
    assert!(paths.iter().any(|c| c.value() == "/wiki/Am%E1%BA%93li:*" && c.has_flag("excluded")));
    let last = paths.last().expect("paths");
    assert_eq!((last.value(), last.has_flag("excluded")), ("/wiki/*", false));
    let edit = paths.iter().find(|c| c.hint("query").is_some()).expect("query component");
    assert_eq!(edit.hint("query"), Some(r#"{"veaction":"edit"}"#));
    let fragment = paths.iter().find(|c| c.hint("fragment").is_some()).expect("fragment component");
    assert_eq!(fragment.hint("fragment"), Some("/editor*"));
    assert_eq!(distinct(&r, CandidateKind::Url), Vec::<String>::new());
    assert_eq!(distinct(&r, CandidateKind::App), WIKIPEDIA_APPS);
}
