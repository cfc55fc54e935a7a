//! End to end against hostile peers on loopback (issue 13, "The engine on real networks"): tar-pit
//! bodies and heads, held connections, a long `Retry-After`, a catch-all 200, an origin slower than
//! its time budget. Each test asserts the records, the summary, the exit code, the lines on standard
//! error and the hostile server's request log (what was, and was not, sent).
//!
//! Timing: the minimum transfer rate is judged from `--slow-grace 1` over the last 0.5 s; the tar
//! pits send a byte every 40 or 50 ms (about ten bytes a window, far below `--min-rate 1000`, never a
//! silent window), and the held connections send nothing at all after their first bytes. No test
//! asserts a duration.

use std::time::Duration;

use serde_json::{Value, json};
use wellknown_tests::{Behaviour, HostileServer};

use crate::common::hostile::{PROBE_PATHS, budget_record, calibration_token, gets, log, scan, sorted_log};

/// `--min-rate 1000 --slow-grace 1`: a response slower than 1000 bytes/s over the last 0.5 s, 1 s
/// after its start, is given up.
const SLOW: [&str; 4] = ["--min-rate", "1000", "--slow-grace", "1"];

/// A body dripped one byte every 50 ms (10 s for all of it).
fn drip_body() -> Behaviour {
    Behaviour::DripBody { body: vec![b'#'; 200], chunk: 1, interval: Duration::from_millis(50) }
}

/// A response head dripped one byte every 40 ms (about 3 s for the head).
fn drip_head() -> Behaviour {
    Behaviour::DripHead {
        body: b"Contact: mailto:security@example.com\n".to_vec(),
        interval: Duration::from_millis(40),
    }
}

fn class(doc: &Value) -> &str {
    doc["failure"]["class"].as_str().unwrap_or("none")
}

fn message(doc: &Value) -> &str {
    doc["failure"]["message"].as_str().unwrap_or_default()
}

#[test]
fn a_tar_pit_body_and_head_are_slow_transfers_and_the_rest_of_the_origin_is_not_attempted() {
    let server = HostileServer::builder()
        .route("/robots.txt", drip_body())
        .route("/.well-known/security.txt", drip_head())
        .route("/security.txt", Behaviour::Welcome)
        .start()
        .unwrap();
    let base = server.url("");
    let mut args = vec!["--no-verify", "--depth", "0", "--probe", "robots", "--probe", "security.txt"];
    args.extend(SLOW);
    args.push(&base);
    let s = scan(&args);

    let docs = s.documents_of(&base);
    assert_eq!(docs.len(), 3, "{docs:?}");
    // robots.txt goes first and alone: its head at once, its body a trickle.
    let robots = s.document(&format!("{base}/robots.txt"));
    assert_eq!((class(robots), &robots["status"], &robots["truncated"]), ("slow_transfer", &json!(200), &json!(true)));
    assert!(robots.get("not_attempted").is_none(), "{robots}");
    let m = message(robots);
    assert!(m.starts_with(&format!("{base}/robots.txt: ")), "{m}");
    assert!(m.contains(" below the minimum rate of 1000 bytes/s; body not complete (status 200) after "), "{m}");
    assert!(robots["size"].as_u64().is_some_and(|n| n > 0 && n < 200), "the bytes received are kept: {robots}");
    // security.txt: the head itself a trickle, so no status.
    let wk = s.document(&format!("{base}/.well-known/security.txt"));
    assert_eq!((class(wk), &wk["status"], &wk["size"]), ("slow_transfer", &Value::Null, &json!(0)));
    assert!(message(wk).contains(" below the minimum rate of 1000 bytes/s; response head not complete after "), "{wk}");
    assert!(wk.get("not_attempted").is_none(), "{wk}");
    // Two slow answers: the origin's other document is not sent.
    let legacy = s.document(&format!("{base}/security.txt"));
    assert_eq!(
        (&legacy["not_attempted"], class(legacy), &legacy["status"]),
        (&json!(true), "slow_transfer", &Value::Null)
    );
    assert_eq!(
        message(legacy),
        format!(
            "not attempted: the origin answered too slowly 2 times, last at {base}/.well-known/security.txt (slow_transfer)"
        )
    );

    assert_eq!(log(&server), ["GET /robots.txt", "GET /.well-known/security.txt"], "/security.txt never requested");
    let o = s.origin(&base);
    assert_eq!((&o["reachable"], &o["documents"]), (&json!(true), &json!(3)), "robots.txt had a status: {o}");
    assert!(o.get("budgets").is_none(), "{o}");
    let sum = s.summary();
    assert_eq!(sum["documents"], 3, "{sum}");
    assert_eq!(sum["documents_found"], 0, "{sum}");
    assert_eq!(sum["fetch_failures"], 3, "incomplete responses count: {sum}");
    assert_eq!(sum["failures_by_class"], json!({"slow_transfer": 3}), "{sum}");
    assert_eq!(sum["documents_not_attempted"], 1, "{sum}");
    assert!(s.of_type("budget").is_empty());
    assert_eq!(s.code, 1, "nothing found: {}", s.stderr);
    assert!(
        s.summary_line().contains(
            "3 document(s): 0 answered 2xx, 0 recognised, 3 failed to fetch (3 slow_transfer) (1 not attempted: origin \
             unreachable or too slow)"
        ),
        "{}",
        s.stderr
    );
}

