//! The engine end to end over the real fetcher (`wellknown-http`) and the loopback fixture server
//! (`wellknown-tests`), on hand-made sites written to a temporary directory: redirects the fetcher
//! does not follow (out of scope, not http(s), unparsable), credentials in a `Location`, the
//! change-password probe's redirect out of scope, and an interrupted verification.
//! Kept as its own test binary: its probes register through `inventory`, which is per binary.

// Linked for its probe registration (`inventory`).
extern crate wellknown_change_password;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use url::Url;
use wellknown_core::probe::fetch_and_interpret;
use wellknown_core::{
    Candidate, CandidateKind, Document, FetchMeta, FetchRequest, FetchResult, Locator, Origin, ProbeContext,
    ProbeRegistration, Report, Scope, Target, WellKnownProbe, inventory,
};
use wellknown_engine::{Engine, InScope, RunPlan, ScanConfig, SystemClock, Transport};
use wellknown_http::{Fetcher, FetcherConfig};
use wellknown_records::Unit;
use wellknown_tests::FixtureServer;

/// Paths every origin is asked for, each its own document; a 2xx body lists URLs (one a line),
/// each a `url` candidate (relation `listed`).
const PAGES: [&str; 6] = ["/oidc", "/mailto", "/ftp", "/bad-port", "/zone-id", "/list"];

struct PagesProbe;

#[async_trait]
impl WellKnownProbe for PagesProbe {
    fn info(&self) -> &'static wellknown_core::ProbeInfo {
        &wellknown_core::ProbeInfo {
            id: "pages",
            suffix: None,
            summary: "test pages",
            spec: "none",
            page: "none",
            codes: &[],
        }
    }
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => PAGES.iter().map(|p| origin.url_for_path(p)).collect(),
            Target::Url { url, .. } => vec![url.clone()],
        }
    }
    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        let mut r = Report::new("pages", &meta.url, "pages");
        for (i, line) in String::from_utf8_lossy(body).lines().enumerate() {
            if let Ok(u) = Url::parse(line.trim()) {
                r.candidate(Candidate::new(
                    CandidateKind::Url,
                    "listed",
                    u.as_str(),
                    Some(Locator::Line(i as u32 + 1)),
                ));
            }
        }
        r
    }
    async fn run(&self, target: &Target, cx: &dyn ProbeContext) -> Vec<Document> {
        let mut docs = Vec::new();
        for url in self.locations(target) {
            docs.push(fetch_and_interpret(self, url, target.role().to_string(), &[], cx).await);
        }
        docs
    }
}

inventory::submit! { ProbeRegistration::new(&PagesProbe) }

/// The engine's transport over the real fetcher (what the command line uses).
struct Http(Fetcher);

#[async_trait]
impl Transport for Http {
    async fn fetch(&self, request: &FetchRequest, in_scope: InScope<'_>) -> FetchResult {
        self.0.fetch(request, in_scope).await
    }
}

/// Writes `files` (path under the root, content) below `root`.
fn write_site(root: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
}

/// r.test: redirects the scan does not follow.
fn redirect_site(root: &Path) {
    write_site(
        root,
        &[
            (
                "r.test/oidc.headers",
                "Status: 302\nLocation: https://user:pass@idp.other.test/.well-known/openid-configuration#frag\n",
            ),
            ("r.test/mailto.headers", "Status: 307\nLocation: mailto:x@other.test\n"),
            ("r.test/ftp.headers", "Status: 301\nLocation: ftp://files.other.test/a.json\n"),
            ("r.test/bad-port.headers", "Status: 302\nLocation: https://[::1]:99999/x\n"),
            ("r.test/zone-id.headers", "Status: 302\nLocation: http://[fe80::1%25eth0]/x\n"),
            ("r.test/.well-known/change-password.headers", "Status: 302\nLocation: https://accounts.other.test/pw\n"),
        ],
    );
}

struct Fixture {
    server: FixtureServer,
    _dir: tempfile::TempDir,
    engine: Arc<Engine>,
}

