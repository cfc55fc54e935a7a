//! Issuer units over an in-memory transport: issuers naming the same metadata URLs, or an origin and
//! its root issuer, are one visit; the unit that did not fetch still reports the answer.
//! Kept as its own test binary: its probes register through `inventory`, which is per binary.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::mpsc;
use url::Url;
use wellknown_core::{
    Candidate, CandidateKind, FailureClass, FetchFailure, FetchMeta, FetchRequest, FetchResult, Origin,
    ProbeRegistration, RedirectHop, Report, Scope, Target, Timestamp, WellKnownProbe, inventory,
};
use wellknown_engine::{Clock, Engine, ScanConfig, Transport};
use wellknown_records::{OriginRecord, Record};

/// Stands in for OpenID Connect discovery: an origin's or issuer's metadata is at the issuer (its
/// trailing `/` removed) + `/.well-known/openid-configuration`. Its body is the issuer it
/// declares, which becomes an issuer candidate (a tenant issuer reveals an issuer unit) and, when it
/// differs from the one the URL was built from, a follow-up.
struct FakeOidc;

fn metadata_url(issuer: &Url) -> Url {
    let mut u = issuer.clone();
    u.set_path(&format!("{}/.well-known/openid-configuration", issuer.path().trim_end_matches('/')));
    u
}

impl WellKnownProbe for FakeOidc {
    fn info(&self) -> &'static wellknown_core::ProbeInfo {
        &wellknown_core::ProbeInfo {
            id: "openid-configuration",
            suffix: None,
            summary: "test issuer metadata",
            spec: "none",
            page: "none",
            codes: &[],
        }
    }
    fn takes_issuer(&self) -> bool {
        true
    }
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => vec![metadata_url(&origin.root())],
            Target::Url { url, role, .. } if role == "issuer" => vec![metadata_url(url)],
            Target::Url { url, .. } => vec![url.clone()],
        }
    }
    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        let mut r = Report::new("openid-configuration", &meta.url, "oidc");
        let declared = String::from_utf8_lossy(body).trim().to_string();
        if let Ok(issuer) = Url::parse(&declared) {
            r.candidate(Candidate::new(CandidateKind::Issuer, "issuer", issuer.as_str(), None));
            if metadata_url(&issuer) != meta.url {
                r.follow_up("openid-configuration", issuer, "issuer");
            }
        }
        r
    }
}

inventory::submit! { ProbeRegistration::new(&FakeOidc) }

#[derive(Default)]
struct FakeNet {
    requested: Mutex<Vec<String>>,
    /// When set, `https://a.example/.well-known/openid-configuration` answers `302` into an address
    /// the private-address rule refuses (what the HTTP client reports: no status, the redirect in
    /// `redirect_chain`, the refused target as `url`, failure `private_address`).
    redirect_to_private: bool,
}

#[async_trait]
impl Transport for FakeNet {
    async fn fetch(
        &self,
        req: &FetchRequest,
        _in_scope: &(dyn for<'u> Fn(&'u Url) -> bool + Send + Sync),
    ) -> FetchResult {
        self.requested.lock().unwrap().push(req.url.to_string());
        let mut meta = FetchMeta::synthetic(req.url.clone(), Some("application/json"), now());
        if self.redirect_to_private && req.url.as_str() == "https://a.example/.well-known/openid-configuration" {
            meta.redirect_chain.push(RedirectHop { url: req.url.clone(), status: 302 });
            meta.url = Url::parse("http://10.0.0.5/metadata").unwrap();
            meta.status = None;
            meta.content_type = None;
            meta.failure =
                Some(FetchFailure { class: FailureClass::PrivateAddress, message: "10.0.0.5 is private".into() });
            return FetchResult { meta, body: Vec::new() };
        }
        // Every metadata document declares the tenant issuer.
        let body = if req.url.path().ends_with("/.well-known/openid-configuration") {
            b"https://a.example/tenantB".to_vec()
        } else {
            Vec::new()
        };
        FetchResult { meta, body }
    }
}