#[test]
fn a_tar_pit_on_every_path_costs_two_requests() {
    // Every probe location drips; whichever request goes second (they race once robots.txt has
    // failed) is the second slow answer, and the other eight are not attempted.
    let mut builder = HostileServer::builder().route("/robots.txt", drip_body());
    for p in PROBE_PATHS.iter().filter(|p| **p != "/robots.txt") {
        builder = builder.route(p, drip_head());
    }
    let server = builder.start().unwrap();
    let base = server.url("");
    let mut args = vec!["--no-verify", "--depth", "0"];
    args.extend(SLOW);
    args.push(&base);
    let s = scan(&args);

    let sent = log(&server);
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert_eq!(sent[0], "GET /robots.txt");
    let second = format!("{base}{}", sent[1].trim_start_matches("GET "));
    let docs = s.documents_of(&base);
    let mut urls: Vec<String> = docs.iter().map(|d| d["requested_url"].as_str().unwrap().replace(&base, "")).collect();
    urls.sort();
    assert_eq!(urls, PROBE_PATHS, "one record per probe location");
    let reason = format!("not attempted: the origin answered too slowly 2 times, last at {second} (slow_transfer)");
    for d in &docs {
        assert_eq!(class(d), "slow_transfer", "{d}");
        let url = d["requested_url"].as_str().unwrap();
        if url == format!("{base}/robots.txt") || url == second {
            assert!(d.get("not_attempted").is_none(), "{d}");
        } else {
            assert_eq!((&d["not_attempted"], message(d)), (&json!(true), reason.as_str()), "{d}");
        }
    }
    assert_eq!(s.document(&second)["status"], Value::Null, "a dripped head: {}", s.document(&second));
    let sum = s.summary();
    assert_eq!(
        (&sum["documents"], &sum["fetch_failures"], &sum["documents_not_attempted"]),
        (&json!(10), &json!(10), &json!(8))
    );
    assert_eq!(sum["failures_by_class"], json!({"slow_transfer": 10}), "{sum}");
    assert_eq!(s.code, 1, "{}", s.stderr);
}

