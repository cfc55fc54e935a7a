//! What every unit of one scan shares: the map of visits, the candidates seen, the totals, the
//! frontier, the documents fetched (so verification reuses them), the verdicts not yet emitted,
//! and the per-origin calibrations.
//!
//! Memory: the candidates seen cost 16 bytes each (plus the table's slack, about 40 bytes per
//! distinct candidate in all), bounded per unit by `max_candidates_per_unit`; a visit costs its
//! key and a small outcome; a calibration about 100 bytes per origin that answered 2xx.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher, RandomState};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{Notify, OnceCell, watch};
use url::Url;
use wellknown_core::{CandidateKind, FetchMeta};

use crate::calibrate::Calibration;
use crate::context::Via;
use crate::frontier::Frontier;
use crate::verify;
use wellknown_records::UnitKind;
use wellknown_records::{Summary, VerificationRecord};

/// A unit's identity: its kind and label.
pub(crate) type UnitKey = (UnitKind, String);

/// A visit's identity: the probe and the key of what it fetches first ([`Shared::visit`]).
pub(crate) type VisitKey = (String, String);

/// Where a visit's outcome arrives.
pub(crate) type VisitWatch = watch::Receiver<Option<VisitOutcome>>;

/// What the documents of one (probe, URL) visit came to, for a unit that finds the visit already
/// made by another unit ([`Visit::Seen`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct VisitOutcome {
    /// The unit that made the requests.
    pub unit: String,
    /// Document records the visit produced.
    pub documents: usize,
    /// True when one of them had an HTTP response ([`crate::emit::answered`]: a redirect out of
    /// scope or into a refused private address included).
    pub answered: bool,
    /// Failure classes of those without a response.
    pub failures: Vec<String>,
}

impl VisitOutcome {
    /// The outcome of the documents `unit` fetched in one visit.
    pub fn of<'a>(unit: &str, metas: impl IntoIterator<Item = &'a FetchMeta>) -> VisitOutcome {
        let mut o = VisitOutcome { unit: unit.to_string(), ..VisitOutcome::default() };
        for meta in metas {
            o.documents += 1;
            crate::emit::note_answer(meta, &mut o.answered, &mut o.failures);
        }
        o
    }
}

/// The answer of [`Shared::visit`].
pub(crate) enum Visit {
    /// First visit: the caller fetches, then reports the outcome through the sender.
    First(watch::Sender<Option<VisitOutcome>>),
    /// Already made (or being made): its key and its outcome, once there.
    Seen(VisitKey, VisitWatch),
}

/// The per-origin calibration, computed once per scan by whichever unit asks first.
pub(crate) type CalibrationCell = Arc<OnceCell<Option<Arc<Calibration>>>>;

/// A virtual-host baseline, computed once per scan.
pub(crate) type BaselineCell = Arc<OnceCell<Option<Arc<crate::vhost::Baseline>>>>;

#[derive(Default)]
pub(crate) struct Shared {
    /// (probe, key of what it fetches) visited in this scan, with the outcome of the documents.
    visited: Mutex<HashMap<VisitKey, VisitWatch>>,
    /// Candidates seen in this scan, by a 128-bit digest of (kind, value): a scan of millions of
    /// candidates keeps 16 bytes for each instead of its value.
    seen: Mutex<HashSet<u128>>,
    seen_keys: (RandomState, RandomState),
    pub totals: Mutex<Summary>,
    pub frontier: Mutex<Frontier>,
    pub wake: Notify,
    /// Outcomes of document fetches by requested URL: a candidate URL fetched as a document needs
    /// no verification request.
    pub fetched: Mutex<HashMap<String, verify::Fetched>>,
    /// Verification verdicts reached and not yet emitted, by unit and position in the unit's order
    /// (a verdict is emitted once those before it are): an interrupted scan still writes them.
    pub verdicts: Mutex<HashMap<UnitKey, BTreeMap<usize, VerificationRecord>>>,
    /// Calibrations by origin (and virtual-host route): see `calibrate.rs`.
    calibrations: Mutex<HashMap<String, CalibrationCell>>,
    /// Virtual-host baselines by address and random name (`vhost.rs`).
    baselines: Mutex<HashMap<String, BaselineCell>>,
    /// Documents refused as `rate_limited`, to ask again (`--retry-rate-limited`).
    pub retries: Mutex<Vec<crate::schedule::Retry>>,
    /// Virtual-host tries made per revealing origin (`max_vhost_tries_per_origin`).
    pub vhost_tries: Mutex<HashMap<String, usize>>,
}

