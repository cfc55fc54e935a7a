//! Verification, feedback into the frontier, virtual hosts, `--obey-robots` and resumed plans, over
//! an in-memory network.
//! Kept as its own test binary: its probes register through `inventory`, which is per binary.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::mpsc;
use url::Url;
use wellknown_core::{
    Candidate, CandidateKind, FailureClass, FetchFailure, FetchMeta, FetchRequest, FetchResult, Host, Locator, Method,
    Origin, ProbeRegistration, RedirectHop, Report, Scope, Target, Timestamp, WellKnownProbe, inventory,
};
use wellknown_engine::{Clock, Engine, InScope, Revealed, RobotsGate, RobotsRules, RunPlan, ScanConfig, Transport};
use wellknown_records::{Record, Unit, UnitKind, VerifyStatus};

/// `/decl.txt`: each line `KIND VALUE` becomes a candidate of that kind; `follow URL` also asks for
/// the URL to be read as a `decl` document.
struct DeclProbe;

impl WellKnownProbe for DeclProbe {
    fn info(&self) -> &'static wellknown_core::ProbeInfo {
        &wellknown_core::ProbeInfo {
            id: "decl",
            suffix: None,
            summary: "test declarations",
            spec: "none",
            page: "none",
            codes: &[],
        }
    }
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => vec![origin.url_for_path("/decl.txt")],
            Target::Url { url, .. } => vec![url.clone()],
        }
    }
    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        let mut r = Report::new("decl", &meta.url, "decl");
        for (i, line) in String::from_utf8_lossy(body).lines().enumerate() {
            let Some((k, v)) = line.split_once(' ') else { continue };
            let loc = Some(Locator::Line(i as u32 + 1));
            let kind = match k {
                "follow" => {
                    if let Ok(u) = Url::parse(v) {
                        r.follow_up("decl", u, "link");
                    }
                    CandidateKind::Url
                }
                other => match CandidateKind::parse(other) {
                    Some(kind) => kind,
                    None => continue,
                },
            };
            r.candidate(Candidate::new(kind, "declares", v, loc));
        }
        r
    }
}

/// Stands in for the robots probe (declared `First`, as the robots plugin is).
struct FakeRobots;

impl WellKnownProbe for FakeRobots {
    fn info(&self) -> &'static wellknown_core::ProbeInfo {
        &wellknown_core::ProbeInfo {
            id: "robots",
            suffix: None,
            summary: "test robots",
            spec: "none",
            page: "none",
            codes: &[],
        }
    }
    fn origin_order(&self) -> wellknown_core::OriginOrder {
        wellknown_core::OriginOrder::First
    }
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => vec![origin.robots_url()],
            Target::Url { url, .. } => vec![url.clone()],
        }
    }
    fn interpret(&self, _body: &[u8], meta: &FetchMeta) -> Report {
        Report::new("robots", &meta.url, "robots")
    }
}

inventory::submit! { ProbeRegistration::new(&DeclProbe) }
inventory::submit! { ProbeRegistration::new(&FakeRobots) }

#[derive(Clone)]
struct Page {
    status: u16,
    body: String,
    location: Option<String>,
    head_status: Option<u16>,
}

fn page(status: u16, body: &str) -> Page {
    Page { status, body: body.to_string(), location: None, head_status: None }
}

/// One request the fake network saw: method, URL, forced address.
type Seen = (Method, String, Option<IpAddr>);

#[derive(Default)]
struct FakeNet {
    pages: HashMap<String, Page>,
    /// Pages answered only through a virtual-host request to this address.
    vhost_pages: HashMap<(IpAddr, String), Page>,
    /// Hosts that do not resolve.
    nxdomain: HashSet<String>,
    /// Hosts every request to which is sent (logged) and fails with this class, without a response.
    down: HashMap<String, FailureClass>,
    addresses: HashMap<String, Vec<IpAddr>>,
    log: Mutex<Vec<Seen>>,
    delays: Mutex<Vec<(String, Duration)>>,
}

fn now() -> Timestamp {
    "2026-12-01T00:00:00Z".parse().unwrap()
}

impl FakeNet {
    fn answer(&self, req: &FetchRequest, in_scope: InScope<'_>, via: Option<IpAddr>) -> FetchResult {
        assert!(in_scope(&req.url), "out-of-scope URL handed to the transport: {}", req.url);
        let mut meta = FetchMeta::synthetic(req.url.clone(), Some("text/plain"), now());
        let mut url = req.url.clone();
        loop {
            let host = url.host_str().unwrap_or_default().to_string();
            if via.is_none() && self.nxdomain.contains(&host) {
                meta.status = None;
                meta.url = url;
                meta.failure = Some(FetchFailure { class: FailureClass::DnsNxdomain, message: "nx".into() });
                return FetchResult { meta, body: Vec::new() };
            }
            self.log.lock().unwrap().push((req.method, url.to_string(), via));
            if let Some(class) = self.down.get(&host).filter(|_| via.is_none()) {
                meta.status = None;
                meta.url = url;
                meta.failure = Some(FetchFailure { class: *class, message: format!("{host} is down") });
                return FetchResult { meta, body: Vec::new() };
            }
            let found = match via {
                Some(ip) => self.vhost_pages.get(&(ip, url.to_string())).cloned(),
                None => self.pages.get(url.as_str()).cloned(),
            };
            let p = found.unwrap_or_else(|| page(404, ""));
            let status = if req.method == Method::Head { p.head_status.unwrap_or(p.status) } else { p.status };
            if (300..400).contains(&status) && req.policy.follow_redirects {
                let next = url.join(p.location.as_deref().unwrap_or("/")).unwrap();
                meta.redirect_chain.push(RedirectHop { url: url.clone(), status });
                if !in_scope(&next) {
                    meta.status = None;
                    meta.url = next;
                    meta.failure = Some(FetchFailure { class: FailureClass::OutOfScope, message: "hop".into() });
                    return FetchResult { meta, body: Vec::new() };
                }
                url = next;
                continue;
            }
            meta.url = url;
            meta.status = Some(status);
            let body = if req.method == Method::Head { Vec::new() } else { p.body.into_bytes() };
            return FetchResult { meta, body };
        }
    }

