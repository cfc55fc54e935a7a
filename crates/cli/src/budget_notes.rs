//! Budgets on standard error: each `budget` record of a scan said in words as it arrives (the first
//! [`MAX_LINES`]; past them, one line counts the rest), so no cap stops work silently.

use indicatif::ProgressBar;
use wellknown_engine::describe_budget;
use wellknown_records::BudgetRecord;

/// Budget lines written in full before the rest are only counted.
pub const MAX_LINES: usize = 20;

/// The budget lines of one scan.
#[derive(Debug, Default)]
pub struct BudgetNotes {
    written: usize,
    more: usize,
}

impl BudgetNotes {
    /// Says `rec` on standard error (above the progress bar), or counts it past [`MAX_LINES`].
    pub fn note(&mut self, rec: &BudgetRecord, bar: &ProgressBar, quiet: bool) {
        if quiet {
            return;
        }
        if self.written < MAX_LINES {
            self.written += 1;
            bar.suspend(|| crate::note!("wellknown: budget: {}", describe_budget(rec)));
        } else {
            self.more += 1;
        }
    }

    /// The closing line when some budget lines were only counted.
    pub fn finish(&self, quiet: bool) {
        if !quiet && self.more > 0 {
            crate::note!(
                "wellknown: budget: {} more unit budget(s) reached (see the `budget` records and the summary's `budgets`)",
                self.more
            );
        }
    }
}
