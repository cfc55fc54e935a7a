//! The scan loop: a frontier of units (origins, issuers) scanned in parallel; per unit, probes then
//! follow-ups breadth-first, the virtual-host attempt, then verification of the candidates it
//! revealed first; revealed hosts, origins and issuers feed back into the frontier.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash, Hasher, RandomState};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::{Notify, mpsc, watch};
use tokio::task::JoinSet;
use url::Url;
use wellknown_core::{
    CandidateKind, Evidence, FetchPolicy, FetchRequest, FollowUp, Host, Origin, ProbeContext, Severity, Target,
    WellKnownProbe, probes,
};

use crate::compact::{Prepared, prepare};
use crate::config::ScanConfig;
use crate::context::{Net, ScanContext, Via};
use crate::feedback;
use crate::record::{
    CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, InventoryRecord, OriginRecord, Record, Summary,
    VerificationRecord, VhostRecord,
};
use crate::transport::{Clock, Transport};
use crate::unit::{RunPlan, Unit, UnitKind, UnitTarget};
use crate::verify;

/// The probe that must run first on an origin: its follow-ups (sitemaps) tell the others what was
/// declared, and `--obey-robots` needs it.
const FIRST_PROBE: &str = "robots";

/// Issuer-based probes run on issuer units.
const ISSUER_PROBES: [&str; 2] = ["openid-configuration", "oauth-authorization-server"];

/// Addresses of the revealing origin tried for one virtual-host candidate.
const MAX_VHOST_ADDRESSES: usize = 4;

/// Body cap of the virtual-host request (only whether the address answers matters).
const VHOST_MAX_BODY: u64 = 16 * 1024;

/// Runs scans. Cheap to share behind an `Arc`.
pub struct Engine {
    net: Arc<Net>,
    config: ScanConfig,
    probes: Vec<&'static dyn WellKnownProbe>,
}

/// What a finished scan reports.
#[derive(Debug, Clone)]
pub struct ScanOutcome {
    /// Totals (also emitted as the last record).
    pub summary: Summary,
    /// Failure classes of targets that answered nothing, by origin.
    pub unreachable: Vec<(String, Vec<String>)>,
}

impl ScanOutcome {
    /// True when the scan found something: a document its probe recognised as one of its kind
    /// (see [`crate::recognised`]; every candidate comes from such a document unless the
    /// document was a soft 404). Soft-404 HTML pages, 404s and failures alone are nothing.
    pub fn found_something(&self) -> bool {
        self.summary.documents_recognised > 0
    }
}

/// What the frontier knows about a unit.
enum Known {
    /// Scanned, being scanned, queued, or finished in an earlier run of a resumed scan.
    Scheduled,
    /// In scope but revealed deeper than `--depth`.
    Beyond,
    /// Out of scope: recorded, never requested.
    OutOfScope,
}

#[derive(Default)]
struct Frontier {
    known: HashMap<(UnitKind, String), Known>,
    /// Units an earlier run of a resumed scan reported in its inventory and this run has not
    /// reported yet, with the unit that revealed them ([`RunPlan::revealed`]).
    earlier: HashMap<(UnitKind, String), String>,
    origins: VecDeque<Unit>,
    issuers: VecDeque<Unit>,
}

impl Frontier {
    fn push(&mut self, unit: Unit) {
        match unit.kind() {
            UnitKind::Origin => self.origins.push_back(unit),
            UnitKind::Issuer => self.issuers.push_back(unit),
        }
    }
}

/// What the documents of one (probe, URL) visit came to, for a unit that finds the visit already
/// made by another unit ([`Visit::Seen`]).
#[derive(Debug, Clone, Default)]
struct VisitOutcome {
    /// The unit that made the requests.
    unit: String,
    /// Document records the visit produced.
    documents: usize,
    /// True when one of them had an HTTP response ([`answered`]: a redirect out of scope or into a
    /// refused private address included).
    answered: bool,
    /// Failure classes of those without a response.
    failures: Vec<String>,
}

impl VisitOutcome {
    fn of(unit: &str, docs: &[Prepared]) -> VisitOutcome {
        let mut o = VisitOutcome { unit: unit.to_string(), documents: docs.len(), ..VisitOutcome::default() };
        for d in docs {
            note_answer(&d.doc.meta, &mut o.answered, &mut o.failures);
        }
        o
    }
}

/// A visit's identity: the probe and the key of what it fetches first ([`Shared::visit`]).
type VisitKey = (String, String);

/// Where a visit's outcome arrives.
type VisitWatch = watch::Receiver<Option<VisitOutcome>>;

/// The answer of [`Shared::visit`].
enum Visit {
    /// First visit: the caller fetches, then reports the outcome through the sender.
    First(watch::Sender<Option<VisitOutcome>>),
    /// Already made (or being made): its key and its outcome, once there.
    Seen(VisitKey, VisitWatch),
}

#[derive(Default)]
struct Shared {
    /// (probe, key of what it fetches) visited in this scan, with the outcome of the documents.
    visited: Mutex<HashMap<VisitKey, VisitWatch>>,
    /// Candidates seen in this scan, by a 128-bit digest of (kind, value): a scan of millions of
    /// candidates keeps 16 bytes for each instead of its value.
    seen: Mutex<HashSet<u128>>,
    seen_keys: (RandomState, RandomState),
    totals: Mutex<Summary>,
    frontier: Mutex<Frontier>,
    wake: Notify,
    /// Outcomes of document fetches by requested URL: a candidate URL fetched as a document needs
    /// no verification request.
    fetched: Mutex<HashMap<String, verify::Fetched>>,
    /// Verification verdicts reached and not yet emitted, by unit and position in the unit's order
    /// (a verdict is emitted once those before it are): an interrupted scan still writes them.
    verdicts: Mutex<HashMap<UnitKey, BTreeMap<usize, VerificationRecord>>>,
}

