//! End to end: per-origin budgets against documents that fan out (issue 13, "The engine on real
//! networks"): a sitemap index of 50 children of 2,000 URLs each behind robots.txt, and a sitemap
//! listing 2,000 hosts that do not resolve. Small caps set by flags; each test asserts the `budget`
//! records with their exact counts, the origin record and the summary, the lines on standard error,
//! and the hostile server's request log (what the caps kept from being requested).
//!
//! The inputs are generated into a temporary directory served by the hostile server; the revealed
//! hosts are under `.invalid`, which the resolver answers NXDOMAIN without a query (RFC 6761), and
//! the scanned host itself is given with `--resolve`, so nothing leaves the machine.

use std::path::Path;

use serde_json::json;
use wellknown_tests::HostileServer;

use crate::common::hostile::{PROBE_PATHS, Scan, budget_record, calibration_token, gets, log, scan, sorted_log};

const XML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const NS: &str = "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";

/// A `<urlset>` of `locs`.
fn urlset(locs: impl IntoIterator<Item = String>) -> String {
    let mut s = format!("{XML}<urlset {NS}>\n");
    for l in locs {
        s.push_str(&format!("<url><loc>{l}</loc></url>\n"));
    }
    s.push_str("</urlset>\n");
    s
}

/// Serves `dir`; robots.txt (at `base`) declares `sitemaps` (paths), and nothing else.
fn robots(dir: &Path, base: &str, sitemaps: &[&str]) {
    let mut text = String::from("User-agent: *\nDisallow:\n");
    for s in sitemaps {
        text.push_str(&format!("Sitemap: {base}{s}\n"));
    }
    std::fs::write(dir.join("robots.txt"), text).unwrap();
}

/// `/sitemap.xml`, an index of `children` sitemaps `/child-N.xml` of `urls` URLs each
/// (`/cN/page-M`), declared by robots.txt.
fn fan_out(dir: &Path, base: &str, children: usize, urls: usize) {
    robots(dir, base, &["/sitemap.xml"]);
    let mut index = format!("{XML}<sitemapindex {NS}>\n");
    for c in 1..=children {
        index.push_str(&format!("<sitemap><loc>{base}/child-{c}.xml</loc></sitemap>\n"));
        let child = urlset((1..=urls).map(|u| format!("{base}/c{c}/page-{u}")));
        std::fs::write(dir.join(format!("child-{c}.xml")), child).unwrap();
    }
    index.push_str("</sitemapindex>\n");
    std::fs::write(dir.join("sitemap.xml"), index).unwrap();
}

/// The scan of a fan-out server: robots and sitemap probes, no feedback.
fn scan_fan_out(base: &str, args: &[&str]) -> Scan {
    let mut all = vec!["--depth", "0", "--probe", "robots", "--probe", "sitemap"];
    all.extend_from_slice(args);
    all.push(base);
    scan(&all)
}

/// Requested URLs of the document records of `s`, without `base`, sorted.
fn document_paths(s: &Scan, base: &str) -> Vec<String> {
    let mut v: Vec<String> =
        s.documents_of(base).iter().map(|d| d["requested_url"].as_str().unwrap().replace(base, "")).collect();
    v.sort();
    v
}

/// The calibration paths of `server`'s log.
fn calibration_paths(server: &HostileServer) -> Vec<String> {
    let token = calibration_token(server);
    vec![format!("/{token}"), format!("/.well-known/{token}")]
}