    fn requested(&self) -> Vec<(Method, String)> {
        self.log.lock().unwrap().iter().map(|(m, u, _)| (*m, u.clone())).collect()
    }

    fn was_requested(&self, url: &str) -> bool {
        self.log.lock().unwrap().iter().any(|(_, u, _)| u == url)
    }
}

#[async_trait]
impl Transport for FakeNet {
    async fn fetch(&self, req: &FetchRequest, in_scope: InScope<'_>) -> FetchResult {
        self.answer(req, in_scope, None)
    }

    async fn fetch_vhost(&self, req: &FetchRequest, in_scope: InScope<'_>, address: IpAddr) -> FetchResult {
        self.answer(req, in_scope, Some(address))
    }

    async fn resolve(&self, host: &Host, _port: u16) -> Result<Vec<IpAddr>, FetchFailure> {
        self.addresses
            .get(&host.name())
            .cloned()
            .ok_or(FetchFailure { class: FailureClass::DnsNxdomain, message: "nx".into() })
    }

    fn set_host_delay(&self, host: &str, delay: Duration) {
        self.delays.lock().unwrap().push((host.to_string(), delay));
    }
}

struct Fixed;
impl Clock for Fixed {
    fn now(&self) -> Timestamp {
        now()
    }
}

fn config(targets: &[&str]) -> ScanConfig {
    let origins: Vec<Origin> = targets.iter().map(|t| Origin::parse_target(t).unwrap()).collect();
    ScanConfig { scope: Scope::for_targets(&origins), ..ScanConfig::default() }
}

async fn run_plan(net: Arc<FakeNet>, plan: RunPlan, config: ScanConfig) -> Vec<Record> {
    let engine = Arc::new(Engine::new(net, Arc::new(Fixed), config).unwrap());
    let (tx, mut rx) = mpsc::channel(64);
    let handle = tokio::spawn(async move { engine.run(plan, tx).await });
    let mut out = Vec::new();
    while let Some(r) = rx.recv().await {
        out.push(r);
    }
    handle.await.unwrap();
    out
}

async fn run(net: Arc<FakeNet>, targets: &[&str], config: ScanConfig) -> Vec<Record> {
    let seeds = targets.iter().map(|t| Unit::origin(Origin::parse_target(t).unwrap())).collect();
    run_plan(net, RunPlan { seeds, ..RunPlan::default() }, config).await
}

/// Verdict, HTTP status, redirect target, source.
type Verdict = (VerifyStatus, Option<u16>, Option<String>, &'static str);

fn verdicts(records: &[Record]) -> HashMap<String, Verdict> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Verification(v) => {
                Some((v.value.clone(), (v.status, v.http_status, v.target.clone(), v.source.as_str())))
            }
            _ => None,
        })
        .collect()
}

