//! The progress line on standard error (a terminal only): a spinner that always moves, with the
//! elapsed time, units done out of those known (`+N revealed`: the total grows as documents reveal
//! units, so no percentage stalls near 99 %), documents, requests in flight, bytes received, and
//! the unit in flight the longest, by name.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wellknown_engine::{Progress, ProgressSnapshot};

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(200);

/// Requests in flight and bytes received, counted by the transport.
#[derive(Debug, Default)]
pub struct NetStats {
    in_flight: AtomicUsize,
    bytes: AtomicU64,
}

impl NetStats {
    /// A request starts.
    pub fn start(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// A request ended, with `bytes` of body received.
    pub fn end(&self, bytes: u64) {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    fn sample(&self) -> (usize, u64) {
        (self.in_flight.load(Ordering::Relaxed), self.bytes.load(Ordering::Relaxed))
    }
}

/// The line for one sample: `12/40 units (+28 revealed) · 311 documents · 9 requests in flight ·
/// 1.2 MiB received · slowest: https://slow.example (41 s)`.
pub fn line(p: &ProgressSnapshot, in_flight: usize, bytes: u64) -> String {
    let revealed = if p.revealed > 0 { format!(" (+{} revealed)", p.revealed) } else { String::new() };
    let slowest = match &p.slowest {
        Some((label, t)) if t.as_secs() >= 2 => format!(" · slowest: {label} ({} s)", t.as_secs()),
        _ => String::new(),
    };
    format!(
        "{}/{} units{revealed} · {} documents · {in_flight} requests in flight · {} received{slowest}",
        p.units_done,
        p.units_known,
        p.documents,
        human_bytes(bytes)
    )
}

fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut v = n as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 { format!("{n} B") } else { format!("{v:.1} {}", UNITS[i]) }
}

/// Starts the progress line (hidden when `quiet` or standard error is not a terminal); it redraws
/// itself until [`ProgressBar::finish_and_clear`].
pub fn start(progress: Arc<Progress>, net: Arc<NetStats>, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {wide_msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(TICK);
    let b = bar.clone();
    tokio::spawn(async move {
        while !b.is_finished() {
            let (in_flight, bytes) = net.sample();
            b.set_message(line(&progress.snapshot(), in_flight, bytes));
            tokio::time::sleep(TICK).await;
        }
    });
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_counts_units_against_a_growing_total_and_names_the_slowest() {
        let p = ProgressSnapshot {
            units_done: 12,
            units_known: 40,
            revealed: 28,
            documents: 311,
            running: 3,
            slowest: Some(("https://slow.example".into(), Duration::from_secs(41))),
        };
        assert_eq!(
            line(&p, 9, 1_258_291),
            "12/40 units (+28 revealed) · 311 documents · 9 requests in flight · 1.2 MiB received · slowest: \
             https://slow.example (41 s)"
        );
        let p = ProgressSnapshot { revealed: 0, slowest: None, ..p };
        assert_eq!(line(&p, 0, 10), "12/40 units · 311 documents · 0 requests in flight · 10 B received");
    }
}