/// A unit's identity: its kind and label.
type UnitKey = (UnitKind, String);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Marks (probe, url) visited, `url` being the first location the probe fetches for its target
    /// (so two issuers that name the same metadata URLs, `https://a.example/t` and
    /// `https://a.example/t/`, or an origin and its root issuer, are one visit). [`Visit::Seen`]
    /// when it already was. Requests routed to a virtual-host address are keyed apart: the same
    /// URL failed when resolved normally.
    fn visit(&self, probe: &str, url: &Url, via: Option<&Via>) -> Visit {
        let key = match via {
            Some(v) => format!("via {} {url}", v.address),
            None => url.as_str().to_string(),
        };
        match lock(&self.visited).entry((probe.to_string(), key)) {
            std::collections::hash_map::Entry::Occupied(e) => Visit::Seen(e.key().clone(), e.get().clone()),
            std::collections::hash_map::Entry::Vacant(e) => {
                let (tx, rx) = watch::channel(None);
                e.insert(rx);
                Visit::First(tx)
            }
        }
    }

    /// A verification of `unit` finished: its `sent` requests are counted at once (an interrupted
    /// scan counts every request answered before the signal) and its verdict waits, at position
    /// `seq`, to be emitted in the unit's order.
    fn verdict_reached(&self, unit: &UnitKey, seq: usize, record: VerificationRecord, sent: usize) {
        if sent > 0 {
            lock(&self.totals).verification_requests += sent;
        }
        lock(&self.verdicts).entry(unit.clone()).or_default().insert(seq, record);
    }

    /// The verdicts still waiting when the scan was interrupted, by unit, each unit's in order.
    fn take_pending_verdicts(&self) -> Vec<VerificationRecord> {
        let mut pending: Vec<(UnitKey, BTreeMap<usize, VerificationRecord>)> =
            std::mem::take(&mut *lock(&self.verdicts)).into_iter().collect();
        pending.sort_by(|a, b| a.0.1.cmp(&b.0.1));
        pending.into_iter().flat_map(|(_, m)| m.into_values()).collect()
    }
}

/// A queued follow-up with its hop count and the document that asked for it.
struct Pending {
    follow_up: FollowUp,
    hop: u32,
    declared_by: Url,
}

/// Per-unit bookkeeping.
struct UnitRun {
    label: String,
    kind: UnitKind,
    depth: u32,
    revealed_by: Option<String>,
    queue: VecDeque<Pending>,
    documents: usize,
    candidates: usize,
    verified: usize,
    skipped: usize,
    reachable: bool,
    failures: Vec<String>,
    to_verify: Vec<(CandidateKind, String)>,
    /// Documents of visits another unit had already made ([`Visit::Seen`]).
    documents_elsewhere: usize,
    /// The visits made elsewhere already counted in `documents_elsewhere`: a URL this unit meets
    /// twice (declared by two of its documents) counts once.
    elsewhere: HashSet<VisitKey>,
}

