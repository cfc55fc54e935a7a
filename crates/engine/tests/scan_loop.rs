//! The scan loop over an in-memory transport: follow-ups, visited set, scope, evidence, hop limit.
//! Kept as its own test binary: its probes register through `inventory`, which is per binary.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::mpsc;
use url::Url;
use wellknown_core::{
    Candidate, CandidateKind, FetchMeta, FetchRequest, FetchResult, Locator, Origin, ProbeRegistration, Report, Scope,
    Target, Timestamp, WellKnownProbe, inventory,
};
use wellknown_engine::{Clock, Engine, ScanConfig, Transport};
use wellknown_records::Record;

/// A document listing links: each line `probe url` becomes a follow-up and a `url` candidate.
struct LinksProbe;

impl WellKnownProbe for LinksProbe {
    fn info(&self) -> &'static wellknown_core::ProbeInfo {
        &wellknown_core::ProbeInfo {
            id: "links",
            suffix: None,
            summary: "test probe",
            spec: "none",
            page: "none",
            codes: &[],
        }
    }
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => vec![origin.url_for_path("/links.txt")],
            Target::Url { url, .. } => vec![url.clone()],
        }
    }
    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        let mut r = Report::new("links", &meta.url, "links");
        for (i, line) in String::from_utf8_lossy(body).lines().enumerate() {
            if let Ok(u) = Url::parse(line.trim()) {
                let c = Candidate::new(CandidateKind::Url, "link", u.as_str(), Some(Locator::Line(i as u32 + 1)));
                r.candidate(c.with_hint("from", meta.url.path()));
                r.follow_up("links", u, "link");
            } else if !line.trim().is_empty() {
                r.warn("not_a_url", format!("not a URL: {line}"), Some(Locator::Line(i as u32 + 1)));
            }
        }
        r
    }
}

inventory::submit! { ProbeRegistration::new(&LinksProbe) }

#[derive(Default)]
struct FakeNet {
    pages: HashMap<String, String>,
    requested: Mutex<Vec<String>>,
    /// URLs answered `429` + `rate_limited` (Retry-After 3600) the first time they are asked.
    limited_once: Mutex<Vec<String>>,
}

#[async_trait]
impl Transport for FakeNet {
    async fn fetch(
        &self,
        req: &FetchRequest,
        in_scope: &(dyn for<'u> Fn(&'u Url) -> bool + Send + Sync),
    ) -> FetchResult {
        assert!(in_scope(&req.url), "engine handed an out-of-scope URL to the transport: {}", req.url);
        self.requested.lock().unwrap().push(req.url.to_string());
        let mut meta = FetchMeta::synthetic(req.url.clone(), Some("text/plain"), clock_now());
        let mut limited = self.limited_once.lock().unwrap();
        if let Some(i) = limited.iter().position(|u| u == req.url.as_str()) {
            limited.remove(i);
            meta.status = Some(429);
            meta.retry_after_secs = Some(3600);
            meta.failure = Some(wellknown_core::FetchFailure {
                class: wellknown_core::FailureClass::RateLimited,
                message: "Retry-After 3600 s".into(),
            });
            return FetchResult { meta, body: Vec::new() };
        }
        drop(limited);
        match self.pages.get(req.url.as_str()) {
            Some(body) => FetchResult { meta, body: body.clone().into_bytes() },
            None => {
                meta.status = Some(404);
                FetchResult { meta, body: Vec::new() }
            }
        }
    }
}

fn clock_now() -> Timestamp {
    "2026-12-01T00:00:00Z".parse().unwrap()
}

struct Fixed;
impl Clock for Fixed {
    fn now(&self) -> Timestamp {
        clock_now()
    }
}

