//! The minimum transfer rate of one hop: what ends a trickle (`slow_transfer`) or a silent
//! connection (`timeout`) before the hop's deadline.
//!
//! Rule: from `grace` after the hop's start, and once its connection has been attached for a whole
//! window, the bytes read from the connection over the last `window` (half the grace) must reach
//! `min_rate` x `window`. They are sampled every quarter window, so the window judged is between
//! one window and a window and a quarter long. Below the rate with some bytes is a trickle; with
//! none, silence. Bytes are those the connection read ([`ConnStats`]), so a response head dripped
//! byte by byte is seen as it drips.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use crate::connect::ConnStats;
use crate::politeness::later;

/// The shortest grace and sampling interval (keeps a zero setting from spinning).
const MIN_STEP: Duration = Duration::from_millis(1);

/// The settings of the rule, from `min_transfer_rate` and `slow_transfer_grace`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RateRule {
    /// Bytes per second.
    pub min_rate: u64,
    /// From the hop's start to the first judgment.
    pub grace: Duration,
    /// The span judged: half the grace.
    pub window: Duration,
    /// Sampling interval: a quarter window.
    step: Duration,
}

impl RateRule {
    /// The rule, or None when `min_rate` is 0 (off).
    pub(crate) fn new(min_rate: u64, grace: Duration) -> Option<RateRule> {
        if min_rate == 0 {
            return None;
        }
        let grace = grace.max(MIN_STEP * 2);
        let window = grace / 2;
        Some(RateRule { min_rate, grace, window, step: (window / 4).max(MIN_STEP) })
    }
}

/// Why a watched hop was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The hop's deadline (`timeout`) passed.
    Deadline,
    /// Nothing was read during `span` (at least a window), after the grace.
    Silent { span: Duration },
    /// `bytes` were read during `span`, fewer than the minimum rate asks.
    Slow { bytes: u64, span: Duration },
}

/// Counts one hop's bytes across the connections it used (a reused connection that failed is
/// replaced by a new one) and judges them by the [`RateRule`].
pub(crate) struct Meter {
    rule: Option<RateRule>,
    start: Instant,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    conn: Option<Arc<ConnStats>>,
    /// `conn`'s count when it was attached.
    base: u64,
    /// Bytes read by connections attached before `conn`.
    earlier: u64,
    attached_at: Option<Instant>,
    /// (instant, bytes read by then), oldest first; the first one is the latest at or before the
    /// start of the current window.
    samples: VecDeque<(Instant, u64)>,
}

impl State {
    fn received(&self) -> u64 {
        self.earlier + self.conn.as_ref().map_or(0, |c| c.received().saturating_sub(self.base))
    }
}

impl Meter {
    /// A meter for a hop that starts at `start` (when politeness lets it start).
    pub(crate) fn new(rule: Option<RateRule>, start: Instant) -> Meter {
        Meter { rule, start, state: Mutex::new(State::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts from now on what `conn` reads (the connection the hop's request is sent on).
    pub(crate) fn attach(&self, conn: &Arc<ConnStats>) {
        let now = Instant::now();
        let mut s = self.lock();
        s.earlier = s.received();
        s.base = conn.received();
        s.conn = Some(Arc::clone(conn));
        s.attached_at = Some(now);
        let received = s.received();
        s.samples.push_back((now, received));
    }

    /// Bytes read for this hop so far.
    pub(crate) fn received(&self) -> u64 {
        self.lock().received()
    }

    /// How long since the hop started.
    pub(crate) fn elapsed(&self) -> Duration {
        Instant::now().saturating_duration_since(self.start)
    }

    /// Closes the hop's HTTP/1.1 connection (see [`ConnStats::close`]): the hop was given up.
    pub(crate) fn close_connection(&self) {
        if let Some(c) = &self.lock().conn {
            c.close();
        }
    }

    /// Samples the count at `now` and judges it.
    fn check(&self, now: Instant) -> Option<Stop> {
        let rule = self.rule?;
        let mut s = self.lock();
        let attached_at = s.attached_at?;
        let received = s.received();
        s.samples.push_back((now, received));
        if let Some(window_start) = now.checked_sub(rule.window) {
            while s.samples.len() > 1 && s.samples.get(1).is_some_and(|(t, _)| *t <= window_start) {
                s.samples.pop_front();
            }
        }
        if now < later(self.start, rule.grace) || now < later(attached_at, rule.window) {
            return None;
        }
        let (since, then) = *s.samples.front()?;
        let span = now.saturating_duration_since(since);
        let bytes = received.saturating_sub(then);
        let needed = rule.min_rate as f64 * span.as_secs_f64();
        match bytes {
            0 => Some(Stop::Silent { span }),
            b if (b as f64) < needed => Some(Stop::Slow { bytes: b, span }),
            _ => None,
        }
    }
}

/// Runs `fut` until it completes, the `deadline` passes or the meter's rule stops it.
pub(crate) async fn watch<F: Future>(meter: &Meter, deadline: Instant, fut: F) -> Result<F::Output, Stop> {
    let mut fut = std::pin::pin!(fut);
    loop {
        let wake = meter.rule.map_or(deadline, |r| deadline.min(later(Instant::now(), r.step)));
        match tokio::time::timeout_at(wake, fut.as_mut()).await {
            Ok(out) => return Ok(out),
            Err(_) => {
                let now = Instant::now();
                if now >= deadline {
                    return Err(Stop::Deadline);
                }
                if let Some(stop) = meter.check(now) {
                    return Err(stop);
                }
            }
        }
    }
}

/// `d` in seconds with one decimal (`2.5 s`), for failure messages.
pub(crate) fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn() -> Arc<ConnStats> {
        Arc::new(ConnStats::default())
    }

    #[test]
    fn off_at_zero_and_window_is_half_the_grace() {
        assert!(RateRule::new(0, Duration::from_secs(10)).is_none());
        let r = RateRule::new(1024, Duration::from_secs(10)).unwrap();
        assert_eq!((r.window, r.step), (Duration::from_secs(5), Duration::from_millis(1250)));
        let r = RateRule::new(1, Duration::ZERO).unwrap();
        assert_eq!((r.grace, r.window, r.step), (MIN_STEP * 2, MIN_STEP, MIN_STEP));
    }

    #[tokio::test(start_paused = true)]
    async fn silence_after_the_grace_stops_the_hop() {
        let m = Meter::new(RateRule::new(100, Duration::from_secs(2)), Instant::now());
        m.attach(&conn());
        let r = watch(&m, Instant::now() + Duration::from_secs(60), std::future::pending::<()>()).await;
        assert_eq!(r, Err(Stop::Silent { span: Duration::from_secs(1) }));
        assert_eq!(m.elapsed(), Duration::from_secs(2), "judged first at the end of the grace");
    }

    #[tokio::test(start_paused = true)]
    async fn nothing_is_judged_before_a_connection() {
        let m = Meter::new(RateRule::new(100, Duration::from_secs(2)), Instant::now());
        let r = watch(&m, Instant::now() + Duration::from_secs(5), std::future::pending::<()>()).await;
        assert_eq!(r, Err(Stop::Deadline));
        assert_eq!(m.received(), 0);
    }
}