fn fixture(site: fn(&Path), targets: &[&str], probes: &[&str]) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("sites");
    site(&root);
    let server = FixtureServer::start(&root, true).expect("fixture server");
    let ca = dir.path().join("ca.pem");
    std::fs::write(&ca, server.ca_pem.as_deref().expect("tls")).unwrap();
    let port = server.https_addr.expect("https").port();
    let fetcher = Fetcher::new(FetcherConfig {
        connect_to: vec![format!(":443:127.0.0.1:{port}").parse().unwrap()],
        allow_private: true,
        max_rate_per_host: 0.0,
        max_concurrent_per_host: 8,
        extra_root_certs_pem: vec![ca],
        ..FetcherConfig::default()
    })
    .unwrap();
    let origins: Vec<Origin> = targets.iter().map(|t| Origin::parse_target(t).unwrap()).collect();
    let config = ScanConfig {
        scope: Scope::for_targets(&origins),
        probes: probes.iter().map(|p| p.to_string()).collect(),
        depth: 0,
        vhosts: false,
        ..ScanConfig::default()
    };
    let engine = Arc::new(Engine::new(Arc::new(Http(fetcher)), Arc::new(SystemClock), config).unwrap());
    Fixture { server, _dir: dir, engine }
}

/// Runs the engine on `targets` until done or until `stop`; every record as JSON.
async fn scan(f: &Fixture, targets: &[&str], stop: impl Future<Output = ()> + Send + 'static) -> Vec<Value> {
    let seeds = targets.iter().map(|t| Unit::origin(Origin::parse_target(t).unwrap())).collect();
    let (tx, mut rx) = mpsc::channel(1024);
    let engine = Arc::clone(&f.engine);
    let handle = tokio::spawn(async move { engine.run_until(RunPlan { seeds, ..RunPlan::default() }, tx, stop).await });
    let mut out = Vec::new();
    while let Some(r) = rx.recv().await {
        out.push(serde_json::to_value(&r).unwrap());
    }
    handle.await.unwrap();
    out
}

async fn scan_redirects() -> (Fixture, Vec<Value>) {
    let f = fixture(redirect_site, &["https://r.test"], &["pages", "change-password"]);
    let records = scan(&f, &["https://r.test"], std::future::pending()).await;
    (f, records)
}

fn document<'a>(records: &'a [Value], requested: &str) -> &'a Value {
    records
        .iter()
        .find(|r| r["type"] == "document" && r["requested_url"] == requested)
        .unwrap_or_else(|| panic!("no document {requested}"))
}

fn sightings<'a>(records: &'a [Value], value: &str) -> Vec<&'a Value> {
    records
        .iter()
        .filter(|r| matches!(r["type"].as_str(), Some("candidate" | "evidence")) && r["value"] == value)
        .collect()
}

fn summary(records: &[Value]) -> &Value {
    let s = records.last().unwrap();
    assert_eq!(s["type"], "summary");
    s
}

#[tokio::test]
async fn credentials_in_a_location_are_in_no_record() {
    let (_f, records) = scan_redirects().await;
    let doc = document(&records, "https://r.test/oidc");
    assert_eq!(doc["url"], "https://idp.other.test/.well-known/openid-configuration");
    assert_eq!(doc["failure"]["class"], "out_of_scope");
    assert_eq!(doc["facts"]["credentials_in_location"], json!([0]), "{doc}");
    let c = sightings(&records, "https://idp.other.test/.well-known/openid-configuration");
    assert_eq!(c.len(), 1);
    assert_eq!((&c[0]["relation"], &c[0]["flags"]), (&json!("redirect_location"), &json!(["credentials_in_url"])));
    let all = serde_json::to_string(&records).unwrap();
    assert!(!all.contains("user:pass") && !all.contains("pass@"), "credentials leaked: {all}");
}

