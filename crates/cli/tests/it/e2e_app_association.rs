//! End to end: assetlinks.json and apple-app-site-association through the fixture server: the legacy
//! AASA location, redirects, an include chain, an HTML soft-404.

use crate::common;

use common::{candidates, codes, document, scan};

#[test]
fn aasa_legacy_location_is_the_fallback() {
    let (code, records, stderr) = scan(&["--probe", "apple-app-site-association", "https://aasa-legacy.example"]);
    assert_eq!(code, 0, "{stderr}");
    let wk = document(&records, "https://aasa-legacy.example/.well-known/apple-app-site-association").unwrap();
    assert_eq!(wk["status"], 404);
    let legacy = "https://aasa-legacy.example/apple-app-site-association";
    assert_eq!(document(&records, legacy).expect("legacy")["status"], 200);
    assert!(codes(&records, legacy).contains(&"legacy_location".to_string()));
    assert_eq!(candidates(&records, "app", None), ["apple:ABCDE12345.example.legacy.app"]);
    // A literal path becomes a URL to crawl; wildcard patterns stay paths.
    assert!(
        candidates(&records, "url", Some("aasa_path"))
            .contains(&"https://aasa-legacy.example/account/settings".to_string())
    );
    assert!(candidates(&records, "path", None).contains(&"/open/*".to_string()));
}

#[test]
fn include_chain_is_followed_across_documents() {
    let (code, records, stderr) = scan(&["--probe", "assetlinks", "https://assetlinks-include.example"]);
    assert_eq!(code, 0, "{stderr}");
    let links = document(&records, "https://assetlinks-include.example/shared/links.json").expect("first include");
    assert_eq!((links["role"].as_str(), links["hop"].as_u64()), (Some("include"), Some(1)));
    let apps = document(&records, "https://assetlinks-include.example/shared/apps.json").expect("second include");
    assert_eq!(apps["hop"], 2);
    assert_eq!(candidates(&records, "app", None), ["android:example.assetlinks.include"]);
    assert_eq!(candidates(&records, "origin", Some("asset_link")), ["https://login.assetlinks-include.example"]);
    assert_eq!(
        candidates(&records, "key", None),
        ["sha256:10:39:38:EE:45:37:E5:9E:8E:E7:92:F6:54:50:4F:B8:34:6F:C6:B3:46:D0:BB:C4:41:5F:C3:39:FC:FC:8E:C1"]
    );
}

#[test]
fn redirects_are_diagnosed_but_the_documents_still_read() {
    let (_, records, _) =
        scan(&["--probe", "assetlinks", "--probe", "apple-app-site-association", "https://app-redirect.test"]);
    let al = document(&records, "https://app-redirect.test/.well-known/assetlinks.json").expect("assetlinks");
    assert_eq!(al["url"], "https://app-redirect.test/static/assetlinks.json");
    assert!(codes(&records, "https://app-redirect.test/static/assetlinks.json").contains(&"redirected".to_string()));
    let aasa = document(&records, "https://app-redirect.test/.well-known/apple-app-site-association").expect("aasa");
    assert_eq!(aasa["redirect_chain"][0]["status"], 302);
    assert!(codes(&records, "https://app-redirect.test/static/aasa.json").contains(&"redirected".to_string()));
    let apps = candidates(&records, "app", None);
    assert_eq!(apps, ["android:test.redirect.app", "apple:ABCDE12345.test.redirect.app"]);
}

#[test]
fn html_soft_404_is_not_a_statement_list() {
    let (_, records, _) =
        scan(&["--probe", "assetlinks", "--probe", "apple-app-site-association", "https://spa.example"]);
    for url in [
        "https://spa.example/.well-known/assetlinks.json",
        "https://spa.example/.well-known/apple-app-site-association",
    ] {
        let doc = document(&records, url).expect("document");
        assert_eq!(doc["status"], 200);
        assert_eq!(doc["valid"], false, "{url}");
        let c = codes(&records, url);
        assert!(c.contains(&"invalid_content_type".to_string()), "{url}: {c:?}");
    }
    assert!(candidates(&records, "app", None).is_empty());
}