async fn run(net: Arc<FakeNet>, targets: &[&str], config: ScanConfig) -> Vec<Record> {
    let engine = Arc::new(Engine::new(net, Arc::new(Fixed), config).unwrap());
    let (tx, mut rx) = mpsc::channel(64);
    let targets = targets.iter().map(|t| Origin::parse_target(t).unwrap()).collect();
    let handle = tokio::spawn(async move { engine.scan(targets, tx).await });
    let mut out = Vec::new();
    while let Some(r) = rx.recv().await {
        out.push(r);
    }
    handle.await.unwrap();
    out
}

/// The requests, calibration requests (`calibrate.rs`: a random path under `/` and under
/// `/.well-known/` per origin that answered 2xx) counted apart.
fn documents_and_calibrations(requested: &[String]) -> (Vec<String>, usize) {
    let (cal, docs): (Vec<_>, Vec<_>) = requested.iter().cloned().partition(|u| u.contains("/wellknown-calibration-"));
    (docs, cal.len())
}

fn net() -> Arc<FakeNet> {
    let mut pages = HashMap::new();
    pages.insert(
        "https://a.example/links.txt".to_string(),
        "https://a.example/one\nhttps://b.a.example/two\nhttps://out.example/three\nnonsense\n".to_string(),
    );
    pages.insert(
        "https://a.example/one".to_string(),
        "https://a.example/links.txt\nhttps://b.a.example/two\n".to_string(),
    );
    pages.insert("https://b.a.example/two".to_string(), "https://a.example/deeper\n".to_string());
    Arc::new(FakeNet { pages, ..FakeNet::default() })
}

#[tokio::test]
async fn follows_links_in_scope_once_and_records_evidence() {
    let net = net();
    let targets = [Origin::parse_target("a.example").unwrap()];
    // Follow-ups only: no verification, no feedback (tests/verify_feedback.rs covers those).
    let config = ScanConfig { scope: Scope::for_targets(&targets), verify: false, depth: 0, ..ScanConfig::default() };
    let records = run(Arc::clone(&net), &["a.example"], config).await;
    let (requested, calibrations) = documents_and_calibrations(&net.requested.lock().unwrap());
    assert_eq!(
        requested,
        ["https://a.example/links.txt", "https://a.example/one", "https://b.a.example/two", "https://a.example/deeper"]
    );
    assert_eq!(calibrations, 2, "a.example answered 2xx: `/` and `/.well-known/` calibrated once");
    // out.example is recorded as a candidate, out of scope, and never requested.
    let out = records
        .iter()
        .find_map(|r| match r {
            Record::Candidate(c) if c.value == "https://out.example/three" => Some(c),
            _ => None,
        })
        .expect("out-of-scope candidate recorded");
    assert_eq!(out.in_scope, Some(false));
    assert!(!requested.iter().any(|u| u.contains("out.example")));
    // b.a.example/two is declared twice: one candidate record, one evidence record.
    let cands = records.iter().filter(|r| matches!(r, Record::Candidate(c) if c.value.ends_with("/two"))).count();
    let evid = records.iter().filter(|r| matches!(r, Record::Evidence(e) if e.value.ends_with("/two"))).count();
    assert_eq!((cands, evid), (1, 1));
    // The further sighting keeps what its own document says of the value.
    let hints: Vec<_> = records
        .iter()
        .filter_map(|r| match r {
            Record::Candidate(c) if c.value.ends_with("/two") => Some(("candidate", c.hints.clone())),
            Record::Evidence(e) if e.value.ends_with("/two") => Some(("evidence", e.hints.clone())),
            _ => None,
        })
        .map(|(k, h)| (k, h.get("from").cloned().unwrap_or_default()))
        .collect();
    assert_eq!(hints, [("candidate", "/links.txt".to_string()), ("evidence", "/one".to_string())]);
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.targets, s.reachable, s.documents, s.documents_found), (1, 1, 4, 3));
    assert_eq!(s.warnings, 1);
}

