//! End to end: each failure class is diagnosed separately, and robots.txt fetch semantics
//! (RFC 9309 2.3.1) are recorded.

use crate::common;

use common::{document, scan, server, wellknown};

fn failure_class(records: &[serde_json::Value], url: &str) -> String {
    let doc = document(records, url).unwrap_or_else(|| panic!("no document for {url}: {records:?}"));
    doc["failure"]["class"].as_str().unwrap_or("none").to_string()
}

#[test]
fn closed_port_is_connect_refused() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let target = format!("http://127.0.0.1:{port}");
    let (code, records, stderr) = scan(&["--probe", "robots", &target]);
    assert_eq!(failure_class(&records, &format!("{target}/robots.txt")), "connect_refused");
    assert_eq!(code, 2, "every target failed means exit 2");
    assert!(stderr.contains("every target failed"), "{stderr}");
    assert!(stderr.contains("connect_refused"), "{stderr}");
}

#[test]
fn unresolvable_name_is_a_dns_failure() {
    // RFC 6761: .invalid never resolves. Without any DNS server the class is still a dns_* one.
    let out = wellknown(&["scan", "--quiet", "--probe", "robots", "--timeout", "5", "https://no-such-host.invalid"]);
    let records = common::jsonl(&out.stdout);
    let class = failure_class(&records, "https://no-such-host.invalid/robots.txt");
    assert!(class.starts_with("dns_"), "class {class}");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn untrusted_certificate_is_a_tls_failure() {
    // Same server, but without --ca-cert: its throwaway CA is unknown.
    let https = server().https_addr.unwrap().port();
    let out = wellknown(&[
        "scan",
        "--quiet",
        "--allow-private",
        "--probe",
        "robots",
        "--connect-to",
        &format!(":443:127.0.0.1:{https}"),
        "https://internet.nl",
    ]);
    let records = common::jsonl(&out.stdout);
    let doc = document(&records, "https://internet.nl/robots.txt").unwrap();
    assert_eq!(doc["failure"]["class"], "tls");
    assert!(doc["failure"]["message"].as_str().unwrap().to_lowercase().contains("issuer"), "{doc}");
}

#[test]
fn redirect_loop_is_diagnosed() {
    let (_, records, _) = scan(&["--probe", "robots", "https://redirect-loop.test"]);
    assert_eq!(failure_class(&records, "https://redirect-loop.test/robots.txt"), "redirect_loop");
}

#[test]
fn server_error_means_full_disallow() {
    let (_, records, _) = scan(&["--probe", "robots", "https://status500.test"]);
    let doc = document(&records, "https://status500.test/robots.txt").unwrap();
    assert_eq!(doc["status"], 500);
    assert_eq!(doc["facts"]["availability"], "unreachable");
}

#[test]
fn not_found_and_unauthorized_mean_no_restrictions() {
    for host in ["status404.test", "status401.test"] {
        let target = format!("https://{host}");
        let (_, records, _) = scan(&["--probe", "robots", &target]);
        let doc = document(&records, &format!("{target}/robots.txt")).unwrap();
        assert!(doc["status"].as_u64().unwrap() >= 400);
        assert_eq!(doc["facts"]["availability"], "unavailable", "{host}");
    }
}

#[test]
fn stalled_server_times_out() {
    let (_, records, _) = scan(&["--probe", "robots", "--timeout", "1", "https://stall.test"]);
    assert_eq!(failure_class(&records, "https://stall.test/robots.txt"), "timeout");
}

#[test]
fn body_over_the_cap_is_truncated_not_read_further() {
    let (_, records, _) = scan(&["--probe", "robots", "https://big.test"]);
    let doc = document(&records, "https://big.test/robots.txt").unwrap();
    assert_eq!(doc["truncated"], true, "{doc}");
    assert!(doc["size"].as_u64().unwrap() <= 1024 * 1024 + 64 * 1024, "{doc}");
    let codes: Vec<&str> =
        records.iter().filter(|r| r["type"] == "diagnostic").filter_map(|r| r["code"].as_str()).collect();
    assert!(codes.contains(&"over_parse_limit"), "{codes:?}");
}

#[test]
fn private_addresses_are_refused_without_allow_private() {
    let port = server().http_addr.port();
    let target = format!("http://127.0.0.1:{port}");
    let out = wellknown(&["scan", "--quiet", "--probe", "robots", &target]);
    let records = common::jsonl(&out.stdout);
    assert_eq!(failure_class(&records, &format!("{target}/robots.txt")), "private_address");
    assert_eq!(out.status.code(), Some(2));
}

/// Every probe: the first document is refused by the private-address rule, the rest of the origin
/// is not attempted (no politeness wait), and standard error names --allow-private.
#[test]
fn a_private_target_is_refused_once_and_the_rest_not_attempted() {
    let port = server().http_addr.port();
    let target = format!("http://127.0.0.1:{port}");
    let out = wellknown(&["scan", "--no-store", &target]);
    let records = common::jsonl(&out.stdout);
    let docs: Vec<&serde_json::Value> = records.iter().filter(|r| r["type"] == "document").collect();
    assert!(docs.len() > 2, "{docs:?}");
    assert!(docs.iter().all(|d| d["failure"]["class"] == "private_address"), "{docs:?}");
    let attempted: Vec<&str> =
        docs.iter().filter(|d| d["not_attempted"] != true).filter_map(|d| d["requested_url"].as_str()).collect();
    assert_eq!(attempted, [format!("{target}/robots.txt")]);
    let summary = records.iter().find(|r| r["type"] == "summary").expect("summary");
    assert_eq!(summary["documents_not_attempted"].as_u64(), Some(docs.len() as u64 - 1), "{summary}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "  {target}: private_address (a loopback, private or otherwise non-public address: refused without \
             --allow-private)"
        )),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(2));
}

/// `--min-rate` and `--slow-grace` reach the fetcher: a robots.txt dripped 10 bytes every 0.7 s is
/// judged at 1 s, recorded `slow_transfer` with the 10 bytes read.
#[test]
fn a_trickled_document_is_a_slow_transfer() {
    use wellknown_tests::{Behaviour, HostileServer};
    let body = b"User-agent: *\nAllow: /\n".to_vec();
    let hostile = HostileServer::builder()
        .route("/robots.txt", Behaviour::DripBody { body, chunk: 10, interval: std::time::Duration::from_millis(700) })
        .start()
        .unwrap();
    let target = format!("http://{}", hostile.addr);
    let out = wellknown(&[
        "scan",
        "--quiet",
        "--no-store",
        "--no-verify",
        "--allow-private",
        "--probe",
        "robots",
        "--min-rate",
        "1024",
        "--slow-grace",
        "1",
        &target,
    ]);
    let records = common::jsonl(&out.stdout);
    let doc = document(&records, &format!("{target}/robots.txt")).unwrap();
    assert_eq!(doc["failure"]["class"], "slow_transfer", "{doc}");
    assert_eq!(
        (doc["status"].as_u64(), doc["size"].as_u64(), doc["truncated"].as_bool()),
        (Some(200), Some(10), Some(true))
    );
    assert_eq!(hostile.count("/robots.txt"), 1);
}