#[test]
fn a_held_connection_is_a_timeout_not_a_slow_transfer() {
    // Content-Length 1000, a few bytes, then silence: nothing at all in the window judged.
    let held = |sent: &[u8]| Behaviour::Hold { declared: 1000, sent: sent.to_vec() };
    let server = HostileServer::builder()
        .route("/robots.txt", held(b"User-agent: *\n"))
        .route("/.well-known/security.txt", held(b"Contact: mailto:a@example.com\n"))
        .route("/security.txt", Behaviour::Welcome)
        .start()
        .unwrap();
    let base = server.url("");
    let mut args = vec!["--no-verify", "--depth", "0", "--probe", "robots", "--probe", "security.txt"];
    args.extend(SLOW);
    args.push(&base);
    let s = scan(&args);

    for (path, sent) in [("/robots.txt", 14), ("/.well-known/security.txt", 30)] {
        let d = s.document(&format!("{base}{path}"));
        assert_eq!(class(d), "timeout", "silence is no trickle: {d}");
        assert_eq!((&d["status"], &d["truncated"], &d["size"]), (&json!(200), &json!(true), &json!(sent)), "{d}");
        let m = message(d);
        assert!(
            m.starts_with(&format!("{base}{path}: nothing received in the last 0.")),
            "the rate rule stopped it: {m}"
        );
        assert!(m.ends_with("; body not complete (status 200)"), "{m}");
    }
    let legacy = s.document(&format!("{base}/security.txt"));
    assert_eq!((&legacy["not_attempted"], class(legacy)), (&json!(true), "timeout"), "{legacy}");
    assert_eq!(
        message(legacy),
        format!(
            "not attempted: the origin answered too slowly 2 times, last at {base}/.well-known/security.txt (timeout)"
        )
    );
    assert_eq!(log(&server), ["GET /robots.txt", "GET /.well-known/security.txt"]);
    let sum = s.summary();
    assert_eq!(sum["failures_by_class"], json!({"timeout": 3}), "{sum}");
    assert_eq!((&sum["fetch_failures"], &sum["documents_not_attempted"]), (&json!(3), &json!(1)), "{sum}");
    assert_eq!(s.code, 1, "{}", s.stderr);
    assert!(s.summary_line().contains("3 failed to fetch (3 timeout) (1 not attempted"), "{}", s.stderr);
}

#[test]
fn a_long_retry_after_rate_limits_the_host_after_one_request() {
    let mut builder = HostileServer::builder();
    for p in PROBE_PATHS {
        builder = builder.route(p, Behaviour::RetryAfter { status: 429, retry_after: "3600".into() });
    }
    let server = builder.start().unwrap();
    let base = server.url("");
    let s = scan(&["--no-verify", "--depth", "0", &base]);

    assert_eq!(log(&server), ["GET /robots.txt"], "the host is asked once");
    let robots = s.document(&format!("{base}/robots.txt"));
    assert_eq!((class(robots), &robots["status"]), ("rate_limited", &json!(429)), "{robots}");
    assert_eq!(robots["retry_after_secs"], 3600, "{robots}");
    let m = message(robots);
    assert!(
        m.starts_with(&format!(
            "{base}/robots.txt answered 429 with Retry-After: 3600 s, longer than the fetcher waits (60s); not retried, \
             and 127.0.0.1 is rate-limited until "
        )),
        "{m}"
    );
    let docs = s.documents_of(&base);
    assert_eq!(docs.len(), PROBE_PATHS.len(), "{docs:?}");
    for d in docs.iter().filter(|d| d["requested_url"] != format!("{base}/robots.txt").as_str()) {
        assert_eq!(
            (class(d), &d["status"], &d["retry_after_secs"]),
            ("rate_limited", &Value::Null, &json!(3600)),
            "{d}"
        );
        let url = d["requested_url"].as_str().unwrap();
        let m = message(d);
        assert!(
            m.starts_with(&format!("{url}: not requested: 127.0.0.1 answered 429 with Retry-After: 3600 s at ")),
            "{m}"
        );
        // Refused by the fetcher, not by the unit's memory of unreachable origins.
        assert!(d.get("not_attempted").is_none(), "{d}");
    }
    let sum = s.summary();
    assert_eq!((&sum["documents"], &sum["fetch_failures"]), (&json!(10), &json!(10)), "{sum}");
    assert_eq!(sum["failures_by_class"], json!({"rate_limited": 10}), "{sum}");
    assert_eq!((&sum["reachable"], &sum["documents_not_attempted"]), (&json!(1), &json!(0)), "{sum}");
    assert_eq!(s.code, 1, "the host answered (429), nothing was found: {}", s.stderr);
    assert!(s.summary_line().contains("10 failed to fetch (10 rate_limited)"), "{}", s.stderr);
}