impl Engine {
    /// An engine over `transport` with `config`.
    ///
    /// Errors: a probe id in `config.probes` that is not registered.
    pub fn new(transport: Arc<dyn Transport>, clock: Arc<dyn Clock>, config: ScanConfig) -> Result<Engine, String> {
        let all = probes();
        let selected: Vec<&'static dyn WellKnownProbe> = if config.probes.is_empty() {
            all
        } else {
            let mut v = Vec::new();
            for id in &config.probes {
                match wellknown_core::probe_by_id(id) {
                    Some(p) => v.push(p),
                    None => {
                        return Err(format!("unknown probe {id:?} (registered: {})", wellknown_core::probe_ids()));
                    }
                }
            }
            v
        };
        let net = Arc::new(Net {
            transport,
            clock,
            scope: config.scope.clone(),
            gate: config.obey_robots.clone(),
            robots: crate::robots::RobotsCache::default(),
        });
        Ok(Engine { net, config, probes: selected })
    }

    /// The probes this engine runs, in order (the first-probe first).
    pub fn probes(&self) -> &[&'static dyn WellKnownProbe] {
        &self.probes
    }

    /// The configuration.
    pub fn config(&self) -> &ScanConfig {
        &self.config
    }

    /// Scans `targets` (depth 0) and the configured issuers, sending records to `out` as they are
    /// produced; the last record is the summary. Returns the totals.
    pub async fn scan(self: &Arc<Self>, targets: Vec<Origin>, out: mpsc::Sender<Record>) -> ScanOutcome {
        let mut seeds: Vec<Unit> = targets.into_iter().map(Unit::origin).collect();
        seeds.extend(self.config.issuers.iter().cloned().map(Unit::issuer));
        self.run(RunPlan { seeds, ..RunPlan::default() }, out).await
    }

    /// Runs a plan: its seeds (targets, issuers, or the unfinished units of a resumed scan), never
    /// scanning or re-queueing its `done` units. Origin units run before issuer units (an issuer
    /// unit starts once no origin unit is queued or running), `concurrency` units at a time.
    pub async fn run(self: &Arc<Self>, plan: RunPlan, out: mpsc::Sender<Record>) -> ScanOutcome {
        self.run_until(plan, out, std::future::pending()).await
    }

    /// [`Engine::run`], stopped early when `stop` completes (SIGINT, SIGTERM): no unit starts after
    /// that, the units in flight are abandoned where they are (every record they sent is complete;
    /// their `origin` record is not sent, so a store keeps them unfinished and a resumed scan redoes
    /// them), and the summary, with `interrupted: true` and the counts of the work done so far, is
    /// still the last record.
    pub async fn run_until(
        self: &Arc<Self>,
        plan: RunPlan,
        out: mpsc::Sender<Record>,
        stop: impl Future<Output = ()> + Send,
    ) -> ScanOutcome {
        let started = Instant::now();
        let shared = Arc::new(Shared::default());
        {
            let mut f = lock(&shared.frontier);
            for key in plan.done {
                f.known.insert(key, Known::Scheduled);
            }
            f.earlier.extend(plan.revealed.into_iter().map(|r| ((r.kind, r.value), r.revealed_by)));
            let mut targets = 0;
            for unit in plan.seeds {
                if f.known.insert(unit.key(), Known::Scheduled).is_none() {
                    if unit.depth == 0 && unit.kind() == UnitKind::Origin {
                        targets += 1;
                    }
                    f.push(unit);
                }
            }
            lock(&shared.totals).targets = targets;
        }
        let max = self.config.concurrency.max(1);
        let mut tasks: JoinSet<OriginRecord> = JoinSet::new();
        let mut kinds: HashMap<tokio::task::Id, UnitKind> = HashMap::new();
        let mut origins_running = 0usize;
        let mut unreachable = Vec::new();
        let mut interrupted = false;
        tokio::pin!(stop);
        loop {
            while tasks.len() < max {
                let next = {
                    let mut f = lock(&shared.frontier);
                    match f.origins.pop_front() {
                        Some(u) => Some(u),
                        None if origins_running == 0 => f.issuers.pop_front(),
                        None => None,
                    }
                };
                let Some(unit) = next else { break };
                let kind = unit.kind();
                if kind == UnitKind::Origin {
                    origins_running += 1;
                }
                let engine = Arc::clone(self);
                let shared = Arc::clone(&shared);
                let out = out.clone();
                let handle = tasks.spawn(async move { engine.scan_unit(unit, &shared, &out).await });
                kinds.insert(handle.id(), kind);
            }
            if tasks.is_empty() {
                let f = lock(&shared.frontier);
                if f.origins.is_empty() && f.issuers.is_empty() {
                    break;
                }
                continue;
            }
            tokio::select! {
                res = tasks.join_next_with_id() => {
                    let Some(res) = res else { continue };
                    let id = match &res {
                        Ok((id, _)) => *id,
                        Err(e) => e.id(),
                    };
                    if kinds.remove(&id) == Some(UnitKind::Origin) {
                        origins_running = origins_running.saturating_sub(1);
                    }
                    if let Ok((_, rec)) = res {
                        let mut t = lock(&shared.totals);
                        t.units += 1;
                        if rec.depth == 0 && rec.unit == UnitKind::Origin {
                            if rec.reachable {
                                t.reachable += 1;
                            } else {
                                t.unreachable += 1;
                                unreachable.push((rec.origin.clone(), rec.failures.clone()));
                            }
                        }
                    }
                }
                () = shared.wake.notified() => {}
                () = &mut stop => {
                    interrupted = true;
                    break;
                }
            }
        }
        if interrupted {
            // Abandon the units in flight; once they are gone nothing else is sent before the summary
            // but the verification verdicts they had reached (complete records, worth keeping).
            tasks.shutdown().await;
            for rec in shared.take_pending_verdicts() {
                lock(&shared.totals).verifications += 1;
                let _ = out.send(Record::Verification(rec)).await;
            }
        }
        unreachable.sort();
        let mut summary = lock(&shared.totals).clone();
        summary.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        summary.interrupted = interrupted;
        let _ = out.send(Record::Summary(summary.clone())).await;
        ScanOutcome { summary, unreachable }
    }

    fn context(&self, via: Option<Via>) -> ScanContext {
        ScanContext { net: Arc::clone(&self.net), via, reach: Arc::default() }
    }

    async fn scan_unit(&self, unit: Unit, shared: &Arc<Shared>, out: &mpsc::Sender<Record>) -> OriginRecord {
        let mut run = UnitRun {
            label: unit.label(),
            kind: unit.kind(),
            depth: unit.depth,
            revealed_by: unit.revealed_by.clone(),
            queue: VecDeque::new(),
            documents: 0,
            candidates: 0,
            verified: 0,
            skipped: 0,
            reachable: false,
            failures: Vec::new(),
            to_verify: Vec::new(),
            documents_elsewhere: 0,
            elsewhere: HashSet::new(),
        };
        let mut cx = self.context(None);
        match &unit.target {
            UnitTarget::Origin(origin) => {
                self.origin_probes(&mut run, origin, &cx, shared, out).await;
                if let Some(via) = self.try_vhost(&mut run, origin, shared, out).await {
                    // The origin answers only as a virtual host: verify its URLs through that route too.
                    cx = via;
                }
            }
            UnitTarget::Issuer(issuer) => {
                for probe in ISSUER_PROBES {
                    if self.probes.iter().any(|p| p.id() == probe) {
                        run.queue.push_back(Pending {
                            follow_up: FollowUp {
                                probe: probe.to_string(),
                                url: issuer.clone(),
                                role: "issuer".into(),
                            },
                            hop: 0,
                            declared_by: issuer.clone(),
                        });
                    }
                }
                self.drain(&mut run, &cx, shared, out).await;
            }
        }
        self.verify_unit(&mut run, &cx, shared, out).await;
        let rec = OriginRecord {
            origin: run.label.clone(),
            unit: run.kind,
            depth: run.depth,
            reachable: run.reachable,
            documents: run.documents,
            documents_elsewhere: run.documents_elsewhere,
            candidates: run.candidates,
            verified: run.verified,
            verification_skipped: run.skipped,
            failures: if run.reachable { Vec::new() } else { run.failures.clone() },
        };
        let _ = out.send(Record::Origin(rec.clone())).await;
        rec
    }

    /// Every origin probe on `origin` (robots first), their follow-ups, and `--all-registered`.
    async fn origin_probes(
        &self,
        run: &mut UnitRun,
        origin: &Origin,
        cx: &ScanContext,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        let target = Target::origin(origin.clone());
        let mut ordered: Vec<&'static dyn WellKnownProbe> =
            self.probes.iter().copied().filter(|p| p.runs_on_origin()).collect();
        ordered.sort_by_key(|p| p.id() != FIRST_PROBE);
        for probe in ordered {
            // Follow-ups queued so far (robots.txt sitemaps) run before the next origin probe, so a
            // sitemap declared by robots.txt is fetched once, with its declaration attached.
            self.drain(run, cx, shared, out).await;
            let locations = probe.locations(&target);
            let Some(first) = locations.first() else { continue };
            let tx = match shared.visit(probe.id(), first, cx.via.as_ref()) {
                Visit::First(tx) => tx,
                Visit::Seen(key, rx) => {
                    Self::made_elsewhere(run, key, rx).await;
                    continue;
                }
            };
            let docs = prepare(probe.run(&target, cx as &dyn ProbeContext).await);
            let _ = tx.send(Some(VisitOutcome::of(&run.label, &docs)));
            for doc in docs {
                self.emit_document(run, doc, 0, cx, shared, out).await;
            }
        }
        self.drain(run, cx, shared, out).await;
        if self.config.all_registered {
            for doc in prepare(crate::registered::inventory(origin, &self.probes, cx).await) {
                self.emit_document(run, doc, 0, cx, shared, out).await;
            }
        }
    }

    /// Runs queued follow-ups breadth-first within the hop and count limits.
    async fn drain(&self, run: &mut UnitRun, cx: &ScanContext, shared: &Shared, out: &mpsc::Sender<Record>) {
        let mut done = 0usize;
        while let Some(p) = run.queue.pop_front() {
            if p.hop > self.config.max_follow_up_hops || done >= self.config.max_follow_ups_per_origin {
                continue;
            }
            let Some(probe) = self.probes.iter().copied().find(|x| x.id() == p.follow_up.probe) else { continue };
            if !self.config.scope.contains_url(&p.follow_up.url) {
                // Out of scope: the candidate was recorded with in_scope=false; nothing is requested.
                continue;
            }
            let target = Target::Url {
                url: p.follow_up.url.clone(),
                role: p.follow_up.role.clone(),
                declared_by: vec![p.declared_by],
            };
            // Keyed by what the probe fetches first: an issuer's metadata URL, not the issuer.
            let first = probe.locations(&target).into_iter().next().unwrap_or_else(|| p.follow_up.url.clone());
            let tx = match shared.visit(probe.id(), &first, cx.via.as_ref()) {
                Visit::First(tx) => tx,
                Visit::Seen(key, rx) => {
                    Self::made_elsewhere(run, key, rx).await;
                    continue;
                }
            };
            done += 1;
            let docs = prepare(probe.run(&target, cx as &dyn ProbeContext).await);
            let _ = tx.send(Some(VisitOutcome::of(&run.label, &docs)));
            for doc in docs {
                self.emit_document(run, doc, p.hop, cx, shared, out).await;
            }
        }
    }

    /// A visit this unit would have made was made by another unit of the scan: once its outcome is
    /// there, its documents count in this unit's `documents_elsewhere` and an answer makes the unit
    /// reachable (an issuer unit whose metadata its origin's unit already fetched answered all the
    /// same). A visit this unit made itself counts nothing more, and one it already met counts once
    /// (a URL declared by two of its documents). The outcome is awaited: the unit that made the visit
    /// only fetches and interprets before reporting it.
    async fn made_elsewhere(run: &mut UnitRun, key: VisitKey, mut rx: VisitWatch) {
        if !run.elsewhere.insert(key) {
            return;
        }
        // An error means the unit that made the visit was abandoned before its outcome: nothing to add.
        let outcome = rx.wait_for(Option::is_some).await.ok().and_then(|o| o.clone());
        let Some(o) = outcome.filter(|o| o.unit != run.label) else { return };
        run.documents_elsewhere += o.documents;
        if o.answered {
            run.reachable = true;
        }
        for c in &o.failures {
            add_failure(&mut run.failures, c);
        }
    }

    /// A revealed origin whose name does not resolve: try it as a virtual host of the origin that
    /// revealed it (its Host header and TLS server name, sent to that origin's addresses). When an
    /// address answers, the origin's documents are read through it and its context is returned.
    async fn try_vhost(
        &self,
        run: &mut UnitRun,
        origin: &Origin,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) -> Option<ScanContext> {
        if !self.config.vhosts || run.reachable || run.failures.is_empty() {
            return None;
        }
        if !run.failures.iter().all(|c| c.starts_with("dns_")) {
            return None;
        }
        let by = run.revealed_by.clone()?;
        let Host::Domain(name) = origin.host().clone() else { return None };
        let by_origin = Origin::parse_target(&by).ok()?;
        let now = self.net.clock.now();
        let record = |address: Option<IpAddr>, meta: Option<&wellknown_core::FetchMeta>, failure| VhostRecord {
            host: name.clone(),
            origin: run.label.clone(),
            revealed_by: by.clone(),
            address: address.map(|a| a.to_string()),
            answers: meta.is_some_and(|m| m.status.is_some()),
            status: meta.and_then(|m| m.status),
            failure: meta.and_then(|m| m.failure.clone()).or(failure),
            checked_at: meta.map_or(now, |m| m.fetched_at),
        };
        let addrs = match self.net.transport.resolve(by_origin.host(), by_origin.port()).await {
            Ok(a) => a,
            Err(f) => {
                let _ = out.send(Record::Vhost(record(None, None, Some(f)))).await;
                return None;
            }
        };
        let mut via_hit = None;
        for address in addrs.into_iter().take(MAX_VHOST_ADDRESSES) {
            let via = Via { host: name.clone(), port: origin.port(), address };
            let cx = self.context(Some(via.clone()));
            let policy =
                FetchPolicy { follow_redirects: false, max_body_bytes: VHOST_MAX_BODY, ..FetchPolicy::default() };
            let result = cx.request(FetchRequest::get(origin.root(), policy)).await;
            let rec = record(Some(address), Some(&result.meta), None);
            let answers = rec.answers;
            let _ = out.send(Record::Vhost(rec)).await;
            if answers {
                via_hit = Some(cx);
                break;
            }
        }
        let cx = via_hit?;
        self.origin_probes(run, origin, &cx, shared, out).await;
        Some(cx)
    }

    /// Verifies the candidate URLs this unit revealed first. Verdicts are emitted in the candidates'
    /// order as soon as those before them are in; requests and verdicts are counted as they come, so
    /// an interrupted scan keeps both (see [`Shared::verdicts`]).
    async fn verify_unit(&self, run: &mut UnitRun, cx: &ScanContext, shared: &Arc<Shared>, out: &mpsc::Sender<Record>) {
        let items = std::mem::take(&mut run.to_verify);
        if items.is_empty() {
            return;
        }
        let unit: UnitKey = (run.kind, run.label.clone());
        let mut set: JoinSet<()> = JoinSet::new();
        let mut requests = 0usize;
        // Position of the next verdict in the unit's order: only URLs that get a verdict take one.
        let mut seq = 0usize;
        let limit = self.config.verify_concurrency.max(1);
        for (kind, value) in &items {
            let Ok(url) = Url::parse(value) else { continue };
            if !self.config.scope.contains_url(&url) {
                // Not a candidate for verification (filtered when queued); never requested.
                continue;
            }
            let fetched = lock(&shared.fetched).get(value).map(|f| verify::from_document(*kind, value, &run.label, f));
            if let Some(rec) = fetched {
                shared.verdict_reached(&unit, seq, rec, 0);
                seq += 1;
                self.emit_verdicts(run, &unit, shared, out).await;
                continue;
            }
            if requests >= self.config.max_verifications_per_unit {
                // Over the budget: not requested, no record (the value stays unverified); counted.
                run.skipped += 1;
                lock(&shared.totals).verifications_skipped += 1;
                continue;
            }
            requests += 1;
            while set.len() >= limit {
                if set.join_next().await.is_none() {
                    break;
                }
                self.emit_verdicts(run, &unit, shared, out).await;
            }
            let (cx, kind, value, label) = (cx.clone(), *kind, value.clone(), run.label.clone());
            let (shared, unit, at) = (Arc::clone(shared), unit.clone(), seq);
            seq += 1;
            set.spawn(async move {
                let (rec, sent) = verify::request(&cx, kind, &value, url, &label).await;
                shared.verdict_reached(&unit, at, rec, sent);
            });
        }
        while set.join_next().await.is_some() {
            self.emit_verdicts(run, &unit, shared, out).await;
        }
        self.emit_verdicts(run, &unit, shared, out).await;
        lock(&shared.verdicts).remove(&unit);
    }

    /// Emits the unit's verdicts that are next in its order (`run.verified` is the next position).
    async fn emit_verdicts(&self, run: &mut UnitRun, unit: &UnitKey, shared: &Shared, out: &mpsc::Sender<Record>) {
        loop {
            let next = lock(&shared.verdicts).get(unit).and_then(|m| m.get(&run.verified)).cloned();
            let Some(rec) = next else { return };
            // `send` is cancel-safe: a unit abandoned while sending sent nothing, and the verdict is
            // still pending for the interrupted summary's flush.
            let _ = out.send(Record::Verification(rec)).await;
            if let Some(m) = lock(&shared.verdicts).get_mut(unit) {
                m.remove(&run.verified);
            }
            run.verified += 1;
            lock(&shared.totals).verifications += 1;
        }
    }

    /// A candidate seen for the first time: the units it reveals go to the inventory.
    async fn reveal(
        &self,
        run: &UnitRun,
        kind: CandidateKind,
        value: &str,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        for target in feedback::revealed(kind, value) {
            let in_scope = match &target {
                UnitTarget::Origin(o) => self.config.scope.contains_host(o.host()),
                UnitTarget::Issuer(u) => self.config.scope.contains_url(u),
            };
            let unit = Unit { target, depth: run.depth + 1, revealed_by: Some(run.label.clone()) };
            let action = {
                let mut f = lock(&shared.frontier);
                let key = unit.key();
                let fresh = if !in_scope {
                    (Known::OutOfScope, "out_of_scope")
                } else if unit.depth <= self.config.depth {
                    (Known::Scheduled, "queued")
                } else {
                    (Known::Beyond, "beyond_depth")
                };
                if f.known.contains_key(&key) && f.earlier.get(&key) == Some(&run.label) {
                    // Reported by this unit in an earlier run of this resumed scan: reported again
                    // now that it runs again (as an uninterrupted scan would), never re-queued.
                    f.earlier.remove(&key);
                    Some(fresh.1)
                } else {
                    let decided = match f.known.get(&key) {
                        Some(Known::Scheduled | Known::OutOfScope) => None,
                        Some(Known::Beyond) if unit.depth > self.config.depth => None,
                        _ => Some(fresh),
                    };
                    decided.map(|(known, action)| {
                        f.known.insert(key, known);
                        if action == "queued" {
                            f.push(unit.clone());
                        }
                        action
                    })
                }
            };
            let Some(action) = action else { continue };
            lock(&shared.totals).revealed += 1;
            let rec = InventoryRecord {
                unit: unit.kind(),
                value: unit.label(),
                depth: unit.depth,
                revealed_by: run.label.clone(),
                candidate_kind: kind,
                candidate_value: value.to_string(),
                in_scope,
                action,
            };
            let _ = out.send(Record::Inventory(rec)).await;
            if action == "queued" {
                shared.wake.notify_one();
            }
        }
    }

    async fn emit_document(
        &self,
        run: &mut UnitRun,
        prepared: Prepared,
        hop: u32,
        cx: &ScanContext,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        let (doc, candidates) = prepared.into_parts();
        run.documents += 1;
        let meta = &doc.meta;
        // Answered without a request: its origin was found unreachable earlier in this unit.
        let not_attempted = meta.failure.is_some() && cx.reach.take_skipped(meta.requested_url.as_str());
        let redirected_out = redirected_out_of_scope(meta);
        let redirected_private = redirected_to_private(meta);
        note_answer(meta, &mut run.reachable, &mut run.failures);
        if self.config.verify
            && !not_attempted
            && (redirected_out
                || (verify::sent_something(meta)
                    && meta.failure.as_ref().is_none_or(|f| !refused_before_sending(f.class))))
        {
            lock(&shared.fetched).entry(meta.requested_url.to_string()).or_insert_with(|| verify::Fetched::new(meta));
        }
        let report = doc.report.as_ref();
        let doc_url = meta.url.to_string();
        let mut facts = report.map(|r| r.facts.clone()).unwrap_or_default();
        if !meta.location_credentials.is_empty() {
            // The fetcher dropped them from every URL; the document still says they were there.
            facts.insert(CREDENTIALS_FACT.to_string(), serde_json::json!(meta.location_credentials));
        }
        let record = DocumentRecord {
            probe: doc.probe.clone(),
            role: doc.role.clone(),
            origin: run.label.clone(),
            hop,
            requested_url: meta.requested_url.to_string(),
            url: doc_url.clone(),
            status: meta.status,
            redirect_chain: meta.redirect_chain.clone(),
            content_type: meta.content_type.clone(),
            size: meta.size,
            sha256: meta.sha256.clone(),
            truncated: meta.truncated,
            fetched_at: meta.fetched_at,
            failure: meta.failure.clone(),
            kind: report.map(|r| r.kind.clone()),
            valid: report.map(wellknown_core::Report::valid),
            facts,
            via: cx.via.as_ref().map(|v| v.address.to_string()),
            not_attempted,
        };
        {
            let ok = meta.is_success() && meta.failure.is_none();
            let mut t = lock(&shared.totals);
            t.documents += 1;
            if ok {
                t.documents_found += 1;
            }
            if crate::record::recognised(ok, report, !candidates.is_empty()) {
                t.documents_recognised += 1;
            }
            if redirected_out {
                t.redirected_out_of_scope += 1;
            } else if redirected_private {
                t.redirected_to_private += 1;
            } else if fetch_failed(meta) {
                t.fetch_failures += 1;
            }
            if not_attempted {
                t.documents_not_attempted += 1;
            }
        }
        let _ = out.send(Record::Document(record)).await;
        let redirect = redirect_candidate(&doc.probe, meta);
        if let Some(report) = doc.report {
            self.emit_report(run, report, candidates, (&doc.probe, meta), hop, shared, out).await;
        }
        if let Some((c, evidence)) = redirect {
            self.sighting(run, c, evidence, shared, out).await;
        }
    }

    /// A document's diagnostics, candidates (first sightings and further evidence) and follow-ups.
    #[allow(clippy::too_many_arguments)]
    async fn emit_report(
        &self,
        run: &mut UnitRun,
        report: wellknown_core::Report,
        candidates: wellknown_core::Candidates,
        (probe, meta): (&str, &wellknown_core::FetchMeta),
        hop: u32,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        // The response a report is about: the final one; for a redirect out of scope or into a
        // refused private address (whose `url` is the refused target, never requested) the redirect
        // itself, named by the requested URL.
        let (doc_url, doc_status) = if redirected_out_of_scope(meta) || redirected_to_private(meta) {
            (&meta.requested_url, meta.redirect_chain.last().map(|h| h.status))
        } else {
            (&meta.url, meta.status)
        };
        let (mut errors, mut warnings) = (0, 0);
        for d in report.errors.iter().chain(&report.warnings) {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let rec = DiagnosticRecord {
                document: doc_url.to_string(),
                probe: probe.to_string(),
                severity: d.severity,
                code: d.code.clone(),
                message: d.message.clone(),
                locator: d.locator.clone(),
            };
            let _ = out.send(Record::Diagnostic(rec)).await;
        }
        {
            let mut t = lock(&shared.totals);
            t.errors += errors;
            t.warnings += warnings;
        }
        for c in &candidates {
            let c = c.to_candidate();
            let evidence = Evidence {
                document_url: doc_url.clone(),
                probe: probe.to_string(),
                fetched_at: meta.fetched_at,
                status: doc_status,
                locator: c.locator.clone(),
            };
            self.sighting(run, c, evidence, shared, out).await;
        }
        for mut f in report.follow_ups {
            // A document that names a URL with `user:password@` does not make the scan send them.
            let _ = f.url.set_username("");
            let _ = f.url.set_password(None);
            run.queue.push_back(Pending { follow_up: f, hop: hop + 1, declared_by: meta.url.clone() });
        }
    }

    /// One sighting of a candidate: its first in this scan is a `candidate` record (queued for
    /// verification, followed by the inventory records it causes), later ones `evidence` records.
    async fn sighting(
        &self,
        run: &mut UnitRun,
        c: wellknown_core::Candidate,
        evidence: Evidence,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        let mut c = c;
        drop_credentials(&mut c);
        let first = lock(&shared.seen).insert(seen_key(&shared.seen_keys, c.kind, &c.value));
        if !first {
            lock(&shared.totals).evidence += 1;
            let rec = Record::Evidence(EvidenceRecord {
                kind: c.kind,
                relation: c.relation,
                value: c.value,
                hints: c.hints,
                flags: c.flags,
                evidence,
            });
            let _ = out.send(rec).await;
            return;
        }
        run.candidates += 1;
        lock(&shared.totals).candidates += 1;
        let in_scope = self.in_scope(c.kind, &c.value);
        // A redirect target refused by the private-address rule: recorded, nothing to verify or scan.
        let refused = c.relation == REDIRECT_RELATION && c.has_flag(PRIVATE_ADDRESS_FLAG);
        // Out of scope: the candidate record says so (`in_scope: false`); nothing to verify.
        if self.config.verify && verify::verifiable(c.kind) && in_scope != Some(false) && !refused {
            run.to_verify.push((c.kind, c.value.clone()));
        }
        let (kind, value) = (c.kind, c.value.clone());
        let rec = Record::Candidate(CandidateRecord {
            in_scope,
            kind: c.kind,
            relation: c.relation,
            value: c.value,
            hints: c.hints,
            flags: c.flags,
            evidence,
        });
        let _ = out.send(rec).await;
        if !refused {
            self.reveal(run, kind, &value, shared, out).await;
        }
    }

    /// Scope of a candidate value, for kinds that name a host.
    fn in_scope(&self, kind: CandidateKind, value: &str) -> Option<bool> {
        match kind {
            CandidateKind::Url
            | CandidateKind::Sitemap
            | CandidateKind::Endpoint
            | CandidateKind::Issuer
            | CandidateKind::Origin => Url::parse(value).ok().map(|u| self.config.scope.contains_url(&u)),
            CandidateKind::Host => Host::parse(value).ok().map(|h| self.config.scope.contains_host(&h)),
            _ => None,
        }
    }
}

