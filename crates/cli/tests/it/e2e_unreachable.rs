//! End to end: an origin unreachable at the connection level (connection refused, a name that does
//! not resolve, a TLS name mismatch) is requested once per unit; its other documents are recorded
//! with the same failure class and `"not_attempted": true`, not sent.

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common;

use common::{ca_file, of_type, requests_to, server, wellknown};
use serde_json::Value;

/// The document records of `origin` requested from the origin itself, in order (a probe whose
/// location is on another host, the MTA-STS policy host, asks that host on its own).
fn documents_of<'a>(records: &'a [Value], origin: &str) -> Vec<&'a Value> {
    let own = format!("{origin}/");
    of_type(records, "document")
        .into_iter()
        .filter(|d| d["origin"] == origin && d["requested_url"].as_str().is_some_and(|u| u.starts_with(&own)))
        .collect()
}

/// The documents of `origin`'s unit requested from another host (the MTA-STS policy host): each is
/// a name of its own, requested once.
fn elsewhere(records: &[Value], origin: &str) -> usize {
    let own = format!("{origin}/");
    of_type(records, "document")
        .into_iter()
        .filter(|d| d["origin"] == origin && d["requested_url"].as_str().is_some_and(|u| !u.starts_with(&own)))
        .count()
}

/// Asserts that the document of `origin` that was attempted is its robots.txt (the first request
/// to an origin goes alone), failed with `class`, and every other one was not attempted, with the
/// same class and a message naming the robots.txt request (documents are recorded in the order
/// their fetches end). Returns the number of documents.
fn assert_requested_once(records: &[Value], origin: &str, class: &str) -> usize {
    let docs = documents_of(records, origin);
    assert!(docs.len() >= 5, "every origin probe has a record: {docs:?}");
    let robots = format!("{origin}/robots.txt");
    let (tried, skipped): (Vec<&Value>, Vec<&Value>) = docs.iter().partition(|d| d.get("not_attempted").is_none());
    assert_eq!(tried.len(), 1, "{tried:?}");
    assert_eq!(tried[0]["requested_url"], robots.as_str(), "{docs:?}");
    assert_eq!(tried[0]["failure"]["class"], class, "{}", tried[0]);
    let message = format!("not attempted: the origin was unreachable at {robots} ({class})");
    for d in &skipped {
        assert_eq!(d["not_attempted"], true, "{d}");
        assert_eq!(d["failure"]["class"], class, "{d}");
        assert_eq!(d["failure"]["message"], message.as_str(), "{d}");
        assert_eq!(d["status"], Value::Null, "{d}");
    }
    docs.len()
}

#[test]
fn a_closed_port_and_an_unresolvable_name_are_requested_once() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let closed = format!("http://127.0.0.1:{port}");
    let nx = "https://no-such-host.invalid";
    let out = wellknown(&[
        "scan",
        "--no-store",
        "--no-verify",
        "--depth",
        "0",
        "--allow-private",
        "--timeout",
        "5",
        &closed,
        nx,
    ]);
    let records = common::jsonl(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let n_closed = assert_requested_once(&records, &closed, "connect_refused");
    let nx_class = documents_of(&records, nx)
        .iter()
        .find(|d| d.get("not_attempted").is_none())
        .and_then(|d| d["failure"]["class"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(nx_class.starts_with("dns_"), "{nx_class}");
    let n_nx = assert_requested_once(&records, nx, &nx_class);
    let s = of_type(&records, "summary").last().map(|v| (*v).clone()).expect("summary");
    assert_eq!((&s["targets"], &s["reachable"], &s["unreachable"]), (&2.into(), &0.into(), &2.into()), "{s}");
    assert_eq!(s["fetch_failures"], s["documents"], "{s}");
    assert_eq!(s["documents_not_attempted"], n_closed + n_nx - 2, "{s}");
    let origins = of_type(&records, "origin");
    assert!(origins.iter().all(|o| o["reachable"] == false), "{origins:?}");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let line = stderr.lines().find(|l| l.starts_with("wellknown: 2 target(s)")).unwrap_or_else(|| panic!("{stderr}"));
    // The MTA-STS policy host of the unresolvable name (mta-sts.no-such-host.invalid) is a name of
    // its own: asked once, it fails the same way.
    let n_nx_other = elsewhere(&records, nx);
    assert_eq!((n_nx_other, elsewhere(&records, &closed)), (1, 0));
    let skipped = format!(
        "{} failed to fetch ({n_closed} connect_refused, {} {nx_class}) ({} not attempted: origin unreachable or \
         too slow)",
        n_closed + n_nx + n_nx_other,
        n_nx + n_nx_other,
        n_closed + n_nx - 2
    );
    assert!(line.contains(&skipped), "{line}");
}

/// A TCP forwarder to `upstream` on loopback that counts the connections it accepts.
fn counting_forwarder(upstream: std::net::SocketAddr) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            seen.fetch_add(1, Ordering::SeqCst);
            let Ok(server) = TcpStream::connect(upstream) else { continue };
            let pipe = |mut from: TcpStream, mut to: TcpStream| {
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from, &mut to);
                    let _ = to.shutdown(std::net::Shutdown::Write);
                })
            };
            if let (Ok(c), Ok(s)) = (client.try_clone(), server.try_clone()) {
                pipe(c, server);
                pipe(s, client);
            }
        }
    });
    (port, count)
}

#[test]
fn a_tls_name_mismatch_is_one_connection() {
    // The fixture server's certificate (its CA trusted) does not name mismatch.example.
    let https = server().https_addr.expect("https");
    let (port, connections) = counting_forwarder(https);
    let ca = ca_file().display().to_string();
    let out = wellknown(&[
        "scan",
        "--quiet",
        "--no-store",
        "--no-verify",
        "--depth",
        "0",
        "--allow-private",
        "--ca-cert",
        &ca,
        "--connect-to",
        &format!(":443:127.0.0.1:{port}"),
        "https://mismatch.example",
    ]);
    let records = common::jsonl(&out.stdout);
    let n = assert_requested_once(&records, "https://mismatch.example", "tls");
    let docs = documents_of(&records, "https://mismatch.example");
    let robots = docs.iter().find(|d| d["requested_url"] == "https://mismatch.example/robots.txt").expect("robots.txt");
    assert!(
        robots["failure"]["message"].as_str().unwrap().contains("is not among the certificate's names"),
        "{robots}"
    );
    // One handshake for the origin's documents, one for its MTA-STS policy host (another name).
    let other = elsewhere(&records, "https://mismatch.example");
    assert_eq!(other, 1);
    assert_eq!(connections.load(Ordering::SeqCst), 1 + other, "one TLS handshake for {n} documents");
    assert!(requests_to(server(), "mismatch.example").is_empty(), "no request got past TLS");
    let s = of_type(&records, "summary").last().map(|v| (*v).clone()).expect("summary");
    assert_eq!(s["documents_not_attempted"], n - 1, "{s}");
    assert_eq!(s["unreachable"], 1, "{s}");
}