#[test]
fn a_catch_all_server_is_reported_catch_all_and_nothing_is_found() {
    let server = HostileServer::builder().welcome().start().unwrap();
    let base = server.url("");
    // Verification and feedback on: catch-all candidates are neither verified nor revealing.
    let s = scan(&["--verify", "--depth", "1", &base]);

    let token = calibration_token(&server);
    let mut expected: Vec<String> = PROBE_PATHS.to_vec().into_iter().map(String::from).collect();
    expected.push("/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200".into());
    expected.push(format!("/{token}"));
    expected.push(format!("/.well-known/{token}"));
    // Every probe location but the two fallbacks (their first location answered 2xx), the
    // change-password status check and the two calibration requests; nothing verified.
    let expected: Vec<String> =
        expected.into_iter().filter(|p| p != "/security.txt" && p != "/apple-app-site-association").collect();
    assert_eq!(sorted_log(&server), gets(expected.iter().map(String::as_str)));
    assert_eq!(log(&server)[0], "GET /robots.txt");

    let docs = s.documents_of(&base);
    assert_eq!(docs.len(), 9, "{docs:?}");
    for d in &docs {
        assert_eq!((&d["status"], &d["catch_all"], &d["size"]), (&json!(200), &json!(true), &json!(7)), "{d}");
        let url = d["url"].as_str().unwrap();
        let warned = s.of_type("diagnostic").into_iter().any(|g| {
            g["document"] == url
                && g["code"] == "catch_all"
                && g["severity"] == "warning"
                && g["message"].as_str().unwrap().starts_with("the origin answers this path as it answers a random one")
        });
        assert!(warned, "no catch_all warning for {url}");
    }
    // The only candidate (change-password's own URL) is flagged, not verified, reveals nothing.
    let candidates = s.of_type("candidate");
    assert_eq!(candidates.len(), 1, "{candidates:?}");
    assert_eq!(candidates[0]["value"], format!("{base}/.well-known/change-password").as_str());
    assert!(candidates[0]["flags"].as_array().unwrap().contains(&json!("catch_all")), "{}", candidates[0]);
    assert!(s.of_type("verification").is_empty() && s.of_type("inventory").is_empty());

    let sum = s.summary();
    assert_eq!((&sum["documents_found"], &sum["documents_recognised"]), (&json!(9), &json!(0)), "{sum}");
    assert_eq!((&sum["documents_catch_all"], &sum["calibration_requests"]), (&json!(9), &json!(2)), "{sum}");
    assert_eq!((&sum["verification_requests"], &sum["fetch_failures"]), (&json!(0), &json!(0)), "{sum}");
    assert_eq!(s.code, 1, "only catch-all answers: nothing found; {}", s.stderr);
    assert!(
        s.summary_line()
            .contains("9 answered 2xx, 0 recognised, 0 failed to fetch, 9 answered like a random path (catch_all)"),
        "{}",
        s.stderr
    );
}

