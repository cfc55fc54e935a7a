//! End to end: security.txt (RFC 9116) through the fixture server: canonical location, legacy
//! fallback, HTML soft-404, redirect, plain-http host.

use crate::common;

use common::{candidates, codes, document, scan};

#[test]
fn canonical_location_yields_contacts_and_policy_urls() {
    let (code, records, stderr) = scan(&["--probe", "security.txt", "https://en.wikipedia.org"]);
    assert_eq!(code, 0, "{stderr}");
    let doc = document(&records, "https://en.wikipedia.org/.well-known/security.txt").expect("document");
    assert_eq!(doc["status"], 200);
    assert_eq!(doc["facts"]["covers_host"], "en.wikipedia.org");
    assert_eq!(candidates(&records, "contact", None), ["mailto:security@wikimedia.org"]);
    let urls = candidates(&records, "url", None);
    assert!(urls.contains(&"https://www.mediawiki.org/wiki/Reporting_security_bugs".to_string()), "{urls:?}");
    assert!(urls.contains(&"https://security.wikimedia.org/hall-of-fame/".to_string()), "{urls:?}");
    // The legacy location is not requested when the canonical one answered 200.
    assert!(document(&records, "https://en.wikipedia.org/security.txt").is_none());
    let policy_host =
        records.iter().find(|r| r["type"] == "candidate" && r["kind"] == "host" && r["value"] == "www.mediawiki.org");
    assert_eq!(
        policy_host.expect("host candidate")["in_scope"],
        false,
        "mediawiki.org is outside wikipedia.org's scope"
    );
}

#[test]
fn legacy_location_is_the_fallback() {
    let (code, records, stderr) = scan(&["--probe", "security.txt", "https://www.tesco.com"]);
    assert_eq!(code, 0, "{stderr}");
    let canonical = document(&records, "https://www.tesco.com/.well-known/security.txt").expect("canonical attempt");
    assert_eq!(canonical["status"], 404);
    let legacy = document(&records, "https://www.tesco.com/security.txt").expect("legacy document");
    assert_eq!(legacy["status"], 200);
    assert!(codes(&records, "https://www.tesco.com/security.txt").contains(&"legacy_location".to_string()));
    assert_eq!(candidates(&records, "contact", None), ["mailto:technology.security@tesco.com"]);
}

#[test]
fn html_soft_404_is_diagnosed_and_not_read_as_fields() {
    let (_, records, _) = scan(&["--probe", "security.txt", "https://spa.example"]);
    let url = "https://spa.example/.well-known/security.txt";
    let doc = document(&records, url).expect("document");
    assert_eq!(doc["valid"], false);
    let c = codes(&records, url);
    assert!(c.contains(&"html_document".to_string()) || c.contains(&"invalid_content_type".to_string()), "{c:?}");
    assert!(candidates(&records, "contact", None).is_empty());
}

#[test]
fn redirect_is_followed_and_canonical_checked_against_the_final_url() {
    let (_, records, _) = scan(&["--probe", "security.txt", "https://sec-redirect.test"]);
    let doc = document(&records, "https://sec-redirect.test/.well-known/security.txt").expect("document");
    assert_eq!(doc["url"], "https://sec-redirect.test/policies/security.txt");
    assert_eq!(doc["redirect_chain"][0]["status"], 301);
    assert!(
        codes(&records, "https://sec-redirect.test/policies/security.txt").contains(&"canonical_mismatch".to_string())
    );
    assert_eq!(candidates(&records, "contact", None), ["mailto:security@sec-redirect.test"]);
}

#[test]
fn plain_http_host_is_insecure_transport() {
    let (_, records, _) = scan(&["--probe", "security.txt", "http://plainsec.test"]);
    let url = "http://plainsec.test/.well-known/security.txt";
    assert_eq!(document(&records, url).expect("document")["status"], 200);
    assert!(codes(&records, url).contains(&"insecure_transport".to_string()));
    assert_eq!(candidates(&records, "contact", None), ["https://plainsec.test/report"]);
}
