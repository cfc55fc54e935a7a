//! The 16 real statement lists in `tests/fixtures/sites/*/.well-known/assetlinks.json` (sources in
//! `tests/fixtures/SOURCES.md`) parse cleanly with the apps, keys and sites a reader sees in them.

use std::collections::BTreeSet;
use std::path::Path;

use url::Url;
use wellknown_core::{CandidateKind, FetchMeta, Report, Timestamp};

fn parse(host: &str) -> Report {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../tests/fixtures/sites/{host}/.well-known/assetlinks.json"));
    let body = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let url = Url::parse(&format!("https://{host}/.well-known/assetlinks.json")).expect("url");
    let meta = FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH);
    wellknown_assetlinks::interpret(&body, &meta)
}

fn distinct(report: &Report, kind: CandidateKind) -> Vec<String> {
    let mut seen = BTreeSet::new();
    report.values(kind).filter(|v| seen.insert(v.to_string())).map(str::to_string).collect()
}

/// (host, Android packages, number of distinct fingerprints, web sites)
const EXPECTED: &[(&str, &[&str], usize, &[&str])] = &[
    ("5calls.org", &["org.a5calls.android.a5calls"], 1, &[]),
    ("bsky.app", &["xyz.blueskyweb.app"], 2, &[]),
    ("coopcycle.org", &["fr.coopcycle", "fr.naofood.client", "fr.coopcycle.kooglof"], 4, &[]),
    ("en.wikipedia.org", &["org.wikipedia"], 2, &["https://auth.wikimedia.org"]),
    ("test.wikipedia.org", &["org.wikipedia"], 2, &["https://auth.wikimedia.org"]),
    ("minid.no", &["no.digdir.minid.authenticator.dev", "no.digdir.minid.authenticator"], 2, &["https://minid.no"]),
    ("new.expensify.com", &["com.expensify.chat"], 1, &[]),
    ("safe.global", &["io.gnosis.instantsafe"], 1, &[]),
    ("welcometomygarden.org", &["org.welcometomygarden.app"], 2, &[]),
    ("wikimediafoundation.org", &[], 0, &["https://auth.wikimedia.org"]),
    ("www.mediawiki.org", &[], 0, &["https://auth.wikimedia.org"]),
    ("world.openbeautyfacts.org", &["org.openbeautyfacts.scanner"], 1, &[]),
    ("world.openpetfoodfacts.org", &["org.openpetfoodfacts.scanner"], 1, &[]),
    ("world.openproductsfacts.org", &["org.openproductsfacts.scanner"], 1, &[]),
    (
        "www.home-assistant.io",
        &[
            "io.homeassistant.companion.android",
            "io.homeassistant.companion.android.debug",
            "io.homeassistant.companion.android.minimal",
            "io.homeassistant.companion.android.minimal.debug",
        ],
        1,
        &[],
    ),
];

#[test]
fn real_statement_lists_parse_with_expected_apps_keys_and_sites() {
    for (host, packages, keys, sites) in EXPECTED {
        let r = parse(host);
        assert!(r.valid(), "{host}: {:?}", r.errors);
        assert!(r.warnings.is_empty(), "{host}: {:?}", r.warnings);
        let apps: Vec<String> = packages.iter().map(|p| format!("android:{p}")).collect();
        assert_eq!(distinct(&r, CandidateKind::App), apps, "{host}");
        assert_eq!(distinct(&r, CandidateKind::Key).len(), *keys, "{host}");
        assert_eq!(distinct(&r, CandidateKind::Origin), *sites, "{host}");
        assert!(r.follow_ups.is_empty(), "{host}");
    }
}

#[test]
fn wikipedia_relations_and_fingerprints() {
    let r = parse("en.wikipedia.org");
    let relations: BTreeSet<&str> =
        r.candidates.iter().filter(|c| c.kind() == CandidateKind::App).map(|c| c.relation()).collect();
    assert_eq!(
        relations,
        BTreeSet::from(["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"])
    );
    assert_eq!(
        distinct(&r, CandidateKind::Key),
        [
            "sha256:F5:40:E9:37:41:9A:1F:E3:08:E3:35:31:35:9C:23:CE:19:DF:D8:4A:66:01:E2:EF:85:C2:17:C8:23:A7:08:7F",
            "sha256:1C:3D:DB:0E:8F:32:58:B0:FF:3B:7B:6A:60:8D:19:E7:CD:EE:D3:8A:58:97:BB:DA:23:BA:C1:55:92:3B:12:67",
        ]
    );
    let key = r.candidates.iter().find(|c| c.kind() == CandidateKind::Key).expect("key");
    assert_eq!(key.hint("app"), Some("android:org.wikipedia"));
    assert_eq!(
        key.locator(),
        Some(wellknown_core::Locator::JsonPointer("/1/target/sha256_cert_fingerprints/0".into()))
    );
    assert_eq!(distinct(&r, CandidateKind::Host), ["auth.wikimedia.org"]);
}

#[test]
fn auth_wikimedia_lists_every_wiki_as_a_web_target() {
    let r = parse("auth.wikimedia.org");
    assert!(r.valid(), "{:?}", r.errors);
    assert_eq!(r.facts.get("statements"), Some(&serde_json::json!(382)));
    let sites = distinct(&r, CandidateKind::Origin);
    assert_eq!(sites.len(), 380);
    assert_eq!(sites.first().map(String::as_str), Some("https://en.wikipedia.org"));
    assert_eq!(sites.iter().filter(|s| s.ends_with(".wikipedia.org")).count(), 344);
    assert_eq!(sites.iter().filter(|s| s.ends_with(".wikimedia.org")).count(), 32);
    for other in [
        "https://www.mediawiki.org",
        "https://test.wikidata.org",
        "https://www.wikidata.org",
        "https://www.wikifunctions.org",
    ] {
        assert!(sites.iter().any(|s| s == other), "{other}");
    }
    assert!(sites.iter().any(|s| s == "https://auth.wikimedia.org"), "the list names its own site too");
    assert_eq!(distinct(&r, CandidateKind::Host).len(), 380);
    assert!(
        r.candidates.iter().filter(|c| c.kind() == CandidateKind::Origin).all(|c| c.relation() == "asset_link"
            && c.hint("relations") == Some("delegate_permission/common.get_login_creds"))
    );
    assert_eq!(distinct(&r, CandidateKind::App), ["android:org.wikipedia"]);
}
