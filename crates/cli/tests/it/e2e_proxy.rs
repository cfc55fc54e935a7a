//! End to end through loopback proxies (`wellknown_tests::TestProxy`): an HTTP proxy (CONNECT for
//! https sites, absolute-form requests for http sites) and a SOCKS5 proxy, with and without
//! credentials. The proxy's log shows every request, the records equal those of a direct scan of
//! the same sites (times aside), the credentials appear nowhere in the output, on standard error or
//! in the store, each refusal of the proxy has its own failure class, and `NO_PROXY` hosts go
//! direct.

use crate::common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;
use wellknown_tests::{FixtureServer, ProxyBehaviour, ProxyProtocol, ProxyRequest, TestProxy, fixture_sites};

use common::{jsonl, of_type, own_server, routing_args_for};

/// The proxy's password: it must appear nowhere the scan writes.
const SECRET: &str = "pr0xy-s3cret";

/// The sites scanned: one over https (tunnelled), one over http (forwarded in absolute form).
const TARGETS: [&str; 2] = ["https://verify.test", "http://history.test"];

/// Every proxy variable, removed from (or set in) the scanner's environment.
const PROXY_VARS: [&str; 8] =
    ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"];

/// Output of one run: exit code, records, standard error, and every byte of the files left in the
/// working directory (the store and its journal).
struct Run {
    code: i32,
    records: Vec<Value>,
    stderr: String,
    files: Vec<u8>,
}

/// Runs `wellknown scan ARGS` in a fresh directory (its own store) with only `env` among the proxy
/// variables.
fn run(args: &[String], env: &[(&str, String)]) -> Run {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wellknown"));
    cmd.arg("scan").args(args).current_dir(dir.path()).stdin(Stdio::null());
    cmd.env_remove("WELLKNOWN_CONCURRENCY").env_remove("WELLKNOWN_DB");
    for v in PROXY_VARS {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run wellknown");
    Run {
        code: out.status.code().unwrap_or(-1),
        records: jsonl(&out.stdout),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        files: all_bytes(dir.path()),
    }
}

fn all_bytes(dir: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir).expect("dir").flatten() {
        if let Ok(b) = std::fs::read(entry.path()) {
            bytes.extend_from_slice(&b);
        }
    }
    bytes
}

/// The fixture server's CA, written beside the test's other files.
fn ca_file(server: &FixtureServer) -> String {
    crate::common::ca_file_for(server).display().to_string()
}

/// Scan settings shared by the direct and the proxied scans: verification on, no feedback.
fn common_args() -> Vec<String> {
    ["--verify", "--depth", "0", "--quiet", "--rate", "1000"].map(String::from).to_vec()
}