fn inventory_actions(records: &[Record]) -> Vec<(String, &'static str)> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Inventory(i) => Some((i.value.clone(), i.action.as_str())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn candidate_urls_get_verdicts() {
    let mut net = FakeNet::default();
    let decl = "url https://a.example/alive\nurl https://a.example/gone\nurl https://a.example/auth\n\
                url https://a.example/moved\nurl https://a.example/nohead\nurl https://out.example/x\n\
                sitemap https://a.example/s.xml\nendpoint https://nx.a.example/token\n\
                follow https://a.example/doc2\npath /not-a-url\n";
    net.pages.insert("https://a.example/decl.txt".into(), page(200, decl));
    net.pages.insert("https://a.example/alive".into(), page(200, "hi"));
    net.pages.insert("https://a.example/auth".into(), page(401, ""));
    net.pages.insert("https://a.example/moved".into(), Page { location: Some("/alive".into()), ..page(301, "") });
    net.pages.insert("https://a.example/nohead".into(), Page { head_status: Some(405), ..page(200, "x") });
    net.pages.insert("https://a.example/s.xml".into(), page(410, ""));
    net.pages.insert("https://a.example/doc2".into(), page(200, ""));
    net.nxdomain.insert("nx.a.example".into());
    let net = Arc::new(net);
    let cfg = ScanConfig { depth: 0, ..config(&["a.example"]) };
    let records = run(Arc::clone(&net), &["a.example"], cfg).await;
    let v = verdicts(&records);
    assert_eq!(v["https://a.example/alive"], (VerifyStatus::Alive, Some(200), None, "request"));
    assert_eq!(v["https://a.example/gone"], (VerifyStatus::Gone, Some(404), None, "request"));
    assert_eq!(v["https://a.example/auth"], (VerifyStatus::AuthRequired, Some(401), None, "request"));
    assert_eq!(
        v["https://a.example/moved"],
        (VerifyStatus::Redirect, Some(200), Some("https://a.example/alive".into()), "request")
    );
    assert_eq!(v["https://a.example/nohead"], (VerifyStatus::Alive, Some(200), None, "request"));
    assert_eq!(v["https://a.example/s.xml"], (VerifyStatus::Gone, Some(410), None, "request"));
    assert!(!v.contains_key("https://out.example/x"), "out of scope: the candidate record says so, no verdict");
    assert_eq!(v["https://nx.a.example/token"].0, VerifyStatus::Dns);
    // doc2 was read as a document: that fetch is the verdict, no HEAD.
    assert_eq!(v["https://a.example/doc2"], (VerifyStatus::Alive, Some(200), None, "document"));
    assert_eq!(v.len(), 8, "paths are not verified: {v:?}");
    let requested = net.requested();
    assert!(requested.contains(&(Method::Head, "https://a.example/nohead".into())));
    assert!(requested.contains(&(Method::Get, "https://a.example/nohead".into())), "GET after 405");
    assert!(!requested.contains(&(Method::Head, "https://a.example/doc2".into())));
    assert!(!net.was_requested("https://out.example/x"));
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!(s.verifications, 8);
    assert_eq!(s.verification_requests, 8, "7 HEADs (nx.a.example counts: it was attempted) + 1 GET");
    // The unit's origin record comes after its verification records.
    let last_verification = records.iter().rposition(|r| matches!(r, Record::Verification(_))).unwrap();
    let origin = records.iter().position(|r| matches!(r, Record::Origin(_))).unwrap();
    assert!(last_verification < origin);
}

#[tokio::test]
async fn a_verification_refused_by_the_private_address_rule_is_not_a_failed_request() {
    let mut net = FakeNet::default();
    net.pages.insert("https://a.example/decl.txt".into(), page(200, "url https://priv.a.example/c\n"));
    // The transport refuses the host before sending (its only address is private).
    net.down.insert("priv.a.example".into(), FailureClass::PrivateAddress);
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], ScanConfig { depth: 0, ..config(&["a.example"]) }).await;
    let v: Vec<&wellknown_records::VerificationRecord> = records
        .iter()
        .filter_map(|r| match r {
            Record::Verification(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(v.len(), 1);
    assert_eq!(
        (v[0].status, v[0].http_status, v[0].method, v[0].source.as_str()),
        (VerifyStatus::PrivateAddress, None, None, "none")
    );
    assert_eq!(v[0].failure.as_ref().map(|f| f.class), Some(FailureClass::PrivateAddress));
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.verifications, s.verification_requests), (1, 0), "nothing was sent");
}

#[tokio::test]
async fn a_redirect_into_a_private_address_is_recorded_never_requested_nor_scanned() {
    let mut net = FakeNet::default();
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        Page { location: Some("http://meta.a.example/latest/".into()), ..page(301, "") },
    );
    // The redirect target resolves only to a private address: refused before sending.
    net.down.insert("meta.a.example".into(), FailureClass::PrivateAddress);
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], ScanConfig { depth: 1, ..config(&["a.example"]) }).await;
    let c = records
        .iter()
        .find_map(|r| match r {
            Record::Candidate(c) if c.relation == wellknown_engine::REDIRECT_RELATION => Some(c.clone()),
            _ => None,
        })
        .expect("redirect_location candidate");
    assert_eq!(c.value, "http://meta.a.example/latest/");
    assert_eq!(c.flags, [wellknown_engine::PRIVATE_ADDRESS_FLAG]);
    assert_eq!((c.evidence.document_url.as_str(), c.evidence.status), ("https://a.example/decl.txt", Some(301)));
    assert!(!verdicts(&records).contains_key("http://meta.a.example/latest/"), "not verified");
    assert!(inventory_actions(&records).is_empty(), "not scanned as a unit: {:?}", inventory_actions(&records));
    let origin = records
        .iter()
        .find_map(|r| match r {
            Record::Origin(o) => Some(o.clone()),
            _ => None,
        })
        .unwrap();
    assert!(origin.reachable, "the redirect was an answer");
    assert!(origin.failures.is_empty(), "{origin:?}");
    // An answer, counted apart: not a fetch failure (robots.txt answered 404).
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!(
        (s.documents, s.redirected_to_private, s.redirected_out_of_scope, s.fetch_failures, s.reachable, s.unreachable),
        (2, 1, 0, 0, 1, 0)
    );
}

