//! The scan loop: origins in parallel, probes per origin, follow-ups breadth-first.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::{Semaphore, mpsc};
use url::Url;
use wellknown_core::{
    CandidateKind, Document, Evidence, FollowUp, Host, Origin, ProbeContext, Severity, Target, WellKnownProbe, probes,
};

use crate::config::ScanConfig;
use crate::context::ScanContext;
use crate::record::{CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, OriginRecord, Record, Summary};
use crate::transport::{Clock, Transport};

/// The probe that must run first on an origin: its follow-ups (sitemaps) tell the others what was
/// declared, and `--obey-robots` needs it.
const FIRST_PROBE: &str = "robots";

/// Runs scans. Cheap to share behind an `Arc`.
pub struct Engine {
    transport: Arc<dyn Transport>,
    clock: Arc<dyn Clock>,
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
    /// True when the scan found something: a 2xx document or a candidate.
    pub fn found_something(&self) -> bool {
        self.summary.documents_found > 0 || self.summary.candidates > 0
    }
}

#[derive(Default)]
struct Shared {
    visited: Mutex<HashSet<(String, String)>>,
    seen: Mutex<HashSet<(CandidateKind, String)>>,
    totals: Mutex<Summary>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Marks (probe, url) visited; false when it already was.
    fn visit(&self, probe: &str, url: &Url) -> bool {
        lock(&self.visited).insert((probe.to_string(), url.as_str().to_string()))
    }
}

/// A queued follow-up with its hop count and the document that asked for it.
struct Pending {
    follow_up: FollowUp,
    hop: u32,
    declared_by: Url,
}

