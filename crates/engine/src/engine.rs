//! The scan loop across units: a frontier of units (origins, issuers) scanned `concurrency` at a
//! time; each unit's own schedule is in `schedule.rs`; revealed hosts, origins and issuers feed
//! back into the frontier (`frontier.rs`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use wellknown_core::{Origin, WellKnownProbe, probes};

use crate::config::ScanConfig;
use crate::context::{Net, ScanContext, Via};
use crate::frontier::Known;
use crate::progress::Progress;
use crate::shared::{Shared, lock};
use crate::transport::{Clock, Transport};
use crate::unit::RunPlan;
use wellknown_records::{OriginRecord, Record, Summary};
use wellknown_records::{Unit, UnitKind};

pub use crate::emit::{CATCH_ALL_CODE, CATCH_ALL_FLAG, PRIVATE_ADDRESS_FLAG, REDIRECT_RELATION};

/// The instant `budget` from now (a week at most, so the arithmetic cannot overflow).
pub(crate) fn deadline(budget: Duration) -> tokio::time::Instant {
    tokio::time::Instant::now() + budget.min(Duration::from_secs(7 * 24 * 3600))
}

/// Runs scans. Cheap to share behind an `Arc`.
pub struct Engine {
    pub(crate) net: Arc<Net>,
    pub(crate) config: ScanConfig,
    pub(crate) probes: Vec<&'static dyn WellKnownProbe>,
    pub(crate) progress: Arc<Progress>,
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
    /// (see [`wellknown_records::recognised`]; every candidate comes from such a document unless the
    /// document was a soft 404). Soft-404 HTML pages, 404s and failures alone are nothing.
    pub fn found_something(&self) -> bool {
        self.summary.documents_recognised > 0
    }
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
        Ok(Engine { net, config, probes: selected, progress: Arc::default() })
    }

    /// The probes this engine runs, in registration order.
    pub fn probes(&self) -> &[&'static dyn WellKnownProbe] {
        &self.probes
    }

    /// The scan's progress so far, for a display that samples it ([`Progress::snapshot`]).
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
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
                    self.progress.known(1, false);
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
                let next = lock(&shared.frontier).next(origins_running);
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
                if lock(&shared.frontier).is_empty() {
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
        if !interrupted && self.config.retry_rate_limited {
            interrupted = self.retry_rate_limited(&shared, &out, &mut stop).await;
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

    /// `--retry-rate-limited`: once the longest `Retry-After` of the documents refused as
    /// `rate_limited` has passed, asks them again, one retry unit per unit that met them,
    /// `concurrency` at a time. Returns true when `stop` came first.
    async fn retry_rate_limited(
        self: &Arc<Self>,
        shared: &Arc<Shared>,
        out: &mpsc::Sender<Record>,
        stop: &mut std::pin::Pin<&mut (impl Future<Output = ()> + Send)>,
    ) -> bool {
        let retries = std::mem::take(&mut *lock(&shared.retries));
        if retries.is_empty() {
            return false;
        }
        let wait = retries.iter().filter_map(|r| self.net.transport.rate_limited_for(&r.host)).max();
        if let Some(wait) = wait {
            tracing::info!(?wait, documents = retries.len(), "waiting for Retry-After before asking again");
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = stop.as_mut() => return true,
            }
        }
        let mut by_unit: std::collections::BTreeMap<String, Vec<crate::schedule::Retry>> = Default::default();
        for r in retries {
            by_unit.entry(r.unit.label()).or_default().push(r);
        }
        let mut tasks = JoinSet::new();
        let mut groups = by_unit.into_iter();
        loop {
            while tasks.len() < self.config.concurrency.max(1) {
                let Some((_, group)) = groups.next() else { break };
                let (engine, shared, out) = (Arc::clone(self), Arc::clone(shared), out.clone());
                tasks.spawn(async move { engine.scan_retry(group, &shared, &out).await });
            }
            tokio::select! {
                done = tasks.join_next() => if done.is_none() { return false },
                () = stop.as_mut() => {
                    tasks.shutdown().await;
                    return true;
                }
            }
        }
    }

    pub(crate) fn context(&self, via: Option<Via>) -> ScanContext {
        ScanContext { net: Arc::clone(&self.net), via, reach: Arc::default() }
    }
}