#[tokio::test]
async fn redirects_that_cannot_be_followed_are_recorded_alike_and_counted_once() {
    let (f, records) = scan_redirects().await;
    for (path, status) in [("/mailto", 307), ("/ftp", 301), ("/bad-port", 302), ("/zone-id", 302)] {
        let url = format!("https://r.test{path}");
        let doc = document(&records, &url);
        assert_eq!(
            (&doc["status"], &doc["url"], &doc["redirect_chain"], &doc["failure"]["class"]),
            (&json!(status), &json!(url), &json!([]), &json!("invalid_redirect")),
            "{doc}"
        );
    }
    // The ftp target names a host: a relation the origin declares, like a redirect out of scope.
    let ftp = sightings(&records, "ftp://files.other.test/a.json");
    assert_eq!(ftp.len(), 1, "{ftp:?}");
    assert_eq!((&ftp[0]["relation"], &ftp[0]["in_scope"]), (&json!("redirect_location"), &json!(false)));
    assert_eq!(
        (&ftp[0]["evidence"]["document_url"], &ftp[0]["evidence"]["status"], &ftp[0]["evidence"]["locator"]),
        (&json!("https://r.test/ftp"), &json!(301), &json!({"redirect": 0}))
    );
    assert!(sightings(&records, "mailto:x@other.test").is_empty(), "no host: only the failure message names it");
    // Each document in at most one of the counters; all four invalid redirects are fetch failures.
    let s = summary(&records);
    let docs: Vec<&Value> = records.iter().filter(|r| r["type"] == "document").collect();
    let out_of_scope = docs.iter().filter(|d| d["failure"]["class"] == "out_of_scope").count();
    let failed = docs.iter().filter(|d| d["failure"].is_object() && d["failure"]["class"] != "out_of_scope").count();
    assert_eq!((out_of_scope, failed), (2, 4), "{docs:?}");
    assert_eq!((&s["redirected_out_of_scope"], &s["fetch_failures"]), (&json!(2), &json!(4)), "{s}");
    assert_eq!(&s["reachable"], &json!(1));
    // Nothing was requested elsewhere.
    assert!(f.server.requests().iter().all(|r| r.host == "r.test"));
}

#[tokio::test]
async fn a_change_password_redirect_out_of_scope_names_the_document_that_redirected() {
    let (_f, records) = scan_redirects().await;
    let evidence = json!({
        "document_url": "https://r.test/.well-known/change-password",
        "probe": "change-password",
        "status": 302,
        "locator": {"redirect": 0},
    });
    let seen = sightings(&records, "https://accounts.other.test/pw");
    let relations: Vec<(&Value, &Value)> = seen.iter().map(|r| (&r["type"], &r["relation"])).collect();
    assert_eq!(
        relations,
        [(&json!("candidate"), &json!("change_password")), (&json!("evidence"), &json!("redirect_location"))]
    );
    for r in seen {
        let mut e = r["evidence"].clone();
        e.as_object_mut().unwrap().remove("fetched_at");
        assert_eq!(e, evidence, "{r}");
    }
}

/// v.test lists four URLs; verifying the first stalls, the other three answer at once.
fn stalling_site(root: &Path) {
    write_site(
        root,
        &[
            ("v.test/list", "https://v.test/stall\nhttps://v.test/f1\nhttps://v.test/f2\nhttps://v.test/f3\n"),
            ("v.test/stall.headers", "X-Fixture-Stall: 30\n"),
            ("v.test/f1", "1"),
            ("v.test/f2", "2"),
            ("v.test/f3", "3"),
        ],
    );
}

#[tokio::test]
async fn an_interrupted_scan_counts_the_verification_requests_answered_and_keeps_their_verdicts() {
    let f = fixture(stalling_site, &["https://v.test"], &["pages"]);
    let log = f.server.log();
    let heads = move || log.lock().unwrap().iter().filter(|r| r.method == "HEAD").count();
    let answered = heads.clone();
    let stop = async move {
        while answered() < 3 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // The three answers reach the scan; the stalled request is still in flight.
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let records = scan(&f, &["https://v.test"], stop).await;
    let s = summary(&records);
    assert_eq!(s["interrupted"], true);
    assert_eq!(heads(), 3, "the stalled HEAD never finished");
    assert_eq!((&s["verification_requests"], &s["verifications"]), (&json!(3), &json!(3)), "{s}");
    // The verdicts reached are kept, though the first URL's (stalled) verdict never came.
    let verdicts: Vec<(&Value, &Value)> =
        records.iter().filter(|r| r["type"] == "verification").map(|v| (&v["value"], &v["status"])).collect();
    assert_eq!(
        verdicts,
        [
            (&json!("https://v.test/f1"), &json!("alive")),
            (&json!("https://v.test/f2"), &json!("alive")),
            (&json!("https://v.test/f3"), &json!("alive"))
        ]
    );
    assert!(!records.iter().any(|r| r["type"] == "origin"), "the unit was in flight");
}