/// A direct scan of [`TARGETS`] at `server` (routed with `--connect-to`).
fn direct(server: &FixtureServer) -> Run {
    let mut args = routing_args_for(server);
    args.extend(common_args());
    args.extend(TARGETS.map(String::from));
    let r = run(&args, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r
}

/// A proxy routing the target names to `server`, as its own resolver would.
fn proxy_to(server: &FixtureServer, protocol: ProxyProtocol) -> wellknown_tests::TestProxyBuilder {
    let https = server.https_addr.expect("https");
    let mut b = TestProxy::builder(protocol);
    // With each origin's MTA-STS policy host (`mta-sts.<host>`, which the mta-sts.txt probe asks).
    for host in ["verify.test", "history.test", "mta-sts.verify.test", "mta-sts.history.test"] {
        b = b.route(host, Some(443), https).route(host, Some(80), server.http_addr);
    }
    b
}

/// Records without what differs from run to run: times, durations, scan ids; and a sighting of a
/// candidate as a `candidate` record (first) or an `evidence` record (later) alike, since which of
/// two concurrent documents is emitted first is not the proxy's doing.
fn comparable(records: &[Value]) -> Vec<String> {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.retain(|k, _| !(k.ends_with("_at") || k.ends_with("_ms") || k == "scan_id" || k == "scan"));
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut out: Vec<String> = records
        .iter()
        .map(|r| {
            let mut r = r.clone();
            strip(&mut r);
            if let Some(m) = r.as_object_mut()
                && (m["type"] == "candidate" || m["type"] == "evidence")
            {
                m.insert("type".into(), "sighting".into());
                m.remove("in_scope");
            }
            without_instants(&r.to_string())
        })
        .collect();
    out.sort();
    out
}

/// `text` with every RFC 3339 instant of this scan's clock (`2026-12-02T04:54:41.423091711Z`, as a
/// diagnostic's "more than a year after ..." says) replaced by `<instant>`.
fn without_instants(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let looks = bytes.len() - i >= 20
            && bytes[i..i + 4].iter().all(u8::is_ascii_digit)
            && bytes[i + 4] == b'-'
            && bytes[i + 10] == b'T'
            && bytes[i + 13] == b':';
        if looks && let Some(end) = text[i..].find('Z') {
            out.push_str("<instant>");
            i += end + 1;
            continue;
        }
        let c = text[i..].chars().next().unwrap_or_default();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Fails with the records each side has and the other has not.
fn assert_same_records(got: &[Value], want: &[Value]) {
    let (got, want) = (comparable(got), comparable(want));
    let extra: Vec<&String> = got.iter().filter(|r| !want.contains(r)).collect();
    let missing: Vec<&String> = want.iter().filter(|r| !got.contains(r)).collect();
    assert!(extra.is_empty() && missing.is_empty(), "through the proxy only: {extra:#?}\ndirect only: {missing:#?}");
    assert_eq!(got.len(), want.len());
}

/// The credentials appear nowhere: records, standard error, store.
fn assert_secret_kept(r: &Run) {
    let stdout: String = r.records.iter().map(Value::to_string).collect();
    assert!(!stdout.contains(SECRET), "credentials in the records");
    assert!(!r.stderr.contains(SECRET), "credentials on standard error: {}", r.stderr);
    let needle = SECRET.as_bytes();
    assert!(!r.files.windows(needle.len()).any(|w| w == needle), "credentials in the store");
}

/// Requests the fixture server answered for `host`, as `METHOD /path` (the random part of a
/// calibration path as `*`).
fn served(server: &FixtureServer, scheme: Option<&str>, host: &str) -> Vec<String> {
    let mut v: Vec<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.host == host && scheme.is_none_or(|s| s == r.scheme))
        .map(|r| {
            let path = match r.path.split_once("wellknown-calibration-") {
                Some((dir, _)) => format!("{dir}wellknown-calibration-*"),
                None => r.path,
            };
            format!("{} {path}", r.method)
        })
        .collect();
    v.sort();
    v
}

fn summary(r: &Run) -> &Value {
    of_type(&r.records, "summary").last().copied().expect("summary")
}

#[test]
fn an_http_proxy_with_credentials_tunnels_https_and_forwards_http() {
    let direct_server = own_server(&fixture_sites());
    let want = direct(&direct_server);
    let server = own_server(&fixture_sites());
    let proxy = proxy_to(&server, ProxyProtocol::Http).credentials("scanner", SECRET).start().expect("proxy");
    let mut args = vec![
        "--proxy".to_string(),
        format!("http://scanner:{SECRET}@{}", proxy.addr),
        "--ca-cert".to_string(),
        ca_file(&server),
    ];
    args.extend(common_args());
    args.extend(TARGETS.map(String::from));
    let got = run(&args, &[]);
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_same_records(&got.records, &want.records);
    assert_eq!(served(&server, None, "verify.test"), served(&direct_server, None, "verify.test"));
    assert_eq!(served(&server, None, "history.test"), served(&direct_server, None, "history.test"));
    let log = proxy.requests();
    let with_secret = Some(format!("scanner:{SECRET}"));
    assert!(log.iter().all(|r| r.credentials == with_secret && r.outcome == "relayed"), "{log:?}");
    let tunnels: Vec<&ProxyRequest> = log.iter().filter(|r| r.method == "CONNECT").collect();
    // The https sites: the target, the sitemap history.test's robots.txt declares over https, and
    // both origins' MTA-STS policy hosts (always https).
    let https_sites = ["verify.test:443", "history.test:443", "mta-sts.verify.test:443", "mta-sts.history.test:443"];
    assert!(!tunnels.is_empty() && tunnels.iter().all(|r| https_sites.contains(&r.target.as_str())), "{log:?}");
    // Every request to the http site went through the proxy, one logged request each.
    let mut forwarded: Vec<String> = log
        .iter()
        .filter(|r| r.method != "CONNECT")
        .map(|r| {
            let path = r.target.trim_start_matches("http://history.test");
            let path = path
                .split_once("wellknown-calibration-")
                .map_or(path.to_string(), |(d, _)| format!("{d}wellknown-calibration-*"));
            format!("{} {path}", r.method)
        })
        .collect();
    forwarded.sort();
    assert_eq!(forwarded, served(&server, Some("http"), "history.test"));
    assert!(!forwarded.is_empty());
    assert_secret_kept(&got);
    assert!(got.stderr.contains(&format!("requests go through the proxy http://{}", proxy.addr)), "{}", got.stderr);
    assert_eq!(got.stderr.matches("resolves site names itself").count(), 1, "{}", got.stderr);
}

#[test]
fn a_socks5h_proxy_gets_names_and_the_scan_says_so_once() {
    let direct_server = own_server(&fixture_sites());
    let want = direct(&direct_server);
    let server = own_server(&fixture_sites());
    let proxy = proxy_to(&server, ProxyProtocol::Socks5).credentials("scanner", SECRET).start().expect("proxy");
    let auth = std::env::temp_dir().join(format!("wellknown-e2e-{}-proxy-auth", std::process::id()));
    std::fs::write(&auth, format!("scanner:{SECRET}\n")).unwrap();
    let mut args = vec![
        "--proxy".to_string(),
        format!("socks5h://{}", proxy.addr),
        "--proxy-auth-file".to_string(),
        auth.display().to_string(),
        "--proxy-ca".to_string(),
        ca_file(&server),
    ];
    args.extend(common_args());
    args.extend(TARGETS.map(String::from));
    let got = run(&args, &[]);
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_same_records(&got.records, &want.records);
    assert_eq!(served(&server, None, "verify.test"), served(&direct_server, None, "verify.test"));
    let log = proxy.requests();
    assert!(!log.is_empty());
    for r in &log {
        assert_eq!((r.method.as_str(), r.outcome.as_str()), ("SOCKS5", "relayed"), "{log:?}");
        let sites = ["verify.test:443", "history.test:80", "history.test:443"];
        let policy_hosts = ["mta-sts.verify.test:443", "mta-sts.history.test:443"];
        assert!(sites.contains(&r.target.as_str()) || policy_hosts.contains(&r.target.as_str()), "{log:?}");
        assert_eq!(r.credentials.as_deref(), Some(format!("scanner:{SECRET}").as_str()));
    }
    assert_secret_kept(&got);
    assert_eq!(got.stderr.matches("resolves site names itself").count(), 1, "{}", got.stderr);
}

#[test]
fn a_socks5_proxy_gets_addresses_resolved_and_routed_here() {
    let server = own_server(&fixture_sites());
    let proxy = TestProxy::builder(ProxyProtocol::Socks5).start().expect("proxy");
    let mut args = routing_args_for(&server);
    args.extend(["--proxy".to_string(), format!("socks5://{}", proxy.addr)]);
    args.extend(common_args());
    args.extend(TARGETS.map(String::from));
    let got = run(&args, &[]);
    assert_eq!(got.code, 0, "{}", got.stderr);
    let direct_server = own_server(&fixture_sites());
    assert_same_records(&got.records, &direct(&direct_server).records);
    let https = server.https_addr.expect("https").to_string();
    let http = server.http_addr.to_string();
    let log = proxy.requests();
    assert!(!log.is_empty());
    assert!(log.iter().all(|r| (r.target == https || r.target == http) && r.credentials.is_none()), "{log:?}");
    assert!(!got.stderr.contains("resolves site names itself"), "{}", got.stderr);
    // Without --allow-private the addresses --connect-to gives are refused before the proxy is asked.
    let mut args: Vec<String> = routing_args_for(&server).into_iter().filter(|a| a != "--allow-private").collect();
    args.extend(["--proxy".to_string(), format!("socks5://{}", proxy.addr), "--no-verify".to_string()]);
    args.push("https://verify.test".into());
    let before = proxy.requests().len();
    let refused = run(&args, &[]);
    assert_eq!(one_class(&summary(&refused)["failures_by_class"]), "private_address");
    assert_eq!(proxy.requests().len(), before, "nothing asked of the proxy");
}

/// `failures_by_class` of a scan of `https://verify.test` through `proxy_url`, and its documents'
/// failure messages.
fn failing_scan(proxy_url: &str, extra: &[&str]) -> (Value, Vec<String>, Run) {
    let mut args = vec!["--proxy".to_string(), proxy_url.to_string(), "--no-verify".into(), "--quiet".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push("https://verify.test".into());
    let r = run(&args, &[]);
    // The failure of the one request made (the unit's other documents are `not_attempted`).
    let messages = of_type(&r.records, "document")
        .iter()
        .filter_map(|d| d["failure"]["message"].as_str().map(str::to_string))
        .filter(|m| !m.starts_with("not attempted"))
        .collect();
    (summary(&r)["failures_by_class"].clone(), messages, r)
}

#[test]
fn each_refusal_of_the_proxy_has_its_own_class() {
    let server = own_server(&fixture_sites());
    // Nothing listens: the proxy refuses the connection.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let (classes, messages, _) = failing_scan(&format!("http://{closed}"), &[]);
    assert_eq!(one_class(&classes), "proxy_refused");
    assert!(messages[0].starts_with(&format!("proxy {closed}: connect to {closed}")), "{messages:?}");

    // Wrong credentials: 407 to the CONNECT, and SOCKS5's refusal.
    let http = proxy_to(&server, ProxyProtocol::Http).credentials("scanner", "right").start().unwrap();
    let (classes, messages, r) = failing_scan(&format!("http://scanner:{SECRET}@{}", http.addr), &[]);
    assert_eq!(one_class(&classes), "proxy_auth_required");
    assert!(
        messages[0].contains("CONNECT verify.test:443: answered 407: the credentials were refused"),
        "{messages:?}"
    );
    assert_secret_kept(&r);
    let (classes, messages, _) = failing_scan(&format!("http://{}", http.addr), &[]);
    assert_eq!(one_class(&classes), "proxy_auth_required");
    assert!(messages[0].contains("none given"), "{messages:?}");
    let socks = proxy_to(&server, ProxyProtocol::Socks5).credentials("scanner", "right").start().unwrap();
    let (classes, messages, r) = failing_scan(&format!("socks5h://scanner:{SECRET}@{}", socks.addr), &[]);
    assert_eq!(one_class(&classes), "proxy_auth_required");
    assert!(messages[0].contains("refused the user name and password"), "{messages:?}");
    assert_secret_kept(&r);

    // The CONNECT answered 403; SOCKS5 reply 2 (not allowed by ruleset).
    let forbidding = proxy_to(&server, ProxyProtocol::Http).behaviour(ProxyBehaviour::Refuse(403)).start().unwrap();
    let (classes, messages, _) = failing_scan(&format!("http://{}", forbidding.addr), &[]);
    assert_eq!(one_class(&classes), "proxy_tunnel");
    assert!(messages[0].ends_with("CONNECT verify.test:443: answered 403 Forbidden"), "{messages:?}");
    let ruleset = proxy_to(&server, ProxyProtocol::Socks5).behaviour(ProxyBehaviour::Refuse(2)).start().unwrap();
    let (classes, messages, _) = failing_scan(&format!("socks5h://{}", ruleset.addr), &[]);
    assert_eq!(one_class(&classes), "proxy_socks");
    assert!(messages[0].ends_with("reply 2 (connection not allowed by ruleset)"), "{messages:?}");
    // An unreachable origin is asked once per unit, as for a direct connect failure: verify.test and
    // its MTA-STS policy host (another origin) once each.
    let mut targets: Vec<String> = ruleset.requests().into_iter().map(|q| q.target).collect();
    targets.sort();
    assert_eq!(targets, ["mta-sts.verify.test:443", "verify.test:443"]);

    // A proxy that reads the CONNECT and never answers is bounded by the connect timeout.
    let stalling = proxy_to(&server, ProxyProtocol::Http).behaviour(ProxyBehaviour::Stall).start().unwrap();
    let (classes, messages, _) = failing_scan(&format!("http://{}", stalling.addr), &["--connect-timeout", "1"]);
    assert_eq!(one_class(&classes), "proxy_connect");
    assert!(messages[0].contains("no answer to CONNECT verify.test:443 within 1s"), "{messages:?}");
    assert_eq!(stalling.requests()[0].outcome, "stalled");
}

/// The only class of a `failures_by_class` object.
fn one_class(classes: &Value) -> String {
    let m = classes.as_object().expect("object");
    assert_eq!(m.len(), 1, "{classes}");
    m.keys().next().cloned().unwrap_or_default()
}

#[test]
fn the_environment_names_the_proxy_and_no_proxy_hosts_go_direct() {
    let server = own_server(&fixture_sites());
    let proxy = proxy_to(&server, ProxyProtocol::Http).start().expect("proxy");
    let url = format!("http://{}", proxy.addr);
    let env = [("HTTPS_PROXY", url.clone()), ("http_proxy", url.clone()), ("NO_PROXY", "127.0.0.1".to_string())];
    let direct_target = format!("http://127.0.0.1:{}", server.http_addr.port());
    let args: Vec<String> = ["--allow-private", "--no-verify", "--depth", "0", "--quiet", "--ca-cert"]
        .map(String::from)
        .into_iter()
        .chain([ca_file(&server), "https://verify.test".to_string(), direct_target])
        .collect();
    let r = run(&args, &env);
    assert_eq!(r.code, 0, "{}\n{:?}", r.stderr, summary(&r));
    let log = proxy.requests();
    assert!(
        log.iter().all(|q| q.target == "verify.test:443" || q.target == "mta-sts.verify.test:443"),
        "only the proxied host (and its MTA-STS policy host): {log:?}"
    );
    assert!(!log.is_empty());
    assert!(!served(&server, None, "127.0.0.1").is_empty(), "the NO_PROXY host was asked directly");
    assert!(!served(&server, None, "verify.test").is_empty());
    assert!(
        r.stderr.contains(&format!(
            "requests go through the proxy {url} (from HTTPS_PROXY, NO_PROXY, http_proxy); directly to NO_PROXY \
             hosts (127.0.0.1)"
        )),
        "{}",
        r.stderr
    );
    // --no-proxy: the variables are ignored, nothing reaches the proxy.
    let before = log.len();
    let off: Vec<String> =
        args.iter().filter(|a| *a != "https://verify.test").cloned().chain(["--no-proxy".into()]).collect();
    let r = run(&off, &env);
    assert_eq!(r.code, 1, "the direct site answered, with nothing found: {}", r.stderr);
    assert_eq!(proxy.requests().len(), before, "{}", r.stderr);
    assert!(!r.stderr.contains("through the proxy"), "{}", r.stderr);
}

#[test]
fn resolve_and_connect_to_are_refused_with_a_proxy_that_resolves_names() {
    let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
    let args: Vec<String> =
        ["--proxy", &format!("http://{addr}"), "--resolve", "a.example:443:127.0.0.1", "https://a.example"]
            .map(String::from)
            .to_vec();
    let r = run(&args, &[]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains(
            "--resolve cannot be used with the proxy http://127.0.0.1:9: a http:// proxy resolves names itself"
        ),
        "{}",
        r.stderr
    );
    let r = run(&["--proxy", "socks5://u:p@127.0.0.1:9/x", "https://a.example"].map(String::from), &[]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("\"socks5://***@127.0.0.1:9/x\""), "{}", r.stderr);
}