#[test]
fn the_origin_budget_abandons_a_held_request_and_the_scan_ends() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("robots.txt"), "User-agent: *\nDisallow: /private\n").unwrap();
    let server = HostileServer::builder()
        .route("/.well-known/security.txt", Behaviour::Hold { declared: 1000, sent: b"Contact: ".to_vec() })
        .files(dir.path())
        .start()
        .unwrap();
    let base = server.url("");
    // The rate rule off and a long timeout: only the origin's 3 s budget can end the held request.
    let s = scan(&["--no-verify", "--depth", "0", "--min-rate", "0", "--timeout", "60", "--origin-budget", "3", &base]);

    let budgets = s.of_type("budget");
    assert_eq!(budgets.len(), 1, "{budgets:?}");
    assert_eq!(*budgets[0], budget_record(&base, "time_per_origin", 3000, "documents", 1, "--origin-budget"));
    let o = s.origin(&base);
    assert_eq!(
        (&o["budgets"], &o["documents"], &o["reachable"]),
        (&json!({"time_per_origin": 1}), &json!(9), &json!(true))
    );
    let sum = s.summary();
    assert_eq!((&sum["budgets"], &sum["units_over_budget"]), (&json!({"time_per_origin": 1}), &json!(1)), "{sum}");
    // The held request is recorded abandoned (timeout); its probe's fallback was never asked.
    let held = s.document(&format!("{base}/.well-known/security.txt"));
    assert_eq!(
        (&held["failure"]["class"], &held["failure"]["message"]),
        (
            &json!("timeout"),
            &json!("abandoned: the unit's time budget (3 s, --origin-budget) ran out before this document was read")
        ),
        "{held}"
    );
    let mut urls: Vec<String> =
        s.documents_of(&base).iter().map(|d| d["requested_url"].as_str().unwrap().replace(&base, "")).collect();
    urls.sort();
    let mut answered: Vec<&str> = PROBE_PATHS.iter().copied().filter(|p| *p != "/security.txt").collect();
    answered.sort();
    assert_eq!(urls, answered);
    let token = calibration_token(&server);
    let mut sent: Vec<String> = PROBE_PATHS.iter().filter(|p| **p != "/security.txt").map(|p| p.to_string()).collect();
    sent.extend([format!("/{token}"), format!("/.well-known/{token}")]);
    assert_eq!(sorted_log(&server), gets(sent.iter().map(String::as_str)), "/security.txt never requested");
    assert_eq!(
        s.stderr_lines("wellknown: budget: "),
        [format!(
            "wellknown: budget: {base}: time_per_origin (3000 ms) reached: 1 documents or verifications abandoned or not \
             started (raise with --origin-budget)"
        )]
    );
    assert!(
        s.summary_line().contains("; budgets reached in 1 unit(s), left undone: time_per_origin 1; "),
        "{}",
        s.stderr
    );
    assert_eq!(s.code, 0, "robots.txt was read: {}", s.stderr);
}

/// An origin whose robots.txt is held: the `Hold` server, and the scan with a 2 s origin budget.
fn scan_held_robots() -> (HostileServer, String, crate::common::hostile::Scan) {
    let server = HostileServer::builder()
        .route("/robots.txt", Behaviour::Hold { declared: 1000, sent: b"User".to_vec() })
        .welcome()
        .start()
        .unwrap();
    let base = server.url("");
    let s = scan(&["--no-verify", "--depth", "0", "--min-rate", "0", "--timeout", "60", "--origin-budget", "2", &base]);
    (server, base, s)
}

#[test]
fn an_origin_whose_robots_txt_is_held_past_its_budget_records_what_it_abandoned() {
    // robots.txt goes first and alone; held, it keeps every other document of the origin waiting
    // until the budget abandons them all. Each document in flight is recorded (timeout, abandoned).
    let (server, base, s) = scan_held_robots();
    assert_eq!(log(&server), ["GET /robots.txt"], "nothing is sent once the origin's budget is spent");
    // 8 probes: robots.txt and six others in flight, the sitemap probe waiting for robots.txt.
    let budgets = s.of_type("budget");
    assert_eq!(budgets.len(), 1, "{budgets:?}");
    assert_eq!(*budgets[0], budget_record(&base, "time_per_origin", 2000, "documents", 8, "--origin-budget"));
    let docs = s.documents_of(&base);
    assert_eq!(docs.len(), 7, "{docs:?}");
    for d in &docs {
        assert_eq!(d["failure"]["class"], "timeout", "{d}");
        assert_eq!(
            d["failure"]["message"],
            "abandoned: the unit's time budget (2 s, --origin-budget) ran out before this document was read",
            "{d}"
        );
        assert_eq!(d["status"], Value::Null, "{d}");
    }
    assert!(docs.iter().any(|d| d["requested_url"] == format!("{base}/robots.txt")));
    let o = s.origin(&base);
    assert_eq!((&o["budgets"], &o["documents"]), (&json!({"time_per_origin": 8}), &json!(7)), "{o}");
    assert_eq!((&o["reachable"], &o["failures"]), (&json!(false), &json!(["timeout"])), "{o}");
    let sum = s.summary();
    assert_eq!((&sum["unreachable"], &sum["budgets"]), (&json!(1), &json!({"time_per_origin": 8})), "{sum}");
    assert_eq!(s.stderr_lines("wellknown: budget: ").len(), 1, "{}", s.stderr);
    assert!(s.stderr.contains(&format!("wellknown: every target failed:\n  {base}: timeout\n")), "{}", s.stderr);
    assert_eq!(s.code, 2, "{}", s.stderr);
}

