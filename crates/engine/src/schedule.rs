//! One unit's schedule: its documents fetched concurrently, its records emitted in order.
//!
//! A unit has a coordinator (this module) and jobs (spawned tasks). The coordinator starts jobs
//! from the unit's queue while fewer than `unit_in_flight` run: first every origin probe whose
//! [`OriginOrder`] is `First` or `Concurrent` (robots.txt, security.txt, the discovery documents...),
//! then, once the `First` ones are interpreted and their follow-ups queued, the `AfterFirst` ones
//! (the sitemap probe's `/sitemap.xml`, so a sitemap robots.txt declares is fetched once, with its
//! declaration). Follow-ups (child sitemaps, JWK Sets, includes) start as soon as their document is
//! emitted; candidate URLs are verified while discovery goes on (`verifier.rs`). Each request still
//! waits for its host's politeness budget in the transport (`--per-host`, `--rate`, back-off), which
//! alone governs how hard one host is asked.
//!
//! A job fetches and interprets; the coordinator alone emits, one document at a time, so records
//! stay complete and a unit's `origin` record stays last. A document of the unit's own origin that
//! answered 2xx waits for the origin's calibration (`calibrate.rs`) before it is emitted.
//!
//! Budgets (`budget.rs`): follow-up hops and count, candidate sightings and the unit's wall-clock
//! budget stop work here; what they stop is counted and reported.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::Instant;
use url::Url;
use wellknown_core::{FollowUp, Origin, OriginOrder, ProbeContext, Target, WellKnownProbe};

use crate::budget::{Budget, Spent};
use crate::calibrate::{self, Calibration};
use crate::compact::{Prepared, prepare};
use crate::context::ScanContext;
use crate::emit::add_failure;
use crate::engine::Engine;
use crate::shared::{Shared, Visit, VisitKey, VisitOutcome, VisitWatch, lock};
use crate::verifier::Verifier;
use wellknown_records::{OriginRecord, Record};
use wellknown_records::{Unit, UnitTarget};