fn now() -> Timestamp {
    "2026-12-01T00:00:00Z".parse().unwrap()
}

struct Fixed;
impl Clock for Fixed {
    fn now(&self) -> Timestamp {
        now()
    }
}

/// Scans the target `a.example` with `issuers` over `net`: every record, in order.
async fn scan(net: &Arc<FakeNet>, issuers: &[&str]) -> Vec<Record> {
    let targets = vec![Origin::parse_target("a.example").unwrap()];
    let config = ScanConfig {
        scope: Scope::for_targets(&targets),
        issuers: issuers.iter().map(|i| Url::parse(i).unwrap()).collect(),
        verify: false,
        depth: 1,
        // Every path answers 200 here: no calibration requests in the request log.
        catch_all_check: false,
        ..ScanConfig::default()
    };
    let engine = Arc::new(Engine::new(Arc::clone(net) as Arc<dyn Transport>, Arc::new(Fixed), config).unwrap());
    let (tx, mut rx) = mpsc::channel(64);
    let h = tokio::spawn(async move { engine.scan(targets, tx).await });
    let mut records = Vec::new();
    while let Some(r) = rx.recv().await {
        records.push(r);
    }
    h.await.unwrap();
    records
}

fn units(records: &[Record]) -> Vec<OriginRecord> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Origin(o) => Some(o.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn issuers_naming_the_same_metadata_are_one_visit_and_each_unit_is_reachable() {
    let net = Arc::new(FakeNet::default());
    let records = scan(&net, &["https://a.example/", "https://a.example/tenantB/"]).await;

    let mut requested = net.requested.lock().unwrap().clone();
    requested.sort();
    assert_eq!(
        requested,
        [
            "https://a.example/.well-known/openid-configuration",
            "https://a.example/tenantB/.well-known/openid-configuration"
        ],
        "each metadata URL once"
    );
    let documents = records.iter().filter(|r| matches!(r, Record::Document(_))).count();
    assert_eq!(documents, 2);
    let units = units(&records);
    let of = |label: &str| units.iter().find(|u| u.origin == label).unwrap_or_else(|| panic!("{label}: {units:?}"));
    // The origin unit fetched both (the tenant issuer as the follow-up of a mismatch).
    let origin = of("https://a.example");
    assert_eq!((origin.reachable, origin.documents, origin.documents_elsewhere), (true, 2, 0));
    // The root issuer, the given `…/tenantB/` and the revealed `…/tenantB`: answered elsewhere.
    for label in ["https://a.example/", "https://a.example/tenantB/", "https://a.example/tenantB"] {
        let u = of(label);
        assert_eq!((u.reachable, u.documents, u.documents_elsewhere), (true, 0, 1), "{label}");
        assert!(u.failures.is_empty(), "{label}");
    }
    assert_eq!(units.len(), 4, "{units:?}");
}

#[tokio::test]
async fn a_shared_visit_redirected_into_a_private_address_is_an_answer_for_every_unit() {
    let net = Arc::new(FakeNet { redirect_to_private: true, ..FakeNet::default() });
    let records = scan(&net, &["https://a.example/"]).await;
    assert_eq!(
        net.requested.lock().unwrap().as_slice(),
        ["https://a.example/.well-known/openid-configuration"],
        "the issuer unit shares the origin unit's visit"
    );
    let units = units(&records);
    let got: Vec<(&str, bool, usize, usize, &[String])> = units
        .iter()
        .map(|u| (u.origin.as_str(), u.reachable, u.documents, u.documents_elsewhere, u.failures.as_slice()))
        .collect();
    let none: &[String] = &[];
    assert_eq!(got, [("https://a.example", true, 1, 0, none), ("https://a.example/", true, 0, 1, none)]);
    let Some(Record::Summary(s)) = records.last() else { panic!("summary last") };
    assert_eq!((s.redirected_to_private, s.fetch_failures), (1, 0));
}