/// The `seen` key of a candidate: two SipHash digests of (kind, value) under the scan's two random
/// keys. A collision (about 2^-64 for a billion candidates, and not something a document can aim
/// for without the keys) would only turn a first sighting into an `evidence` record.
fn seen_key(keys: &(RandomState, RandomState), kind: CandidateKind, value: &str) -> u128 {
    let digest = |state: &RandomState| {
        let mut h = state.build_hasher();
        kind.hash(&mut h);
        value.hash(&mut h);
        h.finish()
    };
    (u128::from(digest(&keys.0)) << 64) | u128::from(digest(&keys.1))
}

/// True when the fetch stopped at a redirect whose target is outside the scope: the server answered
/// (the last hop of `redirect_chain`), and the refused target is `meta.url`.
fn redirected_out_of_scope(meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::OutOfScope)
        && !meta.redirect_chain.is_empty()
}

/// True when the fetch stopped at a redirect whose target the private-address rule refused (no
/// `--allow-private`): the server answered (the last hop of `redirect_chain`), the refused target is
/// `meta.url`, and nothing was sent to it.
fn redirected_to_private(meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::PrivateAddress)
        && !meta.redirect_chain.is_empty()
}

/// True when the document's server answered: an HTTP status, or a redirect the scan declined to
/// follow (out of scope, or into a refused private address), whose status is in `redirect_chain`.
/// An answer makes its unit reachable, whether the unit fetched it or shares the visit.
fn answered(meta: &wellknown_core::FetchMeta) -> bool {
    meta.status.is_some() || redirected_out_of_scope(meta) || redirected_to_private(meta)
}

