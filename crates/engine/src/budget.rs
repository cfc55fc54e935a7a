//! Per-unit budgets: which ones stopped work, and how much they left undone.
//!
//! Every budget that stops anything is reported three ways: a `budget` record per unit and budget
//! (before the unit's `origin` record, which also lists them), the summary's `budgets` totals, and
//! (by the binary) a line on standard error. Nothing a budget skips is dropped silently.

use std::collections::BTreeMap;

use crate::config::ScanConfig;
use wellknown_records::BudgetRecord;
use wellknown_records::UnitKind;

/// A per-unit cap or budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Budget {
    /// The unit's wall-clock budget (`--origin-budget`).
    Time,
    /// Follow-up documents per unit (`--max-follow-ups`).
    FollowUps,
    /// Follow-up hops from the unit's own documents (`--max-hops`).
    FollowUpHops,
    /// Candidate sightings per unit (`--max-candidates`).
    Candidates,
    /// Units one document may queue (`--max-revealed-per-document`).
    RevealedPerDocument,
    /// Units one unit's documents may queue (`--max-revealed`).
    RevealedPerUnit,
    /// Virtual-host tries per revealing origin (`--max-vhost-tries`).
    VhostTries,
    /// Verification requests per unit (`--max-verify`).
    Verifications,
}

impl Budget {
    /// The name in records and the summary.
    pub fn name(self) -> &'static str {
        match self {
            Budget::Time => "time_per_origin",
            Budget::FollowUps => "follow_ups_per_origin",
            Budget::FollowUpHops => "follow_up_hops",
            Budget::Candidates => "candidates_per_origin",
            Budget::RevealedPerDocument => "revealed_per_document",
            Budget::RevealedPerUnit => "revealed_per_origin",
            Budget::VhostTries => "vhost_tries_per_origin",
            Budget::Verifications => "verifications_per_origin",
        }
    }

    /// What it leaves undone.
    pub fn skipped_what(self) -> &'static str {
        match self {
            Budget::Time => "documents",
            Budget::FollowUps | Budget::FollowUpHops => "follow_ups",
            Budget::Candidates => "candidates",
            Budget::RevealedPerDocument | Budget::RevealedPerUnit => "units",
            Budget::VhostTries => "vhost_tries",
            Budget::Verifications => "verifications",
        }
    }

    /// The flag that sets it.
    pub fn flag(self) -> &'static str {
        match self {
            Budget::Time => "--origin-budget",
            Budget::FollowUps => "--max-follow-ups",
            Budget::FollowUpHops => "--max-hops",
            Budget::Candidates => "--max-candidates",
            Budget::RevealedPerDocument => "--max-revealed-per-document",
            Budget::RevealedPerUnit => "--max-revealed",
            Budget::VhostTries => "--max-vhost-tries",
            Budget::Verifications => "--max-verify",
        }
    }

    /// The limit in force under `config` (milliseconds for [`Budget::Time`]).
    pub fn limit(self, config: &ScanConfig) -> u64 {
        let n = match self {
            Budget::Time => return u64::try_from(config.unit_budget.as_millis()).unwrap_or(u64::MAX),
            Budget::FollowUps => config.max_follow_ups_per_origin,
            Budget::FollowUpHops => return u64::from(config.max_follow_up_hops),
            Budget::Candidates => config.max_candidates_per_unit,
            Budget::RevealedPerDocument => config.max_revealed_per_document,
            Budget::RevealedPerUnit => config.max_revealed_per_unit,
            Budget::VhostTries => config.max_vhost_tries_per_origin,
            Budget::Verifications => config.max_verifications_per_unit,
        };
        u64::try_from(n).unwrap_or(u64::MAX)
    }
}