#[test]
fn a_fan_out_index_stops_at_the_follow_up_candidate_and_verification_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let server = HostileServer::builder().files(dir.path()).start().unwrap();
    let base = server.url("");
    fan_out(dir.path(), &base, 50, 2000);
    let s =
        scan_fan_out(&base, &["--max-follow-ups", "5", "--max-candidates", "5000", "--verify", "--max-verify", "3"]);

    // Follow-ups: the index and 4 children (5); the other 46 children are not fetched.
    let mut fetched = vec!["/robots.txt".to_string(), "/sitemap.xml".to_string()];
    fetched.extend((1..=4).map(|c| format!("/child-{c}.xml")));
    fetched.sort();
    assert_eq!(document_paths(&s, &base), fetched);
    let index = s.document(&format!("{base}/sitemap.xml"));
    assert_eq!(
        (&index["role"], &index["hop"], &index["kind"]),
        (&json!("robots_sitemap"), &json!(1), &json!("sitemapindex"))
    );
    // Candidates: robots.txt's sitemap (1), the index's 50 children, 4 x 2,000 pages: 8,051
    // sightings, 5,000 recorded. Verification: 5 of the recorded URLs were fetched as documents
    // (their fetch is the verdict), 3 requests, the other 4,992 not verified.
    assert_eq!(
        s.budgets_of(&base),
        [
            budget_record(&base, "follow_ups_per_origin", 5, "follow_ups", 46, "--max-follow-ups"),
            budget_record(&base, "candidates_per_origin", 5000, "candidates", 3051, "--max-candidates"),
            budget_record(&base, "verifications_per_origin", 3, "verifications", 4992, "--max-verify"),
        ]
    );
    assert_eq!(s.of_type("candidate").len(), 5000);
    let verdicts = s.of_type("verification");
    assert_eq!(verdicts.len(), 8, "{verdicts:?}");
    assert_eq!(verdicts.iter().filter(|v| v["source"] == "document").count(), 5);
    assert_eq!(verdicts.iter().filter(|v| v["source"] == "request").count(), 3);

    let totals = json!({"candidates_per_origin": 3051, "follow_ups_per_origin": 46, "verifications_per_origin": 4992});
    let o = s.origin(&base);
    assert_eq!(
        (&o["budgets"], &o["candidates"], &o["verification_skipped"]),
        (&totals, &json!(5000), &json!(4992)),
        "{o}"
    );
    let sum = s.summary();
    assert_eq!((&sum["budgets"], &sum["units_over_budget"]), (&totals, &json!(1)), "{sum}");
    assert_eq!(
        (&sum["candidates"], &sum["verification_requests"], &sum["verifications_skipped"]),
        (&json!(5000), &json!(3), &json!(4992))
    );
    assert_eq!(sum["documents_recognised"], 6, "{sum}");

    // The request log: the documents above, the calibration, 3 HEADs; no other child.
    let mut gets_sent: Vec<String> = fetched.clone();
    gets_sent.extend(calibration_paths(&server));
    let sent = sorted_log(&server);
    let heads: Vec<&String> = sent.iter().filter(|r| r.starts_with("HEAD ")).collect();
    assert_eq!(heads.len(), 3, "{sent:?}");
    let got: Vec<String> = sent.iter().filter(|r| r.starts_with("GET ")).cloned().collect();
    assert_eq!(got, gets(gets_sent.iter().map(String::as_str)), "children 5 to 50 never fetched");

    let mut lines = s.stderr_lines("wellknown: budget: ");
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            format!(
                "wellknown: budget: {base}: candidates_per_origin (5000) reached: 3051 candidate sightings not recorded (raise with --max-candidates)"
            ),
            format!(
                "wellknown: budget: {base}: follow_ups_per_origin (5) reached: 46 follow-up documents not fetched (raise with --max-follow-ups)"
            ),
            format!(
                "wellknown: budget: {base}: verifications_per_origin (3) reached: 4992 candidate URLs not verified (raise with --max-verify)"
            ),
        ]
    );
    assert!(
        s.summary_line().contains(
            "; budgets reached in 1 unit(s), left undone: candidates_per_origin 3051, follow_ups_per_origin 46, \
             verifications_per_origin 4992; "
        ),
        "{}",
        s.stderr
    );
    assert_eq!(s.code, 0, "{}", s.stderr);
}