#[tokio::test]
async fn a_url_declared_twice_and_fetched_by_another_unit_counts_once_elsewhere() {
    let mut net = FakeNet::default();
    net.pages.insert("https://a.example/decl.txt".into(), page(200, "follow https://a.example/shared.txt\n"));
    net.pages.insert("https://a.example/shared.txt".into(), page(200, ""));
    // b.example declares the URL a.example's unit already fetched, twice.
    net.pages.insert(
        "https://b.example/decl.txt".into(),
        page(200, "follow https://a.example/shared.txt\nfollow https://a.example/shared.txt\n"),
    );
    let net = Arc::new(net);
    // One unit at a time: a.example's unit fetches the shared URL first.
    let config = ScanConfig { concurrency: 1, verify: false, ..config(&["a.example", "b.example"]) };
    let records = run(Arc::clone(&net), &["a.example", "b.example"], config).await;
    let fetched = net.requested().iter().filter(|(_, u)| u == "https://a.example/shared.txt").count();
    assert_eq!(fetched, 1, "fetched once in the scan");
    let units: HashMap<String, (bool, usize, usize)> = records
        .iter()
        .filter_map(|r| match r {
            Record::Origin(o) => Some((o.origin.clone(), (o.reachable, o.documents, o.documents_elsewhere))),
            _ => None,
        })
        .collect();
    // Documents: robots.txt, decl.txt (and a.example's shared.txt).
    assert_eq!(units["https://a.example"], (true, 3, 0));
    assert_eq!(units["https://b.example"], (true, 2, 1), "one document elsewhere, however often declared");
}

#[tokio::test]
async fn verification_can_be_turned_off_and_is_bounded() {
    let mut net = FakeNet::default();
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        page(200, "url https://a.example/1\nurl https://a.example/2\nurl https://a.example/3\n"),
    );
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], ScanConfig { verify: false, ..config(&["a.example"]) }).await;
    assert!(verdicts(&records).is_empty());
    assert!(!net.was_requested("https://a.example/1"));

    let cfg = ScanConfig { max_verifications_per_unit: 2, ..config(&["a.example"]) };
    let records = run(Arc::clone(&net), &["a.example"], cfg).await;
    let v = verdicts(&records);
    assert_eq!(v["https://a.example/1"].0, VerifyStatus::Gone);
    assert_eq!(v["https://a.example/2"].0, VerifyStatus::Gone);
    assert!(!v.contains_key("https://a.example/3"), "over the budget: no request, no record");
    let skipped = records.iter().find_map(|r| match r {
        Record::Origin(o) => Some(o.verification_skipped),
        _ => None,
    });
    assert_eq!(skipped, Some(1));
    let Some(Record::Summary(s)) = records.last() else { panic!() };
    assert_eq!(s.verifications_skipped, 1);
}

fn feedback_net() -> FakeNet {
    let mut net = FakeNet::default();
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        page(200, "endpoint https://api.a.example/token\nhost other.example\n"),
    );
    net.pages.insert("https://api.a.example/decl.txt".into(), page(200, "url https://deep.a.example/x\n"));
    net.pages.insert("https://api.a.example/token".into(), page(200, ""));
    net
}

#[tokio::test]
async fn revealed_origins_are_scanned_up_to_the_depth() {
    let net = Arc::new(feedback_net());
    let records = run(Arc::clone(&net), &["a.example"], config(&["a.example"])).await;
    assert!(net.was_requested("https://api.a.example/decl.txt"), "depth 1 scans the endpoint's origin");
    assert!(net.was_requested("https://api.a.example/robots.txt"));
    assert!(!net.was_requested("https://deep.a.example/decl.txt"), "depth 2 is beyond --depth 1");
    assert!(!net.requested().iter().any(|(_, u)| u.contains("other.example")), "out of scope: never requested");
    let actions = inventory_actions(&records);
    assert!(actions.contains(&("https://api.a.example".into(), "queued")), "{actions:?}");
    assert!(actions.contains(&("https://other.example".into(), "out_of_scope")), "{actions:?}");
    assert!(actions.contains(&("https://deep.a.example".into(), "beyond_depth")), "{actions:?}");
    let api = records
        .iter()
        .find_map(|r| match r {
            Record::Origin(o) if o.origin == "https://api.a.example" => Some(o.clone()),
            _ => None,
        })
        .expect("origin record of the revealed origin");
    assert_eq!((api.depth, api.unit), (1, UnitKind::Origin));
    let Some(Record::Summary(s)) = records.last() else { panic!() };
    assert_eq!((s.targets, s.units, s.revealed), (1, 2, 3));

    let net = Arc::new(feedback_net());
    let records = run(Arc::clone(&net), &["a.example"], ScanConfig { depth: 0, ..config(&["a.example"]) }).await;
    assert!(!net.was_requested("https://api.a.example/decl.txt"), "depth 0 scans the targets only");
    assert!(net.was_requested("https://api.a.example/token"), "the endpoint itself is still verified");
    assert!(inventory_actions(&records).contains(&("https://api.a.example".into(), "beyond_depth")));
}

#[tokio::test]
async fn a_resumed_plan_skips_finished_units() {
    let net = Arc::new(feedback_net());
    let plan = RunPlan {
        seeds: vec![Unit::origin(Origin::parse_target("a.example").unwrap())],
        done: vec![(UnitKind::Origin, "https://api.a.example".to_string())],
        ..RunPlan::default()
    };
    let records = run_plan(Arc::clone(&net), plan, config(&["a.example"])).await;
    assert!(!net.was_requested("https://api.a.example/decl.txt"), "finished units are not scanned again");
    assert!(!inventory_actions(&records).iter().any(|(v, _)| v == "https://api.a.example"));
}