/// Locks `m`, taking the data of a poisoned lock (a panicking unit leaves consistent counters).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// Marks (probe, url) visited, `url` being the first location the probe fetches for its target
    /// (so two issuers that name the same metadata URLs, `https://a.example/t` and
    /// `https://a.example/t/`, or an origin and its root issuer, are one visit). [`Visit::Seen`]
    /// when it already was. Requests routed to a virtual-host address are keyed apart: the same
    /// URL failed when resolved normally.
    pub fn visit(&self, probe: &str, url: &Url, via: Option<&Via>) -> Visit {
        match lock(&self.visited).entry(visit_key(probe, url, via)) {
            std::collections::hash_map::Entry::Occupied(e) => Visit::Seen(e.key().clone(), e.get().clone()),
            std::collections::hash_map::Entry::Vacant(e) => {
                let (tx, rx) = watch::channel(None);
                e.insert(rx);
                Visit::First(tx)
            }
        }
    }

    /// True when (probe, url) was visited (or is being visited) in this scan: see [`Shared::visit`].
    pub fn visited(&self, probe: &str, url: &Url, via: Option<&Via>) -> bool {
        lock(&self.visited).contains_key(&visit_key(probe, url, via))
    }

    /// True the first time (kind, value) is seen in this scan.
    pub fn first_sighting(&self, kind: CandidateKind, value: &str) -> bool {
        lock(&self.seen).insert(seen_key(&self.seen_keys, kind, value))
    }

    /// The calibration cell of `key` (an origin, or an origin through a virtual-host route).
    pub fn calibration(&self, key: &str) -> CalibrationCell {
        Arc::clone(lock(&self.calibrations).entry(key.to_string()).or_default())
    }

    /// The virtual-host baseline cell of `key` (`vhost.rs`).
    pub fn calibration_baseline(&self, key: &str) -> BaselineCell {
        Arc::clone(lock(&self.baselines).entry(key.to_string()).or_default())
    }

    /// A verification of `unit` finished: its `sent` requests are counted at once (an interrupted
    /// scan counts every request answered before the signal) and its verdict waits, at position
    /// `seq`, to be emitted in the unit's order.
    pub fn verdict_reached(&self, unit: &UnitKey, seq: usize, record: VerificationRecord, sent: usize) {
        if sent > 0 {
            lock(&self.totals).verification_requests += sent;
        }
        lock(&self.verdicts).entry(unit.clone()).or_default().insert(seq, record);
    }

    /// The verdicts still waiting when the scan was interrupted, by unit, each unit's in order.
    pub fn take_pending_verdicts(&self) -> Vec<VerificationRecord> {
        let mut pending: Vec<(UnitKey, BTreeMap<usize, VerificationRecord>)> =
            std::mem::take(&mut *lock(&self.verdicts)).into_iter().collect();
        pending.sort_by(|a, b| a.0.1.cmp(&b.0.1));
        pending.into_iter().flat_map(|(_, m)| m.into_values()).collect()
    }
}

fn visit_key(probe: &str, url: &Url, via: Option<&Via>) -> VisitKey {
    let key = match via {
        Some(v) => format!("via {} {url}", v.address),
        None => url.as_str().to_string(),
    };
    (probe.to_string(), key)
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