/// Something the unit will fetch.
enum Queued {
    /// One of the unit's own probes (`first`: an [`OriginOrder::First`] probe).
    Probe { probe: &'static dyn WellKnownProbe, target: Target, first: bool },
    /// A follow-up a document asked for.
    FollowUp { follow_up: FollowUp, hop: u32, declared_by: Url },
    /// `--all-registered`: every IANA suffix of the origin.
    Registered(Origin),
    /// A document refused as `rate_limited`, asked again (`--retry-rate-limited`): no visit check.
    Retry(Retry),
}

/// A probe's fetch to repeat once its host's `Retry-After` has passed.
#[derive(Clone)]
pub(crate) struct Retry {
    pub unit: Unit,
    probe: &'static dyn WellKnownProbe,
    target: Target,
    hop: u32,
    /// The host whose limit it waits for.
    pub host: String,
}

/// What a job came to.
enum Done {
    /// Documents fetched and interpreted, with what fetched them (to ask again).
    Documents { hop: u32, docs: Vec<Prepared>, first: bool, again: Option<(&'static dyn WellKnownProbe, Target)> },
    /// A visit another unit made, and its outcome (None: abandoned).
    Elsewhere(Option<VisitOutcome>),
    /// The origin's calibration (None: not available) and the requests this unit sent for it.
    Calibrated(Option<Arc<Calibration>>, usize),
}

/// The calibration of the unit's origin.
enum Cal {
    /// Not asked for yet.
    Idle,
    /// Being computed; documents wait.
    Running,
    /// Known (None: no answer to compare with).
    Known(Option<Arc<Calibration>>),
}

/// Per-unit bookkeeping.
pub(crate) struct UnitRun {
    pub unit: Unit,
    /// `unit.label()`, made once.
    pub label: String,
    queue: VecDeque<Queued>,
    /// URLs of follow-ups queued (verification of the same URL waits for the document).
    pub follow_up_urls: HashSet<String>,
    /// Follow-ups queued that were not visits already made: `max_follow_ups_per_origin` counts
    /// these, when they are queued, so a document declaring a million children queues at most the
    /// budget's worth.
    follow_ups_queued: usize,
    pub documents: usize,
    pub candidates: usize,
    /// Candidate sightings (first and further) recorded: `max_candidates_per_unit` counts these.
    pub sightings: usize,
    pub reachable: bool,
    pub failures: Vec<String>,
    /// Documents of visits another unit had already made ([`Visit::Seen`]).
    pub documents_elsewhere: usize,
    /// The visits made elsewhere already counted in `documents_elsewhere`: a URL this unit meets
    /// twice (declared by two of its documents) counts once.
    elsewhere: HashSet<VisitKey>,
    /// Units queued by this unit's documents, and by the document being emitted.
    pub revealed: usize,
    pub revealed_in_document: usize,
    pub spent: Spent,
    pub verifier: Verifier,
    /// Probe jobs in flight, by task: what each fetches first (its record if the time runs out).
    inflight: std::collections::HashMap<tokio::task::Id, Abandoned>,
}

/// A probe job in flight, as its document record says if the unit's time budget abandons it.
struct Abandoned {
    probe: &'static str,
    url: Url,
    role: String,
    hop: u32,
}

impl Abandoned {
    /// The document of a request the time budget abandoned: no status, failure `timeout`.
    fn document(&self, budget: std::time::Duration, now: wellknown_core::Timestamp) -> Prepared {
        let mut meta = wellknown_core::FetchMeta::synthetic(self.url.clone(), None, now);
        meta.status = None;
        meta.failure = Some(wellknown_core::FetchFailure {
            class: wellknown_core::FailureClass::Timeout,
            message: format!(
                "abandoned: the unit's time budget ({} s, --origin-budget) ran out before this document was read",
                budget.as_secs_f64()
            ),
        });
        let doc =
            wellknown_core::Document { probe: self.probe.to_string(), role: self.role.clone(), meta, report: None };
        crate::compact::prepare_one(doc)
    }
}

impl UnitRun {
    fn new(unit: &Unit) -> UnitRun {
        UnitRun {
            unit: unit.clone(),
            label: unit.label(),
            queue: VecDeque::new(),
            follow_up_urls: HashSet::new(),
            follow_ups_queued: 0,
            documents: 0,
            candidates: 0,
            sightings: 0,
            reachable: false,
            failures: Vec::new(),
            documents_elsewhere: 0,
            elsewhere: HashSet::new(),
            revealed: 0,
            revealed_in_document: 0,
            spent: Spent::default(),
            verifier: Verifier::new((unit.kind(), unit.label())),
            inflight: std::collections::HashMap::new(),
        }
    }

    /// The unit's origin (catch-all calibration applies to its documents); None for an issuer.
    fn origin(&self) -> Option<&Origin> {
        match &self.unit.target {
            UnitTarget::Origin(o) => Some(o),
            UnitTarget::Issuer(_) => None,
        }
    }

    /// Queues a follow-up a document of this unit asked for, unless the unit's follow-up budget
    /// (`max`) is spent (counted). A visit already made is queued regardless (it costs no request).
    pub fn enqueue_follow_up(
        &mut self,
        follow_up: FollowUp,
        hop: u32,
        declared_by: Url,
        (max, shared): (usize, &Shared),
    ) {
        if !shared.visited(&follow_up.probe, &follow_up.url, None) {
            if self.follow_ups_queued >= max {
                self.spent.skip(Budget::FollowUps, 1);
                return;
            }
            self.follow_ups_queued += 1;
        }
        self.follow_up_urls.insert(follow_up.url.to_string());
        self.queue.push_back(Queued::FollowUp { follow_up, hop, declared_by });
    }

    /// A visit another unit made: once its outcome is there, its documents count in
    /// `documents_elsewhere` and an answer makes this unit reachable. One made by this unit itself
    /// counts nothing more.
    fn made_elsewhere(&mut self, outcome: Option<VisitOutcome>) {
        let Some(o) = outcome.filter(|o| o.unit != self.label) else { return };
        self.documents_elsewhere += o.documents;
        if o.answered {
            self.reachable = true;
        }
        for c in &o.failures {
            add_failure(&mut self.failures, c);
        }
    }
}

/// What ended a loop of the coordinator.
enum Event {
    Job(Option<Result<(tokio::task::Id, Done), tokio::task::JoinError>>),
    Verified,
    OutOfTime,
}

/// Shorthand for what the emission functions take.
type Io<'a> = (&'a ScanContext, &'a Arc<Shared>, &'a mpsc::Sender<Record>);

impl Engine {
    /// Scans one unit: its documents, the virtual-host try, verification; then its `budget`
    /// records and its `origin` record (last).
    pub(crate) async fn scan_unit(&self, unit: Unit, shared: &Arc<Shared>, out: &mpsc::Sender<Record>) -> OriginRecord {
        let deadline = crate::engine::deadline(self.config.unit_budget);
        let mut run = UnitRun::new(&unit);
        self.progress.started(&run.label);
        let mut cx = self.context(None);
        let mut out_of_time;
        match &unit.target {
            UnitTarget::Origin(origin) => {
                self.queue_origin_probes(&mut run, origin);
                out_of_time = self.discover(&mut run, deadline, (&cx, shared, out)).await;
                let via = if out_of_time {
                    None
                } else {
                    let tried = self.try_vhost(&mut run, origin, (&cx, shared, out));
                    match tokio::time::timeout_at(deadline, tried).await {
                        Ok(via) => via,
                        Err(_) => {
                            run.spent.skip_what(Budget::Time, "vhost_tries", 1);
                            out_of_time = true;
                            None
                        }
                    }
                };
                if let Some(via) = via {
                    // The origin answers only as a virtual host: read its documents and verify its
                    // URLs through that route.
                    cx = via;
                    self.queue_origin_probes(&mut run, origin);
                    out_of_time = self.discover(&mut run, deadline, (&cx, shared, out)).await;
                }
            }
            UnitTarget::Issuer(issuer) => {
                for probe in self.probes.iter().copied().filter(|p| p.takes_issuer()) {
                    let target =
                        Target::Url { url: issuer.clone(), role: "issuer".into(), declared_by: vec![issuer.clone()] };
                    run.queue.push_back(Queued::Probe { probe, target, first: false });
                }
                out_of_time = self.discover(&mut run, deadline, (&cx, shared, out)).await;
            }
        }
        if !out_of_time {
            self.finish_verification(&mut run, deadline, (&cx, shared, out)).await;
        }
        run.verifier.forget(shared);
        self.close_unit(run, shared, out).await
    }