#[tokio::test]
async fn a_resumed_unit_reports_the_inventory_an_earlier_run_recorded() {
    // The earlier run scanned api.a.example, revealed by a.example, which was interrupted; it had also
    // recorded other.example, first revealed by b.example (finished). a.example runs again: it
    // reports api.a.example again, as an uninterrupted scan would, without scanning it again, and
    // not other.example, whose record belongs to b.example.
    let net = Arc::new(feedback_net());
    let api = (UnitKind::Origin, "https://api.a.example".to_string());
    let other = (UnitKind::Origin, "https://other.example".to_string());
    let b = (UnitKind::Origin, "https://b.example".to_string());
    let revealed = |(kind, value): (UnitKind, String), by: &str| Revealed { kind, value, revealed_by: by.into() };
    let plan = RunPlan {
        seeds: vec![Unit::origin(Origin::parse_target("a.example").unwrap())],
        done: vec![api.clone(), other.clone(), b],
        revealed: vec![revealed(api, "https://a.example"), revealed(other, "https://b.example")],
    };
    let records = run_plan(Arc::clone(&net), plan, config(&["a.example", "b.example"])).await;
    assert!(!net.was_requested("https://api.a.example/decl.txt"), "finished units are not scanned again");
    let actions = inventory_actions(&records);
    assert_eq!(actions, [("https://api.a.example".to_string(), "queued")], "reported once, by its revealer");
    let units: Vec<String> = records
        .iter()
        .filter_map(|r| match r {
            Record::Origin(o) => Some(o.origin.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(units, ["https://a.example"], "api.a.example is not queued again");
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.units, s.revealed), (1, 1));
}

#[tokio::test]
async fn a_redirect_out_of_scope_is_a_candidate_with_its_evidence() {
    let mut net = FakeNet::default();
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        Page { location: Some("https://third-party.example/decl.txt".into()), ..page(302, "") },
    );
    // robots.txt goes out of scope after an in-scope hop.
    net.pages.insert("https://a.example/robots.txt".into(), Page { location: Some("/r2".into()), ..page(301, "") });
    net.pages.insert(
        "https://a.example/r2".into(),
        Page { location: Some("https://cdn.example/robots.txt".into()), ..page(308, "") },
    );
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], config(&["a.example"])).await;
    assert!(!net.requested().iter().any(|(_, u)| u.contains("third-party") || u.contains("cdn.example")));
    let redirect: Vec<_> = records
        .iter()
        .filter_map(|r| match r {
            Record::Candidate(c) if c.relation == "redirect_location" => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(redirect.len(), 2, "{redirect:?}");
    // The unit's documents run concurrently: find each by its document.
    let by_doc = |url: &str| redirect.iter().find(|c| c.evidence.document_url.as_str() == url).expect(url);
    let robots = by_doc("https://a.example/robots.txt");
    assert_eq!(
        (robots.kind, robots.value.as_str(), robots.in_scope),
        (CandidateKind::Url, "https://cdn.example/robots.txt", Some(false))
    );
    assert_eq!(
        robots.evidence.document_url.as_str(),
        "https://a.example/robots.txt",
        "the document that was asked for"
    );
    assert_eq!((robots.evidence.probe.as_str(), robots.evidence.status), ("robots", Some(308)));
    assert_eq!(robots.evidence.locator, Some(Locator::Redirect(1)), "the Location header of the second hop");
    let decl = by_doc("https://a.example/decl.txt");
    assert_eq!(decl.value, "https://third-party.example/decl.txt");
    assert_eq!((decl.evidence.document_url.as_str(), decl.evidence.status), ("https://a.example/decl.txt", Some(302)));
    assert_eq!(decl.evidence.locator, Some(Locator::Redirect(0)));
    // Its host goes to the inventory, out of scope; it is never verified.
    let actions = inventory_actions(&records);
    assert!(actions.contains(&("https://third-party.example".into(), "out_of_scope")), "{actions:?}");
    assert!(actions.contains(&("https://cdn.example".into(), "out_of_scope")), "{actions:?}");
    assert!(!verdicts(&records).contains_key("https://third-party.example/decl.txt"));
    // The document still says why it stopped; the origin answered, so it is reachable and no fetch failed.
    let doc = records
        .iter()
        .find_map(|r| match r {
            Record::Document(d) if d.requested_url == "https://a.example/decl.txt" => Some(d.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(doc.failure.map(|f| f.class), Some(FailureClass::OutOfScope));
    let origin = records.iter().find_map(|r| match r {
        Record::Origin(o) => Some(o.clone()),
        _ => None,
    });
    let origin = origin.unwrap();
    assert!(origin.reachable && origin.failures.is_empty(), "{origin:?}");
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.redirected_out_of_scope, s.fetch_failures, s.reachable, s.unreachable), (2, 0, 1, 0));
    assert!(!s.interrupted);
}

#[tokio::test]
async fn a_verification_redirected_out_of_scope_keeps_the_redirect_status() {
    let mut net = FakeNet::default();
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        page(
            200,
            "url https://a.example/page1
",
        ),
    );
    net.pages.insert(
        "https://a.example/page1".into(),
        Page { location: Some("https://elsewhere.example/landing".into()), ..page(301, "") },
    );
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], ScanConfig { depth: 0, ..config(&["a.example"]) }).await;
    assert_eq!(
        verdicts(&records)["https://a.example/page1"],
        (VerifyStatus::Redirect, Some(301), Some("https://elsewhere.example/landing".into()), "request")
    );
    assert!(!net.was_requested("https://elsewhere.example/landing"));
}

