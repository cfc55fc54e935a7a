//! What a scan has done so far, for a progress display: counters the engine updates as it goes and
//! a reader (the binary's progress line) samples. Reading never blocks the scan for long: counters
//! are atomics, and the units in flight a small map locked briefly.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::shared::lock;

/// A scan's progress (see [`crate::Engine::progress`]).
#[derive(Debug, Default)]
pub struct Progress {
    /// Units known to the scan: the seeds, and every unit a document queued.
    units_known: AtomicUsize,
    /// Of those, the ones documents queued (revealed).
    revealed: AtomicUsize,
    /// Units finished.
    units_done: AtomicUsize,
    /// Document records emitted.
    documents: AtomicUsize,
    /// Units in flight, with when each started.
    running: Mutex<HashMap<String, Instant>>,
}

/// One sample of [`Progress`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressSnapshot {
    /// Units finished.
    pub units_done: usize,
    /// Units known (finished, running and queued).
    pub units_known: usize,
    /// Units queued by documents (part of `units_known`).
    pub revealed: usize,
    /// Document records emitted.
    pub documents: usize,
    /// Units in flight.
    pub running: usize,
    /// The unit in flight the longest, and for how long.
    pub slowest: Option<(String, Duration)>,
}

impl Progress {
    pub(crate) fn known(&self, n: usize, revealed: bool) {
        self.units_known.fetch_add(n, Ordering::Relaxed);
        if revealed {
            self.revealed.fetch_add(n, Ordering::Relaxed);
        }
    }

    pub(crate) fn started(&self, label: &str) {
        self.started_at(label, Instant::now());
    }

    /// [`Progress::started`] at a given instant (tests give their own instead of sleeping).
    fn started_at(&self, label: &str, at: Instant) {
        lock(&self.running).insert(label.to_string(), at);
    }

    pub(crate) fn finished(&self, label: &str) {
        lock(&self.running).remove(label);
        self.units_done.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn document(&self) {
        self.documents.fetch_add(1, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let running = lock(&self.running);
        let slowest = running.iter().min_by_key(|(_, t)| **t).map(|(label, t)| (label.clone(), t.elapsed()));
        ProgressSnapshot {
            units_done: self.units_done.load(Ordering::Relaxed),
            units_known: self.units_known.load(Ordering::Relaxed),
            revealed: self.revealed.load(Ordering::Relaxed),
            documents: self.documents.load(Ordering::Relaxed),
            running: running.len(),
            slowest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_counts_units_and_names_the_oldest_running() {
        let p = Progress::default();
        p.known(2, false);
        p.known(3, true);
        // Two start instants 2 ms apart, given rather than slept for.
        let t = Instant::now();
        p.started_at("https://a.example", t);
        p.started_at("https://b.example", t + Duration::from_millis(2));
        p.document();
        let s = p.snapshot();
        assert_eq!((s.units_known, s.revealed, s.units_done, s.documents, s.running), (5, 3, 0, 1, 2));
        assert_eq!(s.slowest.map(|(l, _)| l), Some("https://a.example".to_string()));
        p.finished("https://a.example");
        let s = p.snapshot();
        assert_eq!((s.units_done, s.running), (1, 1));
        assert_eq!(s.slowest.map(|(l, _)| l), Some("https://b.example".to_string()));
    }
}
