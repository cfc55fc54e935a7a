//! Untrusted values: embedded so that nothing in them can end the data element or become markup.

use serde_json::json;
use wellknown_graph_page::PageOptions;

use crate::records::{build, candidate, document, embedded, relation, scan};

const PAYLOAD: &str = "https://x.test/</script><script>window.__pwned=1;document.title='pwned'</script><!--";

#[test]
fn a_script_payload_in_values_stays_inside_the_data() {
    let doc = "https://x.test/sitemap.xml?</script><script>window.__pwned=2</script>";
    let mut records = vec![scan(1), document(doc, 200)];
    records.push(candidate("url", PAYLOAD, true, None));
    records.push(candidate("url", "javascript:window.__pwned=3", true, None));
    let mut r = relation(doc, "sitemap_loc", "url", PAYLOAD, 1, 1);
    r["evidence"][0]["hints"] = json!({"note": "</SCRIPT ><img src=x onerror=window.__pwned=4>\u{2028}"});
    records.push(r);
    records.push(relation(doc, "sitemap_loc", "url", "javascript:window.__pwned=3", 2, 1));
    let options = PageOptions { title: "<b>scan</b> & co".into(), ..PageOptions::default() };
    let (html, _) = build(options, &records);
    // Exactly the page's own three script elements (data, library, page script) open and close.
    assert_eq!(html.matches("<script").count(), 3);
    assert_eq!(html.to_ascii_lowercase().matches("</script").count(), 3);
    assert!(!html.contains("<script>window.__pwned"), "the payload is not in the page as written");
    assert!(!html.contains("<img src=x"));
    assert!(html.contains(r"\u003c/script\u003e\u003cscript\u003ewindow.__pwned=1;"));
    assert!(!html.contains('\u{2028}'));
    assert!(html.contains("<title>&lt;b&gt;scan&lt;/b&gt; &amp; co</title>"));
    // Read back, the values are what the records said.
    let data = embedded(&html);
    let values: Vec<&str> = data["nodes"].as_array().unwrap().iter().filter_map(|n| n["value"].as_str()).collect();
    assert!(values.contains(&PAYLOAD));
    assert!(values.contains(&doc));
    assert!(values.contains(&"javascript:window.__pwned=3"));
    let hints = data["edges"].as_array().unwrap().iter().find_map(|e| e["evidence"][0]["hints"]["note"].as_str());
    assert_eq!(hints, Some("</SCRIPT ><img src=x onerror=window.__pwned=4>\u{2028}"));
}

#[test]
fn collapsed_values_are_escaped_too() {
    let doc = "https://x.test/sitemap.xml";
    let mut records = vec![document(doc, 200)];
    for i in 0..60 {
        records.push(relation(doc, "sitemap_loc", "url", &format!("{PAYLOAD}{i}"), i, 1));
    }
    let (html, stats) = build(PageOptions::default(), &records);
    assert_eq!(stats.groups_collapsed, 1);
    assert_eq!(html.to_ascii_lowercase().matches("</script").count(), 3);
    let data = embedded(&html);
    let c = data["nodes"].as_array().unwrap().iter().find(|n| n["kind"] == "collapsed").unwrap();
    assert_eq!(c["values"][59]["value"], format!("{PAYLOAD}59"));
}