#[tokio::test]
async fn a_stopped_scan_ends_with_an_interrupted_summary() {
    let net = Arc::new(feedback_net());
    let engine = Arc::new(Engine::new(net, Arc::new(Fixed), config(&["a.example", "b.example"])).unwrap());
    let seeds = ["a.example", "b.example"].iter().map(|t| Unit::origin(Origin::parse_target(t).unwrap())).collect();
    let (tx, mut rx) = mpsc::channel(64);
    let plan = RunPlan { seeds, ..RunPlan::default() };
    let handle = tokio::spawn(async move { engine.run_until(plan, tx, std::future::ready(())).await });
    let mut records = Vec::new();
    while let Some(r) = rx.recv().await {
        records.push(r);
    }
    let outcome = handle.await.unwrap();
    assert!(outcome.summary.interrupted);
    let Some(Record::Summary(s)) = records.last() else { panic!("the summary is still the last record") };
    assert!(s.interrupted);
    assert_eq!(records.iter().filter(|r| matches!(r, Record::Summary(_))).count(), 1);
    let origins = records.iter().filter(|r| matches!(r, Record::Origin(_))).count();
    assert_eq!(s.units, origins, "only finished units are counted");
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_tried_as_a_virtual_host() {
    let mut net = FakeNet::default();
    let ip: IpAddr = "192.0.2.7".parse().unwrap();
    net.pages.insert("https://a.example/decl.txt".into(), page(200, "url https://intranet.a.example/x\n"));
    net.nxdomain.insert("intranet.a.example".into());
    net.addresses.insert("a.example".into(), vec![ip]);
    net.vhost_pages.insert((ip, "https://intranet.a.example/".into()), page(200, "welcome"));
    net.vhost_pages
        .insert((ip, "https://intranet.a.example/decl.txt".into()), page(200, "url https://intranet.a.example/y\n"));
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], config(&["a.example"])).await;
    let vhost = records
        .iter()
        .find_map(|r| match r {
            Record::Vhost(v) => Some(v.clone()),
            _ => None,
        })
        .expect("vhost record");
    assert_eq!(vhost.host, "intranet.a.example");
    assert_eq!(vhost.revealed_by, "https://a.example");
    assert_eq!(vhost.address.as_deref(), Some("192.0.2.7"));
    assert!(vhost.answers);
    assert_eq!(vhost.status, Some(200));
    // Its documents were then read through that address.
    let via_doc = records.iter().find_map(|r| match r {
        Record::Document(d) if d.url == "https://intranet.a.example/decl.txt" && d.via.is_some() => Some(d.clone()),
        _ => None,
    });
    assert_eq!(via_doc.and_then(|d| d.status), Some(200));
    assert!(net.log.lock().unwrap().contains(&(Method::Get, "https://intranet.a.example/decl.txt".into(), Some(ip))));

    // Not answering is recorded too.
    let mut net = FakeNet::default();
    net.pages.insert("https://a.example/decl.txt".into(), page(200, "url https://intranet.a.example/x\n"));
    net.nxdomain.insert("intranet.a.example".into());
    let net = Arc::new(net);
    let records = run(Arc::clone(&net), &["a.example"], config(&["a.example"])).await;
    let vhost = records.iter().find_map(|r| match r {
        Record::Vhost(v) => Some(v.clone()),
        _ => None,
    });
    let vhost = vhost.expect("vhost record");
    assert!(!vhost.answers);
    assert_eq!(vhost.address, None, "a.example's addresses are unknown to this network");
}

/// Disallow lines and a Crawl-delay, for the scanner's token (all groups).
struct LineGate;
struct LineRules {
    disallow: Vec<String>,
    delay: Option<Duration>,
}

impl RobotsGate for LineGate {
    fn rules(&self, meta: &FetchMeta, body: &[u8]) -> Arc<dyn RobotsRules> {
        let text = String::from_utf8_lossy(body);
        let disallow = if meta.status.is_some_and(|s| s >= 500) {
            vec!["/".to_string()]
        } else {
            text.lines().filter_map(|l| l.strip_prefix("Disallow: ")).map(str::to_string).collect()
        };
        let delay = text
            .lines()
            .find_map(|l| l.strip_prefix("Crawl-delay: "))
            .and_then(|d| d.parse().ok())
            .map(Duration::from_secs_f64);
        Arc::new(LineRules { disallow, delay })
    }
}

impl RobotsRules for LineRules {
    fn allowed(&self, url: &Url) -> bool {
        !self.disallow.iter().any(|d| url.path().starts_with(d.as_str()))
    }
    fn crawl_delay(&self) -> Option<Duration> {
        self.delay
    }
}

