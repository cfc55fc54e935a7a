//! End to end: the real binary scans real robots.txt files served on loopback over HTTPS.

use crate::common;

use common::{candidates, document, of_type, scan};

#[test]
fn robots_rules_become_path_and_url_candidates() {
    let (code, records, stderr) = scan(&["--probe", "robots", "https://internet.nl"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let doc = document(&records, "https://internet.nl/robots.txt").expect("robots document");
    assert_eq!(doc["status"], 200);
    assert_eq!(doc["kind"], "robots");
    assert_eq!(doc["facts"]["availability"], "available");
    let urls = candidates(&records, "url", Some("robots_disallow"));
    for p in ["domain/", "site/", "mail/", "statistics/", "stats/"] {
        assert!(urls.contains(&format!("https://internet.nl/{p}")), "missing {p} in {urls:?}");
    }
    assert!(candidates(&records, "path", Some("robots_disallow")).contains(&"/domain/".to_string()));
    // Every candidate carries evidence pointing at its line.
    let c = records.iter().find(|r| r["type"] == "candidate" && r["value"] == "https://internet.nl/domain/").unwrap();
    assert_eq!(c["evidence"]["document_url"], "https://internet.nl/robots.txt");
    assert_eq!(c["evidence"]["status"], 200);
    assert_eq!(c["evidence"]["locator"]["line"], 2);
    assert_eq!(c["in_scope"], true);
    let summary = of_type(&records, "summary");
    assert_eq!(summary.len(), 1);
    assert_eq!(records.last().unwrap()["type"], "summary");
}

#[test]
fn sitemap_lines_are_sitemap_candidates() {
    let (code, records, stderr) = scan(&["--probe", "robots", "https://5calls.org"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(candidates(&records, "sitemap", Some("robots_sitemap")), ["https://5calls.org/sitemap.xml"]);
}

#[test]
fn redirect_is_followed_and_recorded() {
    let (code, records, stderr) = scan(&["--probe", "robots", "https://redirect-ok.test"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let doc = document(&records, "https://redirect-ok.test/robots.txt").expect("document");
    assert_eq!(doc["url"], "https://redirect-ok.test/real-robots.txt");
    assert_eq!(doc["redirect_chain"][0]["status"], 301);
    assert_eq!(doc["redirect_chain"][0]["url"], "https://redirect-ok.test/robots.txt");
    // Rules of the redirected file apply to the origin that was asked for.
    assert!(
        candidates(&records, "url", Some("robots_disallow"))
            .contains(&"https://redirect-ok.test/moved-secret/".to_string())
    );
}

#[test]
fn misspelled_user_agent_line_is_accepted_as_google_does() {
    // www.talbots.com writes "User Agent: *" with trailing tabs.
    let (code, records, stderr) = scan(&["--probe", "robots", "https://www.talbots.com"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let urls = candidates(&records, "url", Some("robots_disallow"));
    assert!(urls.contains(&"https://www.talbots.com/Account-Show".to_string()), "{urls:?}");
}
