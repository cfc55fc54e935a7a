//! Per-host politeness shared by every request of a fetcher: a concurrency limit, request spacing
//! (rate), crawl delays set by the engine, and back-off after 429/503.
//!
//! Model: each host key owns a semaphore of `max_concurrent_per_host` permits and a schedule. A
//! request first takes a permit (held until its body is read), then reserves the next start slot:
//! `max(now, previous slot + interval, blocked_until)`, where `interval` is the larger of
//! `1 / max_rate_per_host` and the host's crawl delay. A 429/503 answer pushes `blocked_until`
//! forward, so every later request to the host waits too, not only the retry. A 429/503 whose
//! `Retry-After` is longer than the fetcher waits marks the host rate-limited instead
//! ([`RateLimit`]): its requests are then refused without waiting until the delay has passed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use jiff::Timestamp;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// The longest wait any single setting can impose (keeps `Instant` arithmetic from overflowing).
const MAX_WAIT: Duration = Duration::from_secs(7 * 24 * 3600);

/// `t + d`, with `d` cut to a week.
pub(crate) fn later(t: Instant, d: Duration) -> Instant {
    t + d.min(MAX_WAIT)
}

#[derive(Debug)]
struct Schedule {
    /// Earliest start of the next request (rate spacing).
    next_start: Option<Instant>,
    /// No request starts before this instant (back-off).
    blocked_until: Option<Instant>,
    /// Crawl delay set for this host, if any.
    delay: Option<Duration>,
    /// Set by a `Retry-After` longer than the fetcher waits; ends at the instant.
    limited: Option<(RateLimit, Instant)>,
}

/// A host that answered 429 or 503 with a `Retry-After` longer than the fetcher's
/// `max_retry_after` (RFC 9110 section 10.2.3): until the delay has passed, every request to it
/// fails at once with class `rate_limited` and nothing is sent. What
/// [`crate::Fetcher::rate_limited`] answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimit {
    /// The status that asked for the delay: 429 or 503.
    pub status: u16,
    /// The delay asked for, in seconds (an HTTP-date counted from when the answer arrived).
    pub retry_after_secs: u64,
    /// When that answer arrived (UTC).
    pub since: Timestamp,
    /// When the delay ends (UTC): `since` plus the delay, or the latest representable instant.
    pub until: Timestamp,
}

impl RateLimit {
    /// A limit asked for at `since` by `status` with a delay of `retry_after_secs`.
    pub fn new(status: u16, retry_after_secs: u64, since: Timestamp) -> RateLimit {
        let until = i64::try_from(retry_after_secs)
            .ok()
            .and_then(|s| since.checked_add(jiff::SignedDuration::from_secs(s)).ok())
            .unwrap_or(Timestamp::MAX);
        RateLimit { status, retry_after_secs, since, until }
    }

    /// How long until the delay ends, judged at `now` (zero once it has passed).
    pub fn remaining(&self, now: Timestamp) -> Duration {
        Duration::try_from(self.until.duration_since(now)).unwrap_or(Duration::ZERO)
    }
}

#[derive(Debug)]
struct HostState {
    permits: Arc<Semaphore>,
    schedule: Mutex<Schedule>,
}

/// Held while a request to a host is in flight; releasing it frees a concurrency slot.
#[derive(Debug)]
pub(crate) struct HostPermit {
    _permit: Option<OwnedSemaphorePermit>,
}

/// The per-host budgets of one fetcher.
#[derive(Debug)]
pub(crate) struct Politeness {
    hosts: Mutex<HashMap<String, Arc<HostState>>>,
    max_concurrent: usize,
    interval: Duration,
}

impl Politeness {
    pub(crate) fn new(max_concurrent: usize, max_rate: f64) -> Politeness {
        let interval = if max_rate.is_finite() && max_rate > 0.0 {
            Duration::try_from_secs_f64(1.0 / max_rate).unwrap_or(Duration::ZERO)
        } else {
            Duration::ZERO
        };
        Politeness { hosts: Mutex::new(HashMap::new()), max_concurrent: max_concurrent.max(1), interval }
    }

    fn state(&self, key: &str) -> Arc<HostState> {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        hosts
            .entry(key.to_ascii_lowercase())
            .or_insert_with(|| {
                Arc::new(HostState {
                    permits: Arc::new(Semaphore::new(self.max_concurrent)),
                    schedule: Mutex::new(Schedule {
                        next_start: None,
                        blocked_until: None,
                        delay: None,
                        limited: None,
                    }),
                })
            })
            .clone()
    }

    /// Waits for a concurrency slot and the next start slot of `key`.
    pub(crate) async fn acquire(&self, key: &str) -> HostPermit {
        let state = self.state(key);
        // The semaphore is never closed, so `ok()` only guards against the impossible.
        let permit = state.permits.clone().acquire_owned().await.ok();
        let start = {
            let mut s = state.schedule.lock().unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            let mut start = now;
            if let Some(n) = s.next_start {
                start = start.max(n);
            }
            if let Some(b) = s.blocked_until {
                start = start.max(b);
            }
            let interval = self.interval.max(s.delay.unwrap_or(Duration::ZERO));
            s.next_start = Some(later(start, interval));
            start
        };
        tokio::time::sleep_until(start).await;
        // A back-off may have been set while we slept (another request got a 429).
        loop {
            let blocked = state.schedule.lock().unwrap_or_else(PoisonError::into_inner).blocked_until;
            match blocked {
                Some(b) if b > Instant::now() => tokio::time::sleep_until(b).await,
                _ => break,
            }
        }
        HostPermit { _permit: permit }
    }