#[tokio::test]
async fn obey_robots_skips_disallowed_urls_and_honours_crawl_delay() {
    let mut net = FakeNet::default();
    net.pages.insert("https://a.example/robots.txt".into(), page(200, "Disallow: /private\nCrawl-delay: 3\n"));
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        page(200, "url https://a.example/private/x\nurl https://a.example/public\nurl https://b.a.example/private\n"),
    );
    net.pages.insert("https://b.a.example/robots.txt".into(), page(503, ""));
    let net = Arc::new(net);
    let cfg = ScanConfig { obey_robots: Some(Arc::new(LineGate)), depth: 0, ..config(&["a.example"]) };
    let records = run(Arc::clone(&net), &["a.example"], cfg).await;
    let v = verdicts(&records);
    assert_eq!(v["https://a.example/private/x"], (VerifyStatus::DisallowedByRobots, None, None, "none"));
    assert_eq!(v["https://a.example/public"].0, VerifyStatus::Gone);
    // b.a.example's robots.txt answers 503: complete disallow (RFC 9309 2.3.1.4).
    assert_eq!(v["https://b.a.example/private"].0, VerifyStatus::DisallowedByRobots);
    assert!(!net.was_requested("https://a.example/private/x"));
    assert!(!net.was_requested("https://b.a.example/private"));
    assert!(net.was_requested("https://b.a.example/robots.txt"), "the policy of another origin is read once");
    assert_eq!(net.delays.lock().unwrap().clone(), [("a.example".to_string(), Duration::from_secs(3))]);
    // robots.txt was fetched once for a.example (by the probe; the gate reused it).
    let robots = net.requested().iter().filter(|(_, u)| u == "https://a.example/robots.txt").count();
    assert_eq!(robots, 1);

    // Without --obey-robots the same URLs are verified regardless.
    let records = run(Arc::clone(&net), &["a.example"], ScanConfig { depth: 0, ..config(&["a.example"]) }).await;
    assert_eq!(verdicts(&records)["https://a.example/private/x"].0, VerifyStatus::Gone);
}

#[tokio::test]
async fn user_issuers_run_after_origins_as_their_own_units() {
    let net = Arc::new(FakeNet::default());
    let mut cfg = config(&["a.example"]);
    cfg.issuers = vec![Url::parse("https://a.example/tenant").unwrap()];
    let engine = Arc::new(Engine::new(Arc::clone(&net) as Arc<dyn Transport>, Arc::new(Fixed), cfg).unwrap());
    let (tx, mut rx) = mpsc::channel(64);
    let targets = vec![Origin::parse_target("a.example").unwrap()];
    let h = tokio::spawn(async move { engine.scan(targets, tx).await });
    let mut origins = Vec::new();
    while let Some(r) = rx.recv().await {
        if let Record::Origin(o) = r {
            origins.push((o.unit, o.origin));
        }
    }
    h.await.unwrap();
    assert_eq!(
        origins,
        [
            (UnitKind::Origin, "https://a.example".to_string()),
            (UnitKind::Issuer, "https://a.example/tenant".to_string())
        ]
    );
}

/// The document records of `origin`, in order.
fn documents_of(records: &[Record], origin: &str) -> Vec<wellknown_records::DocumentRecord> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Document(d) if d.origin == origin => Some(d.clone()),
            _ => None,
        })
        .collect()
}

fn requests_to(net: &FakeNet, host: &str) -> usize {
    net.requested().iter().filter(|(_, u)| Url::parse(u).unwrap().host_str() == Some(host)).count()
}

#[tokio::test]
async fn an_origin_unreachable_at_the_connection_level_is_requested_once() {
    let mut net = FakeNet::default();
    net.down.insert("a.example".into(), FailureClass::ConnectRefused);
    net.down.insert("b.example".into(), FailureClass::Timeout);
    let net = Arc::new(net);
    let targets = ["a.example", "b.example"];
    // Every registered well-known suffix too: many documents per origin.
    let cfg = ScanConfig { all_registered: true, verify: false, depth: 0, ..config(&targets) };
    let records = run(Arc::clone(&net), &targets, cfg).await;

    // connect_refused: robots.txt is the one request (the first request to an origin goes alone);
    // every other document is recorded, not sent.
    let docs = documents_of(&records, "https://a.example");
    assert!(docs.len() > 10, "robots, decl and the registered suffixes: {}", docs.len());
    assert_eq!(requests_to(&net, "a.example"), 1, "{:?}", net.requested());
    let (tried, skipped): (Vec<_>, Vec<_>) = docs.iter().partition(|d| !d.not_attempted);
    assert_eq!(tried.len(), 1);
    assert_eq!(tried[0].requested_url, "https://a.example/robots.txt");
    assert_eq!(tried[0].failure.as_ref().unwrap().message, "a.example is down");
    for d in &skipped {
        let f = d.failure.as_ref().unwrap();
        assert_eq!(f.class, FailureClass::ConnectRefused, "{}", d.requested_url);
        assert_eq!(
            f.message,
            "not attempted: the origin was unreachable at https://a.example/robots.txt (connect_refused)"
        );
        assert_eq!(d.status, None);
    }
    let json = serde_json::to_value(Record::Document(skipped[0].clone())).unwrap();
    assert_eq!(json["not_attempted"], true);
    let json = serde_json::to_value(Record::Document(tried[0].clone())).unwrap();
    assert!(json.get("not_attempted").is_none(), "absent when false: {json}");

    // timeout: one slow answer says nothing about the other paths, but an origin slow twice is a
    // tar pit: its other documents are recorded, not sent (requests go one at a time meanwhile).
    let slow = documents_of(&records, "https://b.example");
    assert_eq!(slow.len(), docs.len());
    assert_eq!(requests_to(&net, "b.example"), 2, "{:?}", net.requested());
    let (tried, skipped): (Vec<_>, Vec<_>) = slow.iter().partition(|d| !d.not_attempted);
    assert_eq!(tried.len(), 2);
    assert!(slow.iter().all(|d| d.failure.as_ref().unwrap().class == FailureClass::Timeout));
    let second = &tried[1].requested_url;
    for d in &skipped {
        assert_eq!(
            d.failure.as_ref().unwrap().message,
            format!("not attempted: the origin answered too slowly 2 times, last at {second} (timeout)")
        );
    }

    // Both targets stay unreachable, with their class; the skipped documents are fetch failures.
    let origin = |label: &str| {
        records.iter().find_map(|r| match r {
            Record::Origin(o) if o.origin == label => Some(o.clone()),
            _ => None,
        })
    };
    let a = origin("https://a.example").unwrap();
    assert_eq!(
        (a.reachable, a.documents, a.failures.clone()),
        (false, docs.len(), vec!["connect_refused".to_string()])
    );
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.targets, s.reachable, s.unreachable), (2, 0, 2));
    assert_eq!(s.fetch_failures, 2 * docs.len());
    assert_eq!(s.documents_not_attempted, 2 * docs.len() - 3);
    assert_eq!(s.failures_by_class.get("connect_refused"), Some(&docs.len()));
    assert_eq!(s.failures_by_class.get("timeout"), Some(&docs.len()));
}