/// Notes what a fetch says of its origin: an answer ([`answered`]: a redirect out of scope or into a
/// refused private address is one, the origin responded and the scan declined to follow) sets
/// `reached`; a fetch without one adds its failure class to `failures`.
fn note_answer(meta: &wellknown_core::FetchMeta, reached: &mut bool, failures: &mut Vec<String>) {
    if answered(meta) {
        *reached = true;
    } else if let Some(f) = &meta.failure {
        add_failure(failures, f.class.as_str());
    }
}

/// Adds failure class `class` to `failures` once.
fn add_failure(failures: &mut Vec<String>, class: &str) {
    if !failures.iter().any(|c| c == class) {
        failures.push(class.to_string());
    }
}

/// Flag of a [`REDIRECT_RELATION`] candidate whose target the private-address rule refused (a
/// redirect to `http://169.254.169.254/`, a loopback or an intranet address): recorded, never
/// requested, verified or scanned as a unit.
pub const PRIVATE_ADDRESS_FLAG: &str = "private_address";

/// True when the summary counts the document in `fetch_failures`: no HTTP response (DNS, connect,
/// TLS, timeout, refusals, not attempted), or a redirect the fetcher cannot follow
/// (`invalid_redirect`, whose status is kept). A redirect out of scope or into a refused private
/// address is an answer, counted apart ([`redirected_out_of_scope`], [`redirected_to_private`]);
/// other failures after a response (`body_too_large`, a stalled body) are in neither.
fn fetch_failed(meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.as_ref().is_some_and(|f| {
        (meta.status.is_none() && !redirected_out_of_scope(meta) && !redirected_to_private(meta))
            || f.class == wellknown_core::FailureClass::InvalidRedirect
    })
}