    /// No request to `key` starts before `now + wait`.
    pub(crate) fn back_off(&self, key: &str, wait: Duration) {
        let state = self.state(key);
        let until = later(Instant::now(), wait);
        let mut s = state.schedule.lock().unwrap_or_else(PoisonError::into_inner);
        s.blocked_until = Some(s.blocked_until.map_or(until, |b| b.max(until)));
    }

    /// Marks `key` rate-limited by `limit` for `wait` from now (a later end already set is kept).
    pub(crate) fn limit(&self, key: &str, limit: RateLimit, wait: Duration) {
        let state = self.state(key);
        let ends = later(Instant::now(), wait);
        let mut s = state.schedule.lock().unwrap_or_else(PoisonError::into_inner);
        if s.limited.as_ref().is_none_or(|(_, e)| *e < ends) {
            s.limited = Some((limit, ends));
        }
    }

    /// The rate limit of `key` while it lasts (an ended one is cleared).
    pub(crate) fn limited(&self, key: &str) -> Option<RateLimit> {
        let state =
            self.hosts.lock().unwrap_or_else(PoisonError::into_inner).get(&key.to_ascii_lowercase()).cloned()?;
        let mut s = state.schedule.lock().unwrap_or_else(PoisonError::into_inner);
        match &s.limited {
            Some((limit, ends)) if *ends > Instant::now() => Some(limit.clone()),
            Some(_) => {
                s.limited = None;
                None
            }
            None => None,
        }
    }

    /// Sets (or with `None` clears) the minimum spacing between request starts to `key`.
    pub(crate) fn set_delay(&self, key: &str, delay: Option<Duration>) {
        let state = self.state(key);
        state.schedule.lock().unwrap_or_else(PoisonError::into_inner).delay = delay;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn spaces_requests_by_rate() {
        let p = Politeness::new(10, 2.0);
        let t0 = Instant::now();
        for _ in 0..3 {
            drop(p.acquire("a.test").await);
        }
        assert_eq!(Instant::now() - t0, Duration::from_secs(1));
        // Another host has its own budget.
        let t1 = Instant::now();
        drop(p.acquire("b.test").await);
        assert_eq!(Instant::now(), t1);
    }

    #[tokio::test(start_paused = true)]
    async fn crawl_delay_and_back_off() {
        let p = Politeness::new(10, 0.0);
        p.set_delay("a.test", Some(Duration::from_secs(3)));
        let t0 = Instant::now();
        drop(p.acquire("A.test").await);
        drop(p.acquire("a.test").await);
        assert_eq!(Instant::now() - t0, Duration::from_secs(3));
        p.back_off("a.test", Duration::from_secs(10));
        drop(p.acquire("a.test").await);
        assert_eq!(Instant::now() - t0, Duration::from_secs(13));
    }

    #[tokio::test(start_paused = true)]
    async fn a_rate_limit_lasts_its_delay() {
        let p = Politeness::new(10, 0.0);
        assert_eq!(p.limited("a.test"), None);
        let since: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let limit = RateLimit::new(429, 3600, since);
        assert_eq!(limit.until, "2026-01-01T01:00:00Z".parse::<Timestamp>().unwrap());
        assert_eq!(limit.remaining("2026-01-01T00:59:00Z".parse().unwrap()), Duration::from_secs(60));
        assert_eq!(limit.remaining("2026-01-02T00:00:00Z".parse().unwrap()), Duration::ZERO);
        p.limit("a.test", limit.clone(), Duration::from_secs(3600));
        p.limit("a.test", RateLimit::new(503, 10, since), Duration::from_secs(10));
        assert_eq!(p.limited("A.test"), Some(limit), "the later end is kept");
        assert_eq!(p.limited("b.test"), None);
        tokio::time::sleep(Duration::from_secs(3599)).await;
        assert!(p.limited("a.test").is_some());
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(p.limited("a.test"), None);
        assert_eq!(RateLimit::new(429, u64::MAX, since).until, Timestamp::MAX);
    }

    #[tokio::test(start_paused = true)]
    async fn absurd_settings_do_not_overflow() {
        let p = Politeness::new(1, 1e-15);
        drop(p.acquire("a.test").await);
        p.set_delay("a.test", Some(Duration::MAX));
        p.back_off("a.test", Duration::MAX);
        assert!(later(Instant::now(), Duration::MAX) > Instant::now());
    }

    #[tokio::test(start_paused = true)]
    async fn concurrency_is_limited() {
        let p = Arc::new(Politeness::new(1, 0.0));
        let first = p.acquire("a.test").await;
        let p2 = p.clone();
        let waiter = tokio::spawn(async move { p2.acquire("a.test").await });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished());
        drop(first);
        assert!(waiter.await.is_ok());
    }
}