#[tokio::test]
async fn hop_limit_stops_following() {
    let net = net();
    let targets = [Origin::parse_target("a.example").unwrap()];
    let config = ScanConfig {
        scope: Scope::for_targets(&targets),
        max_follow_up_hops: 1,
        verify: false,
        depth: 0,
        ..ScanConfig::default()
    };
    let records = run(Arc::clone(&net), &["a.example"], config).await;
    let (requested, _) = documents_and_calibrations(&net.requested.lock().unwrap());
    assert_eq!(requested, ["https://a.example/links.txt", "https://a.example/one", "https://b.a.example/two"]);
    // The hop limit stopped `https://a.example/deeper` (and links.txt again, a visit already made,
    // is not counted): reported, not dropped.
    let budgets: Vec<_> = records
        .iter()
        .filter_map(|r| match r {
            Record::Budget(b) => Some((b.budget, b.limit, b.skipped_what, b.skipped)),
            _ => None,
        })
        .collect();
    assert_eq!(budgets, [("follow_up_hops", 1, "follow_ups", 1)]);
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!(s.budgets.get("follow_up_hops"), Some(&1));
    assert_eq!(s.units_over_budget, 1);
}

#[tokio::test]
async fn rate_limited_documents_are_recorded_then_asked_again_at_the_end_with_retry_rate_limited() {
    let net = net_with_limit();
    let targets = [Origin::parse_target("a.example").unwrap()];
    let config = ScanConfig {
        scope: Scope::for_targets(&targets),
        verify: false,
        depth: 0,
        catch_all_check: false,
        retry_rate_limited: true,
        ..ScanConfig::default()
    };
    let records = run(Arc::clone(&net), &["a.example"], config).await;
    let one: Vec<_> = records
        .iter()
        .filter_map(|r| match r {
            Record::Document(d) if d.requested_url == "https://a.example/one" => {
                Some((d.status, d.failure.as_ref().map(|f| f.class.as_str()), d.retry_after_secs))
            }
            _ => None,
        })
        .collect();
    assert_eq!(one, [(Some(429), Some("rate_limited"), Some(3600)), (Some(200), None, None)]);
    // Asked again as a unit of its own, after the first unit's `origin` record.
    let origins = records.iter().filter(|r| matches!(r, Record::Origin(o) if o.origin == "https://a.example")).count();
    assert_eq!(origins, 2);
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.documents_retried, s.failures_by_class.get("rate_limited")), (1, Some(&1)));
    let asked = net.requested.lock().unwrap().iter().filter(|u| *u == "https://a.example/one").count();
    assert_eq!(asked, 2);

    // Without the flag: recorded once, never asked again.
    let net = net_with_limit();
    let config = ScanConfig { scope: Scope::for_targets(&targets), verify: false, depth: 0, ..ScanConfig::default() };
    let records = run(Arc::clone(&net), &["a.example"], config).await;
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!(s.documents_retried, 0);
    assert_eq!(net.requested.lock().unwrap().iter().filter(|u| *u == "https://a.example/one").count(), 1);
}

fn net_with_limit() -> Arc<FakeNet> {
    let net = net();
    net.limited_once.lock().unwrap().push("https://a.example/one".into());
    net
}

#[tokio::test]
async fn target_outside_scope_is_never_requested() {
    let net = net();
    let config = ScanConfig { scope: Scope::parse(&["other.example"]).unwrap(), ..ScanConfig::default() };
    let records = run(Arc::clone(&net), &["a.example"], config).await;
    assert!(net.requested.lock().unwrap().is_empty());
    let doc = records.iter().find_map(|r| match r {
        Record::Document(d) => Some(d),
        _ => None,
    });
    assert_eq!(doc.and_then(|d| d.failure.as_ref()).map(|f| f.class.as_str()), Some("out_of_scope"));
}

#[test]
fn unknown_probe_is_an_error() {
    let cfg = ScanConfig { probes: vec!["nope".into()], ..ScanConfig::default() };
    let err = Engine::new(net(), Arc::new(Fixed), cfg).err().unwrap();
    assert!(err.contains("unknown probe \"nope\""), "{err}");
}
