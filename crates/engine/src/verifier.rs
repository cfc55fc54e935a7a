//! A unit's verification queue: candidate URLs are verified while the unit's discovery goes on,
//! `verify_concurrency` at a time (each request still waits for its host's politeness budget), and
//! their verdicts are emitted in the order the URLs were dispatched.
//!
//! A URL the unit has queued as a follow-up document waits until discovery ends: by then the
//! document's own fetch is its verdict (`source: "document"`) and no request is sent for it. A URL
//! past the unit's `max_verifications_per_unit` requests is counted as skipped (no record).

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use url::Url;
use wellknown_core::CandidateKind;

use crate::budget::{Budget, Spent};
use crate::context::ScanContext;
use crate::shared::{Shared, UnitKey, lock};
use crate::verify;
use wellknown_records::Record;

/// The verification state of one unit.
pub(crate) struct Verifier {
    unit: UnitKey,
    set: JoinSet<()>,
    /// Offered, not dispatched yet.
    pending: VecDeque<(CandidateKind, String)>,
    /// Waiting for discovery to end (their URL is one of the unit's follow-ups).
    deferred: Vec<(CandidateKind, String)>,
    /// Requests dispatched (the budget counts these).
    requests: usize,
    /// Position of the next verdict dispatched.
    seq: usize,
    /// Position of the next verdict to emit.
    pub emitted: usize,
    /// Candidate URLs not verified for the budget.
    pub skipped: usize,
}

impl Verifier {
    pub fn new(unit: UnitKey) -> Verifier {
        Verifier {
            unit,
            set: JoinSet::new(),
            pending: VecDeque::new(),
            deferred: Vec::new(),
            requests: 0,
            seq: 0,
            emitted: 0,
            skipped: 0,
        }
    }

    /// A candidate URL to verify.
    pub fn offer(&mut self, kind: CandidateKind, value: String) {
        self.pending.push_back((kind, value));
    }

    /// True when nothing is pending, deferred or in flight.
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty() && self.deferred.is_empty() && self.set.is_empty()
    }

    /// True when requests are in flight.
    pub fn busy(&self) -> bool {
        !self.set.is_empty()
    }

    /// Dispatches pending URLs while fewer than `limit` requests are in flight. `follow_ups`: the
    /// unit's follow-up URLs (deferred while `discovering`); `discovering` false also releases the
    /// deferred ones.
    pub fn dispatch(
        &mut self,
        cx: &ScanContext,
        shared: &Arc<Shared>,
        follow_ups: &HashSet<String>,
        discovering: bool,
        (max_requests, limit): (usize, usize),
        spent: &mut Spent,
    ) {
        if !discovering && !self.deferred.is_empty() {
            let mut d = std::mem::take(&mut self.deferred);
            d.extend(self.pending.drain(..));
            self.pending = d.into();
        }
        let label = self.unit.1.clone();
        while self.set.len() < limit.max(1) {
            let Some((kind, value)) = self.pending.pop_front() else { return };
            let Ok(url) = Url::parse(&value) else { continue };
            if !cx.net.scope.contains_url(&url) {
                // Not a candidate for verification (filtered when offered); never requested.
                continue;
            }
            let fetched = lock(&shared.fetched).get(&value).map(|f| verify::from_document(kind, &value, &label, f));
            if let Some(rec) = fetched {
                shared.verdict_reached(&self.unit, self.seq, rec, 0);
                self.seq += 1;
                continue;
            }
            if discovering && follow_ups.contains(&value) {
                self.deferred.push((kind, value));
                continue;
            }
            if self.requests >= max_requests {
                // Over the budget: not requested, no record (the value stays unverified); counted.
                self.skipped += 1;
                spent.skip(Budget::Verifications, 1);
                lock(&shared.totals).verifications_skipped += 1;
                continue;
            }
            self.requests += 1;
            let (cx, label) = (cx.clone(), label.clone());
            let (shared, unit, at) = (Arc::clone(shared), self.unit.clone(), self.seq);
            self.seq += 1;
            self.set.spawn(async move {
                let (rec, sent) = verify::request(&cx, kind, &value, url, &label).await;
                shared.verdict_reached(&unit, at, rec, sent);
            });
        }
    }

    /// Waits for one verification request to finish (pending forever when none is in flight, so it
    /// can stand in a `select!`).
    pub async fn join_one(&mut self) {
        if self.set.join_next().await.is_none() {
            std::future::pending::<()>().await;
        }
    }

    /// Emits the unit's verdicts that are next in its order.
    pub async fn emit_ready(&mut self, shared: &Shared, out: &mpsc::Sender<Record>) {
        loop {
            let next = lock(&shared.verdicts).get(&self.unit).and_then(|m| m.get(&self.emitted)).cloned();
            let Some(rec) = next else { return };
            // `send` is cancel-safe: a unit abandoned while sending sent nothing, and the verdict is
            // still pending for the interrupted summary's flush.
            let _ = out.send(Record::Verification(rec)).await;
            if let Some(m) = lock(&shared.verdicts).get_mut(&self.unit) {
                m.remove(&self.emitted);
            }
            self.emitted += 1;
            lock(&shared.totals).verifications += 1;
        }
    }

    /// The unit ran out of time: requests in flight are abandoned and every URL not verified is
    /// counted skipped (returned, for the time budget's count).
    pub fn abandon(&mut self, shared: &Shared) -> u64 {
        self.set.abort_all();
        let n = self.pending.len() + self.deferred.len();
        self.pending.clear();
        self.deferred.clear();
        // Verdicts dispatched but never reached will not come: emit none of those after them.
        let reached_upto = lock(&shared.verdicts).get(&self.unit).map_or(0, |m| m.len());
        let abandoned = self.seq.saturating_sub(self.emitted).saturating_sub(reached_upto);
        self.skipped += n;
        lock(&shared.totals).verifications_skipped += n;
        u64::try_from(n + abandoned).unwrap_or(u64::MAX)
    }

    /// Emits every verdict reached, in order, gaps left by abandoned requests skipped (after
    /// [`Verifier::abandon`]).
    pub async fn emit_all_reached(&mut self, shared: &Shared, out: &mpsc::Sender<Record>) {
        let rest: Vec<_> =
            lock(&shared.verdicts).remove(&self.unit).map(|m| m.into_values().collect()).unwrap_or_default();
        for rec in rest {
            let _ = out.send(Record::Verification(rec)).await;
            self.emitted += 1;
            lock(&shared.totals).verifications += 1;
        }
    }

    /// Drops the unit's remaining verdict slots (once the unit is done).
    pub fn forget(&self, shared: &Shared) {
        lock(&shared.verdicts).remove(&self.unit);
    }
}