/// Relation of the target of a redirect the scan did not follow: out of scope, or not an http(s)
/// URL (with a host, such as `ftp://files.example/a`).
pub const REDIRECT_RELATION: &str = "redirect_location";

/// Flag of a [`REDIRECT_RELATION`] candidate whose `Location` carried a user name or password
/// (RFC 3986 section 3.2.1 deprecates `user:password@`): the value is recorded without them.
pub const CREDENTIALS_FLAG: &str = wellknown_core::candidate::flags::CREDENTIALS_IN_URL;

/// Drops a user name or password from a URL-valued candidate a document declared (a robots.txt
/// `Sitemap:` or a sitemap `<loc>` written `https://user:pass@host/`), flagging it
/// [`CREDENTIALS_FLAG`]: credentials in a published document are a finding to report, not a value to
/// copy into every record, the store and the verification request.
fn drop_credentials(c: &mut wellknown_core::Candidate) {
    let url_valued = matches!(
        c.kind,
        CandidateKind::Url
            | CandidateKind::Sitemap
            | CandidateKind::Endpoint
            | CandidateKind::Issuer
            | CandidateKind::Origin
    );
    if !url_valued || !c.value.contains('@') {
        return;
    }
    let Ok(mut u) = Url::parse(&c.value) else { return };
    if u.username().is_empty() && u.password().is_none() {
        return;
    }
    let _ = u.set_username("");
    let _ = u.set_password(None);
    c.value = u.to_string();
    if !c.has_flag(CREDENTIALS_FLAG) {
        c.flags.push(CREDENTIALS_FLAG.to_string());
    }
}