    /// The unit's `budget` records, then its `origin` record (last).
    async fn close_unit(&self, run: UnitRun, shared: &Shared, out: &mpsc::Sender<Record>) -> OriginRecord {
        self.progress.finished(&run.label);
        let budgets = run.spent.records(run.unit.kind(), &run.label, &self.config);
        if !budgets.is_empty() {
            let mut t = lock(&shared.totals);
            t.units_over_budget += 1;
            for (name, n) in run.spent.by_name() {
                *t.budgets.entry(name).or_default() += n;
            }
        }
        for b in budgets {
            let _ = out.send(Record::Budget(b)).await;
        }
        let rec = OriginRecord {
            origin: run.label.clone(),
            unit: run.unit.kind(),
            depth: run.unit.depth,
            reachable: run.reachable,
            documents: run.documents,
            documents_elsewhere: run.documents_elsewhere,
            candidates: run.candidates,
            verified: run.verifier.emitted,
            verification_skipped: run.verifier.skipped,
            budgets: run.spent.by_name(),
            failures: if run.reachable { Vec::new() } else { run.failures.clone() },
        };
        let _ = out.send(Record::Origin(rec.clone())).await;
        rec
    }

    /// Asks again the fetches of one unit that met `rate_limited` (`--retry-rate-limited`), as a
    /// unit of their own: documents, verification, `origin` record.
    pub(crate) async fn scan_retry(&self, retries: Vec<Retry>, shared: &Arc<Shared>, out: &mpsc::Sender<Record>) {
        let Some(first) = retries.first() else { return };
        let deadline = crate::engine::deadline(self.config.unit_budget);
        let mut run = UnitRun::new(&first.unit.clone());
        self.progress.known(1, false);
        self.progress.started(&run.label);
        let cx = self.context(None);
        lock(&shared.totals).documents_retried += retries.len();
        for r in retries {
            run.queue.push_back(Queued::Retry(r));
        }
        if !self.discover(&mut run, deadline, (&cx, shared, out)).await {
            self.finish_verification(&mut run, deadline, (&cx, shared, out)).await;
        }
        run.verifier.forget(shared);
        self.close_unit(run, shared, out).await;
    }

    /// Queues every origin probe of `origin` (and `--all-registered`).
    fn queue_origin_probes(&self, run: &mut UnitRun, origin: &Origin) {
        let target = Target::origin(origin.clone());
        let mut probes: Vec<_> = self.probes.iter().copied().filter(|p| p.runs_on_origin()).collect();
        // `First` probes start first: the first request to an origin goes alone (`reach.rs`).
        probes.sort_by_key(|p| p.origin_order() != OriginOrder::First);
        for probe in probes {
            let first = probe.origin_order() == OriginOrder::First;
            run.queue.push_back(Queued::Probe { probe, target: target.clone(), first });
        }
        if self.config.all_registered {
            run.queue.push_back(Queued::Registered(origin.clone()));
        }
    }