/// What budgets left undone in one unit, by budget and what was left (a budget may stop two
/// kinds of work: the candidate budget stops candidates and the follow-ups that would declare more).
#[derive(Debug, Default)]
pub(crate) struct Spent {
    skipped: BTreeMap<(Budget, &'static str), u64>,
}

impl Spent {
    /// `n` more of what `budget` stops ([`Budget::skipped_what`]) left undone.
    pub fn skip(&mut self, budget: Budget, n: u64) {
        self.skip_what(budget, budget.skipped_what(), n);
    }

    /// `n` more `what` left undone by `budget`.
    pub fn skip_what(&mut self, budget: Budget, what: &'static str, n: u64) {
        if n > 0 {
            *self.skipped.entry((budget, what)).or_default() += n;
        }
    }

    /// True when `budget` stopped something.
    pub fn hit(&self, budget: Budget) -> bool {
        self.skipped.keys().any(|(b, _)| *b == budget)
    }

    /// The unit's `budget` records, in a fixed order: one per budget and what it left undone.
    pub fn records(&self, unit: UnitKind, label: &str, config: &ScanConfig) -> Vec<BudgetRecord> {
        self.skipped
            .iter()
            .map(|(&(b, what), &n)| BudgetRecord {
                origin: label.to_string(),
                unit,
                budget: b.name(),
                limit: b.limit(config),
                skipped_what: what,
                skipped: n,
                flag: b.flag(),
            })
            .collect()
    }

    /// By name, for the `origin` record and the summary: the budget's name, or `name/what` for
    /// work other than its own (`candidates_per_origin/follow_ups`).
    pub fn by_name(&self) -> BTreeMap<String, u64> {
        self.skipped.iter().map(|(&(b, what), n)| (key(b, what), *n)).collect()
    }
}

/// The summary key of (budget, what): see [`Spent::by_name`].
pub(crate) fn key(b: Budget, what: &str) -> String {
    if what == b.skipped_what() { b.name().to_string() } else { format!("{}/{what}", b.name()) }
}

/// The words on standard error for one budget record: `https://a.example: follow_ups_per_origin
/// (10000) reached: 40000 follow_ups not fetched (raise with --max-follow-ups)`.
pub fn describe(rec: &BudgetRecord) -> String {
    let limit = if rec.budget == "time_per_origin" { format!("{} ms", rec.limit) } else { rec.limit.to_string() };
    let undone = match rec.skipped_what {
        "documents" => "documents or verifications abandoned or not started",
        "follow_ups" => "follow-up documents not fetched",
        "candidates" => "candidate sightings not recorded",
        "units" => "revealed units recorded but not scanned",
        "vhost_tries" => "virtual-host tries not made",
        "verifications" => "candidate URLs not verified",
        other => other,
    };
    format!("{}: {} ({limit}) reached: {} {undone} (raise with {})", rec.origin, rec.budget, rec.skipped, rec.flag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_name_the_budget_the_limit_and_what_was_skipped() {
        let config = ScanConfig { max_follow_ups_per_origin: 3, ..ScanConfig::default() };
        let mut spent = Spent::default();
        spent.skip(Budget::FollowUps, 40_000);
        spent.skip(Budget::Candidates, 0);
        spent.skip(Budget::Time, 2);
        let recs = spent.records(UnitKind::Origin, "https://a.example", &config);
        assert_eq!(recs.len(), 2, "a budget that skipped nothing has no record");
        assert_eq!((recs[0].budget, recs[0].limit, recs[0].skipped), ("time_per_origin", 300_000, 2));
        assert_eq!((recs[1].budget, recs[1].limit, recs[1].skipped), ("follow_ups_per_origin", 3, 40_000));
        assert_eq!(
            describe(&recs[1]),
            "https://a.example: follow_ups_per_origin (3) reached: 40000 follow-up documents not fetched \
             (raise with --max-follow-ups)"
        );
        assert!(spent.hit(Budget::Time) && !spent.hit(Budget::Candidates));
        assert_eq!(spent.by_name().get("follow_ups_per_origin"), Some(&40_000));
    }
}