/// Fact of a document record whose fetch met a `Location` with a user name or password: the hops
/// (as in `{"redirect": N}`) whose `Location` carried them. Every URL recorded is without them.
pub const CREDENTIALS_FACT: &str = "credentials_in_location";

/// The redirect a fetch did not follow, when its target is a relation the origin declares: (target,
/// index of the hop whose `Location` it was, status of that response). A redirect out of scope (the
/// target is `meta.url`, the response the last hop of `redirect_chain`), or an `invalid_redirect` to
/// a non-http(s) URL with a host (`meta.unfollowed_location`; the response is the final one, hop
/// `redirect_chain.len()`). A `mailto:` or an unparsable `Location` names no host: only the
/// document's failure message quotes it.
fn unfollowed_redirect(meta: &wellknown_core::FetchMeta) -> Option<(Url, u32, u16)> {
    if redirected_out_of_scope(meta) || redirected_to_private(meta) {
        let last = meta.redirect_chain.last()?;
        let hop = u32::try_from(meta.redirect_chain.len().saturating_sub(1)).unwrap_or(u32::MAX);
        return Some((meta.url.clone(), hop, last.status));
    }
    let invalid = meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::InvalidRedirect);
    let target = meta.unfollowed_location.as_ref().filter(|u| invalid && u.host().is_some())?;
    let hop = u32::try_from(meta.redirect_chain.len()).unwrap_or(u32::MAX);
    Some((target.clone(), hop, meta.status?))
}

/// The candidate a redirect that was not followed declares ([`unfollowed_redirect`]): `url`
/// [`REDIRECT_RELATION`] = its target, with evidence naming the document (its requested URL), the
/// status of the response that redirected and the locator `{"redirect": hop}` (that response's
/// `Location` header).
fn redirect_candidate(probe: &str, meta: &wellknown_core::FetchMeta) -> Option<(wellknown_core::Candidate, Evidence)> {
    let (target, hop, status) = unfollowed_redirect(meta)?;
    let locator = Some(wellknown_core::Locator::Redirect(hop));
    let mut c = wellknown_core::Candidate::new(CandidateKind::Url, REDIRECT_RELATION, target.as_str(), locator.clone());
    // Credentials in a Location header are a finding, not something to copy into every output and
    // store: the value is without them (the fetcher already dropped them, else `drop_credentials`
    // does) and the candidate flagged.
    if meta.location_credentials.contains(&hop) {
        c.flags.push(CREDENTIALS_FLAG.to_string());
    }
    if redirected_to_private(meta) {
        c.flags.push(PRIVATE_ADDRESS_FLAG.to_string());
    }
    drop_credentials(&mut c);
    let evidence = Evidence {
        document_url: meta.requested_url.clone(),
        probe: probe.to_string(),
        fetched_at: meta.fetched_at,
        status: Some(status),
        locator,
    };
    Some((c, evidence))
}