/// Per-origin bookkeeping.
struct OriginRun {
    label: String,
    queue: VecDeque<Pending>,
    documents: usize,
    candidates: usize,
    reachable: bool,
    failures: Vec<String>,
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
                        let known: Vec<&str> = all.iter().map(|p| p.id()).collect();
                        return Err(format!("unknown probe {id:?} (registered: {})", known.join(", ")));
                    }
                }
            }
            v
        };
        Ok(Engine { transport, clock, config, probes: selected })
    }

    /// The probes this engine runs, in order (the first-probe first).
    pub fn probes(&self) -> &[&'static dyn WellKnownProbe] {
        &self.probes
    }

    /// Scans `targets`, sending records to `out` as they are produced; the last record is the
    /// summary. Returns the totals.
    pub async fn scan(self: &Arc<Self>, targets: Vec<Origin>, out: mpsc::Sender<Record>) -> ScanOutcome {
        let started = Instant::now();
        let shared = Arc::new(Shared::default());
        let semaphore = Arc::new(Semaphore::new(self.config.concurrency.max(1)));
        let mut tasks = tokio::task::JoinSet::new();
        let mut unique = HashSet::new();
        let targets: Vec<Origin> = targets.into_iter().filter(|o| unique.insert(o.clone())).collect();
        lock(&shared.totals).targets = targets.len();
        for origin in targets {
            let engine = Arc::clone(self);
            let shared = Arc::clone(&shared);
            let out = out.clone();
            let sem = Arc::clone(&semaphore);
            tasks.spawn(async move {
                let _permit = sem.acquire_owned().await.ok();
                engine.scan_origin(origin, &shared, &out).await
            });
        }
        let mut unreachable = Vec::new();
        while let Some(res) = tasks.join_next().await {
            if let Ok(rec) = res {
                let mut t = lock(&shared.totals);
                if rec.reachable {
                    t.reachable += 1;
                } else {
                    t.unreachable += 1;
                    unreachable.push((rec.origin.clone(), rec.failures.clone()));
                }
            }
        }
        // Issuers given by the user run after the origins, so an issuer that is also an origin is
        // not probed twice (the visited set sees the origin's documents).
        if !self.config.issuers.is_empty() {
            let mut run = OriginRun::new("issuers".to_string());
            for issuer in &self.config.issuers {
                for probe in ["openid-configuration", "oauth-authorization-server"] {
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
            }
            self.drain(&mut run, &shared, &out).await;
        }
        unreachable.sort();
        let mut summary = lock(&shared.totals).clone();
        summary.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let _ = out.send(Record::Summary(summary.clone())).await;
        ScanOutcome { summary, unreachable }
    }

    fn context(&self) -> ScanContext<'_> {
        ScanContext { transport: self.transport.as_ref(), clock: self.clock.as_ref(), scope: &self.config.scope }
    }

    async fn scan_origin(&self, origin: Origin, shared: &Shared, out: &mpsc::Sender<Record>) -> OriginRecord {
        let mut run = OriginRun::new(origin.ascii());
        let target = Target::origin(origin.clone());
        let cx = self.context();
        let mut ordered: Vec<&'static dyn WellKnownProbe> =
            self.probes.iter().copied().filter(|p| p.runs_on_origin()).collect();
        ordered.sort_by_key(|p| p.id() != FIRST_PROBE);
        for probe in ordered {
            // Follow-ups queued so far (robots.txt sitemaps) run before the next origin probe, so a
            // sitemap declared by robots.txt is fetched once, with its declaration attached.
            self.drain(&mut run, shared, out).await;
            let locations = probe.locations(&target);
            let Some(first) = locations.first() else { continue };
            if !shared.visit(probe.id(), first) {
                continue;
            }
            for doc in probe.run(&target, &cx as &dyn ProbeContext).await {
                self.emit_document(&mut run, doc, 0, shared, out).await;
            }
        }
        self.drain(&mut run, shared, out).await;
        if self.config.all_registered {
            for doc in crate::registered::inventory(&origin, &self.probes, &cx).await {
                self.emit_document(&mut run, doc, 0, shared, out).await;
            }
        }
        let rec = OriginRecord {
            origin: run.label.clone(),
            reachable: run.reachable,
            documents: run.documents,
            candidates: run.candidates,
            failures: if run.reachable { Vec::new() } else { run.failures.clone() },
        };
        let _ = out.send(Record::Origin(rec.clone())).await;
        rec
    }

    /// Runs queued follow-ups breadth-first within the hop and count limits.
    async fn drain(&self, run: &mut OriginRun, shared: &Shared, out: &mpsc::Sender<Record>) {
        let cx = self.context();
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
            if !shared.visit(probe.id(), &p.follow_up.url) {
                continue;
            }
            done += 1;
            let target = Target::Url {
                url: p.follow_up.url.clone(),
                role: p.follow_up.role.clone(),
                declared_by: vec![p.declared_by],
            };
            for doc in probe.run(&target, &cx as &dyn ProbeContext).await {
                self.emit_document(run, doc, p.hop, shared, out).await;
            }
        }
    }

    async fn emit_document(
        &self,
        run: &mut OriginRun,
        doc: Document,
        hop: u32,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        run.documents += 1;
        let meta = &doc.meta;
        if meta.status.is_some() {
            run.reachable = true;
        } else if let Some(f) = &meta.failure {
            let c = f.class.as_str().to_string();
            if !run.failures.contains(&c) {
                run.failures.push(c);
            }
        }
        let report = doc.report.as_ref();
        let doc_url = meta.url.to_string();
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
            facts: report.map(|r| r.facts.clone()).unwrap_or_default(),
        };
        {
            let mut t = lock(&shared.totals);
            t.documents += 1;
            if meta.is_success() && meta.failure.is_none() {
                t.documents_found += 1;
            }
        }
        let _ = out.send(Record::Document(record)).await;
        let Some(report) = doc.report else { return };
        let (mut errors, mut warnings) = (0, 0);
        for d in report.errors.iter().chain(&report.warnings) {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let rec = DiagnosticRecord {
                document: doc_url.clone(),
                probe: doc.probe.clone(),
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
        for c in report.candidates {
            let evidence = Evidence {
                document_url: meta.url.clone(),
                probe: doc.probe.clone(),
                fetched_at: meta.fetched_at,
                status: meta.status,
                locator: c.locator.clone(),
            };
            let first = lock(&shared.seen).insert((c.kind, c.value.clone()));
            let rec = if first {
                run.candidates += 1;
                lock(&shared.totals).candidates += 1;
                Record::Candidate(CandidateRecord {
                    in_scope: self.in_scope(c.kind, &c.value),
                    kind: c.kind,
                    relation: c.relation,
                    value: c.value,
                    hints: c.hints,
                    flags: c.flags,
                    evidence,
                })
            } else {
                lock(&shared.totals).evidence += 1;
                Record::Evidence(EvidenceRecord { kind: c.kind, relation: c.relation, value: c.value, evidence })
            };
            let _ = out.send(rec).await;
        }
        for f in report.follow_ups {
            run.queue.push_back(Pending { follow_up: f, hop: hop + 1, declared_by: meta.url.clone() });
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

impl OriginRun {
    fn new(label: String) -> OriginRun {
        OriginRun { label, queue: VecDeque::new(), documents: 0, candidates: 0, reachable: false, failures: Vec::new() }
    }
}