    /// Runs the unit's queue to the end: jobs concurrently, emission in order. Returns true when
    /// the unit's time budget ran out (what was left is counted in `run.spent`).
    async fn discover(&self, run: &mut UnitRun, deadline: Instant, io: Io<'_>) -> bool {
        let (cx, shared, out) = io;
        let mut jobs: JoinSet<Done> = JoinSet::new();
        // `First` probes queued or in flight; `AfterFirst` probes wait until there are none.
        let mut firsts = run.queue.iter().filter(|q| matches!(q, Queued::Probe { first: true, .. })).count();
        let mut after_first: Vec<Queued> = Vec::new();
        let mut rest = std::mem::take(&mut run.queue);
        // With `--obey-robots` every other probe waits for robots.txt: its rules decide what they may
        // request, and it is then read once.
        let obey = self.config.obey_robots.is_some();
        while let Some(q) = rest.pop_front() {
            let waits = match &q {
                Queued::Probe { probe, .. } => match probe.origin_order() {
                    OriginOrder::First => false,
                    OriginOrder::AfterFirst => true,
                    OriginOrder::Concurrent => obey,
                },
                Queued::Registered(_) => obey,
                Queued::FollowUp { .. } | Queued::Retry(_) => false,
            };
            if waits {
                after_first.push(q);
            } else {
                run.queue.push_back(q);
            }
        }
        let mut held: Vec<(u32, Vec<Prepared>)> = Vec::new();
        let mut cal = if self.config.catch_all_check && run.origin().is_some() { Cal::Idle } else { Cal::Known(None) };
        loop {
            // Released once every `First` document is emitted (none held for the calibration), so
            // their follow-ups are queued ahead.
            if firsts == 0 && held.is_empty() && !after_first.is_empty() {
                run.queue.extend(after_first.drain(..));
            }
            while jobs.len() < self.config.unit_in_flight.max(1) {
                let Some(q) = run.queue.pop_front() else { break };
                let first = matches!(q, Queued::Probe { first: true, .. });
                if !self.start(run, q, &mut jobs, (cx, shared)) && first {
                    // Nothing to wait for (no location, or the visit was made elsewhere).
                    firsts = firsts.saturating_sub(1);
                }
            }
            let limits = (self.config.max_verifications_per_unit, self.config.verify_concurrency);
            run.verifier.dispatch(cx, shared, &run.follow_up_urls, true, limits, &mut run.spent);
            run.verifier.emit_ready(shared, out).await;
            if jobs.is_empty() && run.queue.is_empty() && after_first.is_empty() {
                // Documents waiting for a calibration that never started cannot be: flush any.
                for (hop, docs) in std::mem::take(&mut held) {
                    for doc in docs {
                        self.emit_document(run, doc, hop, false, (cx, shared, out)).await;
                    }
                }
                if run.queue.is_empty() {
                    return false;
                }
                continue;
            }
            let event = tokio::select! {
                biased;
                done = jobs.join_next_with_id() => Event::Job(done),
                () = run.verifier.join_one(), if run.verifier.busy() => Event::Verified,
                () = tokio::time::sleep_until(deadline) => Event::OutOfTime,
            };
            match event {
                Event::Job(None) | Event::Verified => {}
                Event::Job(Some(Err(e))) => {
                    run.inflight.remove(&e.id());
                }
                Event::Job(Some(Ok((_, Done::Elsewhere(outcome))))) => run.made_elsewhere(outcome),
                Event::Job(Some(Ok((_, Done::Calibrated(c, sent))))) => {
                    if sent > 0 {
                        lock(&shared.totals).calibration_requests += sent;
                    }
                    cal = Cal::Known(c);
                    for (hop, docs) in std::mem::take(&mut held) {
                        self.emit_judged(run, docs, hop, &cal, io).await;
                    }
                }
                Event::Job(Some(Ok((id, Done::Documents { hop, docs, first, again })))) => {
                    run.inflight.remove(&id);
                    if first {
                        firsts = firsts.saturating_sub(1);
                    }
                    if self.config.retry_rate_limited
                        && let Some((probe, target)) = again
                    {
                        remember_rate_limited(run, &docs, probe, target, hop, shared);
                    }
                    let needs = run.origin().is_some_and(|o| docs.iter().any(|d| judged(o, &d.doc.meta)));
                    match (&cal, needs) {
                        (Cal::Idle, true) => {
                            cal = Cal::Running;
                            held.push((hop, docs));
                            if let Some(origin) = run.origin().cloned() {
                                self.start_calibration(origin, &mut jobs, (cx, shared));
                            }
                        }
                        (Cal::Running, _) => held.push((hop, docs)),
                        _ => self.emit_judged(run, docs, hop, &cal, io).await,
                    }
                }
                Event::OutOfTime => {
                    // Nothing more leaves the unit (a request a job was about to send is refused),
                    // then its jobs are abandoned; each document in flight still gets its record.
                    cx.reach.close();
                    let abandoned: Vec<Abandoned> = run.inflight.drain().map(|(_, a)| a).collect();
                    let undone = jobs.len() + run.queue.len() + after_first.len();
                    jobs.abort_all();
                    run.queue.clear();
                    for a in abandoned {
                        let doc = a.document(self.config.unit_budget, self.net.clock.now());
                        self.emit_document(run, doc, a.hop, false, (cx, shared, out)).await;
                    }
                    for (hop, docs) in std::mem::take(&mut held) {
                        for doc in docs {
                            self.emit_document(run, doc, hop, false, (cx, shared, out)).await;
                        }
                    }
                    let verifications = run.verifier.abandon(shared);
                    run.verifier.emit_all_reached(shared, out).await;
                    run.spent.skip(Budget::Time, u64::try_from(undone).unwrap_or(u64::MAX) + verifications);
                    return true;
                }
            }
        }
    }