/// Failures that mean nothing was sent (no verdict to reuse).
fn refused_before_sending(class: wellknown_core::FailureClass) -> bool {
    use wellknown_core::FailureClass as F;
    matches!(class, F::OutOfScope | F::UnsupportedUrl | F::RobotsDisallowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::{FailureClass, FetchFailure, FetchMeta, RedirectHop, Timestamp};

    #[test]
    fn declared_urls_lose_their_credentials_and_are_flagged() {
        let mut c = wellknown_core::Candidate::new(
            CandidateKind::Sitemap,
            "robots_sitemap",
            "https://joe:hunter2@a.example/s.xml",
            None,
        );
        drop_credentials(&mut c);
        assert_eq!(
            (c.value.as_str(), c.flags.as_slice()),
            ("https://a.example/s.xml", [CREDENTIALS_FLAG.to_string()].as_slice())
        );
        let mut c = wellknown_core::Candidate::new(CandidateKind::Url, "sitemap_loc", "https://a.example/@me", None);
        drop_credentials(&mut c);
        assert_eq!(
            (c.value.as_str(), c.flags.len()),
            ("https://a.example/@me", 0),
            "an @ in the path is no credential"
        );
        let mut c = wellknown_core::Candidate::new(CandidateKind::Contact, "contact", "mailto:joe@a.example", None);
        drop_credentials(&mut c);
        assert_eq!(c.value, "mailto:joe@a.example", "a contact is not a URL to request");
    }

    #[test]
    fn redirect_candidate_drops_credentials_and_flags_them() {
        let target = url::Url::parse("https://user:secret@idp.other.example/login").unwrap();
        let mut meta = FetchMeta::synthetic(target, None, Timestamp::UNIX_EPOCH);
        meta.requested_url = url::Url::parse("https://a.example/.well-known/openid-configuration").unwrap();
        meta.redirect_chain = vec![RedirectHop { url: meta.requested_url.clone(), status: 302 }];
        meta.failure = Some(FetchFailure { class: FailureClass::OutOfScope, message: "out of scope".into() });
        let (c, evidence) = redirect_candidate("openid-configuration", &meta).expect("candidate");
        assert_eq!(c.value, "https://idp.other.example/login");
        assert_eq!(c.flags, [CREDENTIALS_FLAG]);
        assert_eq!(evidence.status, Some(302));
        assert_eq!(evidence.document_url.as_str(), "https://a.example/.well-known/openid-configuration");
    }

    #[test]
    fn a_redirect_into_a_private_address_is_a_flagged_candidate() {
        let target = url::Url::parse("http://169.254.169.254/latest/meta-data/").unwrap();
        let mut meta = FetchMeta::synthetic(target, None, Timestamp::UNIX_EPOCH);
        meta.status = None;
        meta.requested_url = url::Url::parse("https://a.example/robots.txt").unwrap();
        meta.redirect_chain = vec![RedirectHop { url: meta.requested_url.clone(), status: 301 }];
        meta.failure = Some(FetchFailure { class: FailureClass::PrivateAddress, message: "private".into() });
        let (c, evidence) = redirect_candidate("robots", &meta).expect("candidate");
        assert_eq!(
            (c.relation.as_str(), c.value.as_str()),
            (REDIRECT_RELATION, "http://169.254.169.254/latest/meta-data/")
        );
        assert_eq!(c.flags, [PRIVATE_ADDRESS_FLAG]);
        assert_eq!((evidence.status, evidence.locator), (Some(301), Some(wellknown_core::Locator::Redirect(0))));
        assert_eq!(evidence.document_url.as_str(), "https://a.example/robots.txt");
        // Refused on the first request (no redirect): nothing was declared.
        meta.redirect_chain.clear();
        assert!(redirect_candidate("robots", &meta).is_none());
    }

    #[test]
    fn a_redirect_to_a_url_that_is_not_http_is_a_candidate_when_it_names_a_host() {
        let requested = url::Url::parse("https://a.example/x").unwrap();
        let mut meta =
            FetchMeta::synthetic(url::Url::parse("https://a.example/y").unwrap(), None, Timestamp::UNIX_EPOCH);
        meta.requested_url = requested.clone();
        meta.redirect_chain = vec![RedirectHop { url: requested, status: 301 }];
        meta.status = Some(302);
        meta.unfollowed_location = Some(url::Url::parse("ftp://files.other.example/a.json").unwrap());
        meta.location_credentials = vec![1];
        meta.failure = Some(FetchFailure { class: FailureClass::InvalidRedirect, message: "not http(s)".into() });
        assert!(fetch_failed(&meta) && !redirected_out_of_scope(&meta), "counted once, as a fetch failure");
        let (c, evidence) = redirect_candidate("p", &meta).expect("candidate");
        assert_eq!(c.value, "ftp://files.other.example/a.json");
        assert_eq!(c.flags, [CREDENTIALS_FLAG]);
        assert_eq!((evidence.status, evidence.locator), (Some(302), Some(wellknown_core::Locator::Redirect(1))));
        assert_eq!(evidence.document_url.as_str(), "https://a.example/x");
        // Credentials on an earlier hop do not flag this target.
        meta.location_credentials = vec![0];
        assert!(redirect_candidate("p", &meta).expect("candidate").0.flags.is_empty());
        // No host (mailto:), or no usable Location: nothing to declare.
        meta.unfollowed_location = Some(url::Url::parse("mailto:x@other.example").unwrap());
        assert!(redirect_candidate("p", &meta).is_none());
        meta.unfollowed_location = None;
        assert!(redirect_candidate("p", &meta).is_none());
        assert!(fetch_failed(&meta));
    }
}