#[test]
fn the_candidate_budget_spent_in_an_index_leaves_its_children_unrequested() {
    let dir = tempfile::tempdir().unwrap();
    let server = HostileServer::builder().files(dir.path()).start().unwrap();
    let base = server.url("");
    fan_out(dir.path(), &base, 50, 2000);
    let s = scan_fan_out(&base, &["--no-verify", "--max-candidates", "20"]);

    // robots.txt's sitemap and 19 of the index's children are recorded; the other 31 children are
    // not, and none of the 50 is fetched: what it would declare could not be recorded. One record
    // for each kind of work left undone.
    assert_eq!(s.of_type("candidate").len(), 20);
    assert_eq!(document_paths(&s, &base), ["/robots.txt", "/sitemap.xml"]);
    assert_eq!(
        s.budgets_of(&base),
        [
            budget_record(&base, "candidates_per_origin", 20, "candidates", 31, "--max-candidates"),
            budget_record(&base, "candidates_per_origin", 20, "follow_ups", 50, "--max-candidates"),
        ]
    );
    let totals = json!({"candidates_per_origin": 31, "candidates_per_origin/follow_ups": 50});
    assert_eq!(s.origin(&base)["budgets"], totals);
    assert_eq!((&s.summary()["budgets"], &s.summary()["units_over_budget"]), (&totals, &json!(1)));
    let mut sent = vec!["/robots.txt".to_string(), "/sitemap.xml".to_string()];
    sent.extend(calibration_paths(&server));
    assert_eq!(sorted_log(&server), gets(sent.iter().map(String::as_str)));
    assert_eq!(
        s.stderr_lines("wellknown: budget: "),
        [
            format!(
                "wellknown: budget: {base}: candidates_per_origin (20) reached: 31 candidate sightings not recorded \
                 (raise with --max-candidates)"
            ),
            format!(
                "wellknown: budget: {base}: candidates_per_origin (20) reached: 50 follow-up documents not fetched \
                 (raise with --max-candidates)"
            ),
        ]
    );
    assert_eq!(s.code, 0, "{}", s.stderr);
}

#[test]
fn the_hop_budget_stops_below_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let server = HostileServer::builder().files(dir.path()).start().unwrap();
    let base = server.url("");
    fan_out(dir.path(), &base, 50, 10);
    let s = scan_fan_out(&base, &["--no-verify", "--max-hops", "1"]);

    // robots.txt -> index (hop 1) -> children (hop 2, over --max-hops 1).
    assert_eq!(document_paths(&s, &base), ["/robots.txt", "/sitemap.xml"]);
    assert_eq!(s.budgets_of(&base), [budget_record(&base, "follow_up_hops", 1, "follow_ups", 50, "--max-hops")]);
    assert_eq!(s.summary()["budgets"], json!({"follow_up_hops": 50}));
    assert_eq!(s.of_type("candidate").len(), 51, "the children are still recorded as candidates");
    assert!(log(&server).iter().all(|r| !r.contains("/child-")), "{:?}", log(&server));
    assert_eq!(
        s.stderr_lines("wellknown: budget: "),
        [format!(
            "wellknown: budget: {base}: follow_up_hops (1) reached: 50 follow-up documents not fetched (raise with --max-hops)"
        )]
    );
    assert_eq!(s.code, 0, "{}", s.stderr);
}

/// A hostile server for `site.invalid` (resolved with `--resolve`) whose robots.txt declares
/// `sitemaps`, each a `<urlset>` of the hosts `<prefix>1.site.invalid` to `<prefix>N.site.invalid`
/// (same port). Returns the server, its directory, the origin and the `--resolve` entry.
fn hosts_site(sitemaps: &[(&str, &str, usize)]) -> (HostileServer, tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let server = HostileServer::builder().files(dir.path()).start().unwrap();
    let port = server.addr.port();
    let base = format!("http://site.invalid:{port}");
    let paths: Vec<&str> = sitemaps.iter().map(|(p, _, _)| *p).collect();
    robots(dir.path(), &base, &paths);
    for (path, prefix, n) in sitemaps {
        let body = urlset((1..=*n).map(|h| format!("http://{prefix}{h}.site.invalid:{port}/")));
        std::fs::write(dir.path().join(path.trim_start_matches('/')), body).unwrap();
    }
    (server, dir, base, format!("site.invalid:{port}:127.0.0.1"))
}