    /// Emits documents, judging each against the calibration when it has one.
    async fn emit_judged(
        &self,
        run: &mut UnitRun,
        docs: Vec<Prepared>,
        hop: u32,
        cal: &Cal,
        (cx, shared, out): Io<'_>,
    ) {
        for doc in docs {
            let catch_all = match (cal, run.origin()) {
                (Cal::Known(Some(c)), Some(o)) => judged(o, &doc.doc.meta) && c.matches(&doc.doc.meta),
                _ => false,
            };
            self.emit_document(run, doc, hop, catch_all, (cx, shared, out)).await;
        }
    }

    /// Starts one queued item as a job, or records why it is not fetched. Returns true when the
    /// job is a `First` probe's.
    fn start(
        &self,
        run: &mut UnitRun,
        q: Queued,
        jobs: &mut JoinSet<Done>,
        (cx, shared): (&ScanContext, &Arc<Shared>),
    ) -> bool {
        let (probe, target, hop, first, fallback) = match q {
            Queued::Probe { probe, target, first } => (probe, target, 0, first, None),
            Queued::Retry(r) => {
                let cx = cx.clone();
                jobs.spawn(async move {
                    let docs = prepare(r.probe.run(&r.target, &cx as &dyn ProbeContext).await);
                    Done::Documents { hop: r.hop, docs, first: false, again: None }
                });
                return false;
            }
            Queued::Registered(origin) => {
                let (probes, cx) = (self.probes.clone(), cx.clone());
                jobs.spawn(async move {
                    let docs = prepare(crate::registered::inventory(&origin, &probes, &cx).await);
                    Done::Documents { hop: 0, docs, first: false, again: None }
                });
                return false;
            }
            Queued::FollowUp { follow_up, hop, declared_by } => {
                let Some(probe) = self.probes.iter().copied().find(|x| x.id() == follow_up.probe) else { return false };
                if !self.config.scope.contains_url(&follow_up.url) {
                    // Out of scope: the candidate was recorded with in_scope=false; nothing is requested.
                    return false;
                }
                let fallback = Some(follow_up.url.clone());
                let target = Target::Url { url: follow_up.url, role: follow_up.role, declared_by: vec![declared_by] };
                // Keyed by what the probe fetches first: an issuer's metadata URL, not the issuer.
                (probe, target, hop, false, fallback)
            }
        };
        let Some(first_url) = probe.locations(&target).into_iter().next().or(fallback) else { return false };
        if hop > 0 && !shared.visited(probe.id(), &first_url, cx.via.as_ref()) {
            let budget = if hop > self.config.max_follow_up_hops {
                Some(Budget::FollowUpHops)
            } else if run.spent.hit(Budget::Candidates) {
                // What it would declare could not be recorded.
                Some(Budget::Candidates)
            } else {
                None
            };
            if let Some(b) = budget {
                run.spent.skip_what(b, "follow_ups", 1);
                return false;
            }
        }
        match shared.visit(probe.id(), &first_url, cx.via.as_ref()) {
            Visit::Seen(key, rx) => {
                if run.elsewhere.insert(key) {
                    jobs.spawn(wait_elsewhere(rx));
                }
                false
            }
            Visit::First(tx) => {
                let (cx, label) = (cx.clone(), run.label.clone());
                if first {
                    cx.reach.reserve(&first_url);
                }
                let abandoned =
                    Abandoned { probe: probe.id(), url: first_url.clone(), role: target.role().to_string(), hop };
                let handle = jobs.spawn(async move {
                    let docs = prepare(probe.run(&target, &cx as &dyn ProbeContext).await);
                    if first {
                        cx.reach.release(&first_url);
                    }
                    let _ = tx.send(Some(VisitOutcome::of(&label, docs.iter().map(|d| &d.doc.meta))));
                    Done::Documents { hop, docs, first, again: Some((probe, target)) }
                });
                run.inflight.insert(handle.id(), abandoned);
                first
            }
        }
    }