#[tokio::test]
async fn only_the_origin_that_failed_is_skipped_and_only_within_its_unit() {
    let mut net = FakeNet::default();
    net.down.insert("down.a.example".into(), FailureClass::Tls);
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        page(
            200,
            "follow https://down.a.example/x\nfollow https://down.a.example/y\nfollow http://down.a.example/z\n\
             follow https://a.example/w\n",
        ),
    );
    let net = Arc::new(net);
    // Depth 1: down.a.example is revealed and scanned as a unit of its own.
    let cfg = ScanConfig { verify: false, depth: 1, concurrency: 1, ..config(&["a.example"]) };
    let records = run(Arc::clone(&net), &["a.example"], cfg).await;
    let docs = documents_of(&records, "https://a.example");
    let by_url = |u: &str| docs.iter().find(|d| d.requested_url == u).unwrap_or_else(|| panic!("{u}: {docs:?}"));
    // The unit's own origin answered; a follow-up to another origin failing at TLS skips only the
    // rest of that origin (same scheme, host and port), not http:// on it, not the unit's own.
    assert!(!by_url("https://down.a.example/x").not_attempted);
    let y = by_url("https://down.a.example/y");
    assert!(y.not_attempted);
    assert_eq!(y.failure.as_ref().unwrap().class, FailureClass::Tls);
    assert!(!by_url("http://down.a.example/z").not_attempted);
    assert!(!by_url("https://a.example/w").not_attempted);
    assert!(net.was_requested("http://down.a.example/z"));
    assert!(net.was_requested("https://a.example/w"));
    assert!(!net.was_requested("https://down.a.example/y"));
    // The revealed units (https and http) learn for themselves: robots.txt is sent, decl.txt is not.
    for unit in ["https://down.a.example", "http://down.a.example"] {
        let own = documents_of(&records, unit);
        assert_eq!(own.iter().map(|d| d.not_attempted).collect::<Vec<_>>(), [false, true], "{unit}");
    }
    assert_eq!(requests_to(&net, "down.a.example"), 4, "x, z, and two robots.txt: {:?}", net.requested());
    let reachable = records.iter().find_map(|r| match r {
        Record::Origin(o) if o.origin == "https://a.example" => Some(o.reachable),
        _ => None,
    });
    assert_eq!(reachable, Some(true));
}

/// A worker of a shared scan (`defer_revealed`) applies the revealed budgets as one process does,
/// but runs none of the units it would queue: they are recorded `queued` for another process.
#[tokio::test]
async fn deferred_revealed_units_keep_their_budgets_and_are_not_run_here() {
    let mut net = FakeNet::default();
    net.pages.insert(
        "https://a.example/decl.txt".into(),
        page(200, "host b.a.example\nhost c.a.example\nhost d.a.example\n"),
    );
    let net = Arc::new(net);
    let cfg = ScanConfig {
        depth: 1,
        verify: false,
        vhosts: false,
        max_revealed_per_document: 1,
        defer_revealed: true,
        ..config(&["a.example"])
    };
    let records = run(Arc::clone(&net), &["a.example"], cfg).await;
    assert_eq!(
        inventory_actions(&records),
        [
            ("https://b.a.example".to_string(), "queued"),
            ("https://c.a.example".to_string(), "over_budget"),
            ("https://d.a.example".to_string(), "over_budget")
        ]
    );
    for host in ["b.a.example", "c.a.example", "d.a.example"] {
        assert_eq!(requests_to(&net, host), 0, "{host} is left to another process: {:?}", net.requested());
    }
    let units: Vec<String> = records
        .iter()
        .filter_map(|r| match r {
            Record::Origin(o) => Some(o.origin.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(units, ["https://a.example"], "only the target ran here");
}