#[test]
fn a_sitemap_of_2000_hosts_that_do_not_resolve_is_capped() {
    let (server, _dir, base, resolve) = hosts_site(&[("/sitemap.xml", "h", 2000)]);
    let port = server.addr.port();
    let s = scan(&[
        "--no-verify",
        "--depth",
        "1",
        "--resolve",
        &resolve,
        "--scope",
        "site.invalid",
        "--scope",
        "*.site.invalid",
        "--max-revealed-per-document",
        "10",
        "--max-vhost-tries",
        "3",
        &base,
    ]);
    let host = |h: usize| format!("h{h}.site.invalid");
    let origin = |h: usize| format!("http://h{h}.site.invalid:{port}");

    // Every host is recorded; the first 10 are queued, the other 1,990 over budget.
    let inventory = s.of_type("inventory");
    assert_eq!(inventory.len(), 2000);
    for (i, rec) in inventory.iter().enumerate() {
        let action = if i < 10 { "queued" } else { "over_budget" };
        assert_eq!(
            (&rec["value"], &rec["action"], &rec["in_scope"]),
            (&json!(origin(i + 1)), &json!(action), &json!(true)),
            "{rec}"
        );
        assert_eq!(rec["revealed_by"], base.as_str());
    }
    assert_eq!(
        s.budgets_of(&base),
        [budget_record(&base, "revealed_per_document", 10, "units", 1990, "--max-revealed-per-document")]
    );
    assert_eq!(s.origin(&base)["budgets"], json!({"revealed_per_document": 1990}));

    // The 10 queued hosts fail DNS (robots.txt tried, their other 9 documents not attempted); 3 of
    // them are tried as virtual hosts of site.invalid (answered like a random name: not distinct),
    // the other 7 each count one try not made.
    let vhosts = s.of_type("vhost");
    assert_eq!(vhosts.len(), 3, "{vhosts:?}");
    let mut tried: Vec<String> = Vec::new();
    for v in &vhosts {
        assert_eq!(
            (&v["address"], &v["answers"], &v["distinct"], &v["status"], &v["revealed_by"]),
            (&json!("127.0.0.1"), &json!(true), &json!(false), &json!(404), &json!(base)),
            "{v}"
        );
        tried.push(v["host"].as_str().unwrap().to_string());
    }
    let mut untried = Vec::new();
    for h in 1..=10 {
        let o = s.origin(&origin(h));
        assert_eq!(
            (&o["reachable"], &o["documents"], &o["failures"]),
            (&json!(false), &json!(10), &json!(["dns_nxdomain"])),
            "{o}"
        );
        let docs = s.documents_of(&origin(h));
        assert_eq!(docs.iter().filter(|d| d["not_attempted"] == true).count(), 9, "{docs:?}");
        let b = s.budgets_of(&origin(h));
        if tried.contains(&host(h)) {
            assert!(b.is_empty(), "{b:?}");
        } else {
            let one = budget_record(&origin(h), "vhost_tries_per_origin", 3, "vhost_tries", 1, "--max-vhost-tries");
            assert_eq!(b, [one]);
            untried.push(h);
        }
    }
    assert_eq!(untried.len(), 7, "{tried:?}");

    // Requests: site.invalid's own documents and calibration, then one GET / per name tried and
    // one for the random sibling name; nothing for the 1,990 hosts over budget.
    let requests = server.requests();
    let token = calibration_token(&server);
    let own: Vec<String> = requests
        .iter()
        .filter(|r| r.host == format!("site.invalid:{port}"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    let mut own_sorted = own.clone();
    own_sorted.sort();
    let mut expected: Vec<&str> = PROBE_PATHS.to_vec();
    let calibration = [format!("/{token}"), format!("/.well-known/{token}")];
    expected.extend(calibration.iter().map(String::as_str));
    assert_eq!(own_sorted, gets(expected));
    let mut named: Vec<String> = requests
        .iter()
        .filter(|r| r.host != format!("site.invalid:{port}"))
        .map(|r| format!("{} {} {}", r.method, r.path, r.host))
        .collect();
    named.sort();
    let mut expected_named: Vec<String> = tried.iter().map(|h| format!("GET / {h}:{port}")).collect();
    expected_named.push(format!("GET / {token}.site.invalid:{port}"));
    expected_named.sort();
    assert_eq!(named, expected_named);
    assert_eq!(requests.len(), 12 + 4, "the total is bounded");

    let sum = s.summary();
    assert_eq!(sum["budgets"], json!({"revealed_per_document": 1990, "vhost_tries_per_origin": 7}), "{sum}");
    assert_eq!(
        (&sum["units"], &sum["units_over_budget"], &sum["revealed"]),
        (&json!(11), &json!(8), &json!(2000)),
        "{sum}"
    );
    assert_eq!((&sum["documents"], &sum["documents_not_attempted"]), (&json!(110), &json!(90)), "{sum}");
    assert_eq!(sum["failures_by_class"], json!({"dns_nxdomain": 100}), "{sum}");
    assert_eq!(sum["calibration_requests"], 3, "site.invalid's two and the sibling name: {sum}");
    let lines = s.stderr_lines("wellknown: budget: ");
    assert_eq!(lines.len(), 8, "{}", s.stderr);
    assert!(lines.contains(&format!(
        "wellknown: budget: {base}: revealed_per_document (10) reached: 1990 revealed units recorded but not scanned (raise \
         with --max-revealed-per-document)"
    ).as_str()));
    for h in untried {
        let line = format!(
            "wellknown: budget: {}: vhost_tries_per_origin (3) reached: 1 virtual-host tries not made (raise with \
             --max-vhost-tries)",
            origin(h)
        );
        assert!(lines.contains(&line.as_str()), "{line}\n{}", s.stderr);
    }
    assert_eq!(s.code, 0, "{}", s.stderr);
}

#[test]
fn two_sitemaps_of_hosts_stop_at_the_per_origin_reveal_budget() {
    let (server, _dir, base, resolve) = hosts_site(&[("/a.xml", "a", 30), ("/b.xml", "b", 30)]);
    let s = scan(&[
        "--no-verify",
        "--no-vhosts",
        "--depth",
        "1",
        "--resolve",
        &resolve,
        "--scope",
        "site.invalid",
        "--scope",
        "*.site.invalid",
        "--max-revealed-per-document",
        "10",
        "--max-revealed",
        "15",
        &base,
    ]);

    // Whichever sitemap is read first queues 10 hosts (20 over the per-document budget), the other
    // 5 (the unit's 15 reached; 25 over it).
    let inventory = s.of_type("inventory");
    assert_eq!(inventory.len(), 60);
    let queued_of = |prefix: &str| -> Vec<String> {
        inventory
            .iter()
            .filter(|r| {
                r["action"] == "queued" && r["value"].as_str().unwrap().starts_with(&format!("http://{prefix}"))
            })
            .map(|r| r["value"].as_str().unwrap().to_string())
            .collect()
    };
    let (a, b) = (queued_of("a"), queued_of("b"));
    let mut counts = [a.len(), b.len()];
    counts.sort_unstable();
    assert_eq!(counts, [5, 10], "{a:?} {b:?}");
    let port = server.addr.port();
    for (prefix, queued) in [("a", &a), ("b", &b)] {
        let first: Vec<String> =
            (1..=queued.len()).map(|h| format!("http://{prefix}{h}.site.invalid:{port}")).collect();
        assert_eq!(*queued, first, "a document's hosts are queued in its order");
    }
    assert_eq!(
        s.budgets_of(&base),
        [
            budget_record(&base, "revealed_per_document", 10, "units", 20, "--max-revealed-per-document"),
            budget_record(&base, "revealed_per_origin", 15, "units", 25, "--max-revealed"),
        ]
    );
    let sum = s.summary();
    assert_eq!(sum["budgets"], json!({"revealed_per_document": 20, "revealed_per_origin": 25}), "{sum}");
    assert_eq!((&sum["units"], &sum["units_over_budget"]), (&json!(16), &json!(1)), "{sum}");
    // No virtual-host tries: only site.invalid was asked.
    assert!(server.requests().iter().all(|r| r.host == format!("site.invalid:{port}")), "{:?}", server.requests());
    assert!(s.of_type("vhost").is_empty());
    assert_eq!(s.code, 0, "{}", s.stderr);
}