    /// Starts the calibration of `origin` (computed once per scan and route; a unit that finds it
    /// computed or being computed waits for it and sends nothing).
    fn start_calibration(&self, origin: Origin, jobs: &mut JoinSet<Done>, (cx, shared): (&ScanContext, &Arc<Shared>)) {
        let key = match &cx.via {
            Some(v) => format!("via {} {origin}", v.address),
            None => origin.to_string(),
        };
        let cell = shared.calibration(&key);
        let cx = cx.clone();
        jobs.spawn(async move {
            let mut sent = 0;
            let c = cell
                .get_or_init(|| async {
                    let (c, n) = calibrate::calibrate(&origin, &cx).await;
                    sent = n;
                    (!c.is_empty()).then(|| Arc::new(c))
                })
                .await
                .clone();
            Done::Calibrated(c, sent)
        });
    }

    /// Verifies what is left once discovery is over (the deferred follow-up URLs included), within
    /// the unit's time budget.
    async fn finish_verification(&self, run: &mut UnitRun, deadline: Instant, (cx, shared, out): Io<'_>) {
        let limits = (self.config.max_verifications_per_unit, self.config.verify_concurrency);
        loop {
            run.verifier.dispatch(cx, shared, &run.follow_up_urls, false, limits, &mut run.spent);
            run.verifier.emit_ready(shared, out).await;
            if run.verifier.is_idle() {
                return;
            }
            tokio::select! {
                () = run.verifier.join_one() => {}
                () = tokio::time::sleep_until(deadline) => {
                    cx.reach.close();
                    let n = run.verifier.abandon(shared);
                    run.verifier.emit_all_reached(shared, out).await;
                    run.spent.skip(Budget::Time, n);
                    return;
                }
            }
        }
    }
}

/// Keeps a fetch whose documents met `rate_limited` for `--retry-rate-limited`.
fn remember_rate_limited(
    run: &UnitRun,
    docs: &[Prepared],
    probe: &'static dyn WellKnownProbe,
    target: Target,
    hop: u32,
    shared: &Shared,
) {
    let limited = docs.iter().find_map(|d| {
        let meta = &d.doc.meta;
        let hit = meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::RateLimited);
        hit.then(|| meta.url.host_str().unwrap_or_default().to_string())
    });
    if let Some(host) = limited {
        lock(&shared.retries).push(Retry { unit: run.unit.clone(), probe, target, hop, host });
    }
}

/// True when a document is judged against its origin's calibration: fetched from the unit's own
/// origin, answered 2xx in full.
fn judged(origin: &Origin, meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.is_none()
        && meta.status.is_some_and(|s| (200..300).contains(&s))
        && Origin::from_url(&meta.requested_url).is_ok_and(|o| &o == origin)
}

/// Waits for a visit another unit makes.
async fn wait_elsewhere(mut rx: VisitWatch) -> Done {
    // An error means the unit that made the visit was abandoned before its outcome: nothing to add.
    let outcome = rx.wait_for(Option::is_some).await.ok().and_then(|o| o.clone());
    Done::Elsewhere(outcome)
}