#[test]
fn after_its_budget_an_origin_is_sent_nothing_more() {
    // Eight scans at once, so that the race shows on a loaded machine.
    let runs: Vec<_> = (0..8).map(|_| std::thread::spawn(scan_held_robots)).collect();
    for run in runs {
        let (server, _base, _s) = run.join().unwrap();
        assert_eq!(log(&server), ["GET /robots.txt"], "nothing is sent once the origin's budget is spent");
    }
}

#[test]
fn a_sitemap_of_tar_pit_urls_costs_a_few_verification_requests_not_one_each() {
    // robots.txt and the sitemap answer at once; the 20 URLs the sitemap lists drip their heads.
    let dir = tempfile::tempdir().unwrap();
    let mut builder = HostileServer::builder().files(dir.path());
    for n in 1..=20 {
        builder = builder.route(&format!("/pit/{n}"), drip_head());
    }
    let server = builder.start().unwrap();
    let base = server.url("");
    std::fs::write(dir.path().join("robots.txt"), format!("User-agent: *\nDisallow:\nSitemap: {base}/sitemap.xml\n"))
        .unwrap();
    let mut urlset =
        String::from("<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for n in 1..=20 {
        urlset.push_str(&format!("<url><loc>{base}/pit/{n}</loc></url>\n"));
    }
    urlset.push_str("</urlset>\n");
    std::fs::write(dir.path().join("sitemap.xml"), urlset).unwrap();
    let mut args = vec!["--verify", "--depth", "0", "--probe", "robots", "--probe", "sitemap"];
    args.extend(SLOW);
    args.push(&base);
    let s = scan(&args);

    // Verification sends at most its concurrency (4) before two slow answers stop the rest.
    let pits: Vec<String> = log(&server).into_iter().filter(|l| l.starts_with("HEAD /pit/")).collect();
    assert!((2..=4).contains(&pits.len()), "{pits:?}");
    let verdicts: Vec<&Value> =
        s.of_type("verification").into_iter().filter(|v| v["value"].as_str().unwrap().contains("/pit/")).collect();
    assert_eq!(verdicts.len(), 20, "every URL gets its verdict");
    let (sent, skipped): (Vec<&Value>, Vec<&Value>) = verdicts.iter().partition(|v| v["source"] == "request");
    assert_eq!(sent.len(), pits.len(), "{verdicts:?}");
    for v in &sent {
        assert_eq!((&v["status"], &v["method"], class(v)), (&json!("timeout"), &json!("HEAD"), "slow_transfer"), "{v}");
    }
    for v in &skipped {
        assert_eq!(
            (&v["status"], &v["method"], &v["source"]),
            (&json!("timeout"), &Value::Null, &json!("none")),
            "{v}"
        );
        let m = message(v);
        assert!(m.starts_with("not attempted: the origin answered too slowly 2 times, last at "), "{m}");
    }
    // What verification learned never stops the unit's documents.
    assert_eq!(s.document(&format!("{base}/sitemap.xml"))["status"], json!(200));
    let sum = s.summary();
    assert_eq!(sum["verification_requests"], json!(pits.len()), "{sum}");
}
