//! The frontier of units: what is queued, what is known, and the decision a revealed unit gets
//! (`queued`, `out_of_scope`, `beyond_depth`, `over_budget`).

use std::collections::{HashMap, VecDeque};

use tokio::sync::mpsc;
use wellknown_core::CandidateKind;

use crate::budget::Budget;
use crate::engine::Engine;
use crate::feedback;
use crate::schedule::UnitRun;
use crate::shared::{Shared, lock};
use wellknown_records::{InventoryAction, InventoryRecord, Record};
use wellknown_records::{Unit, UnitKind, UnitTarget};

/// What the frontier knows about a unit.
pub(crate) enum Known {
    /// Scanned, being scanned, queued, or finished in an earlier run of a resumed scan.
    Scheduled,
    /// In scope but revealed deeper than `--depth`.
    Beyond,
    /// In scope and within `--depth`, but its revealer's budget of revealed units was spent:
    /// recorded, not scanned (another unit may still queue it).
    OverBudget,
    /// Out of scope: recorded, never requested.
    OutOfScope,
}

/// The units of a scan: known ones and the queues of those to scan.
#[derive(Default)]
pub(crate) struct Frontier {
    pub known: HashMap<(UnitKind, String), Known>,
    /// Units an earlier run of a resumed scan reported in its inventory and this run has not
    /// reported yet, with the unit that revealed them ([`crate::RunPlan::revealed`]).
    pub earlier: HashMap<(UnitKind, String), String>,
    pub origins: VecDeque<Unit>,
    pub issuers: VecDeque<Unit>,
}

impl Frontier {
    pub fn push(&mut self, unit: Unit) {
        match unit.kind() {
            UnitKind::Origin => self.origins.push_back(unit),
            UnitKind::Issuer => self.issuers.push_back(unit),
        }
    }

    /// The next unit to scan: origins first; an issuer once no origin unit is queued or running.
    pub fn next(&mut self, origins_running: usize) -> Option<Unit> {
        match self.origins.pop_front() {
            Some(u) => Some(u),
            None if origins_running == 0 => self.issuers.pop_front(),
            None => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.origins.is_empty() && self.issuers.is_empty()
    }
}

impl Engine {
    /// A candidate seen for the first time: the units it reveals go to the inventory. A unit in
    /// scope and within `--depth` is queued while the revealing document and unit have budget
    /// left (`max_revealed_per_document`, `max_revealed_per_unit`); past it, recorded
    /// `over_budget` and counted.
    pub(crate) async fn reveal(
        &self,
        run: &mut UnitRun,
        kind: CandidateKind,
        value: &str,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        for target in feedback::revealed(kind, value) {
            let in_scope = match &target {
                UnitTarget::Origin(o) => self.config.scope.contains_host(o.host()),
                UnitTarget::Issuer(u) => self.config.scope.contains_url(u),
            };
            let unit = Unit { target, depth: run.unit.depth + 1, revealed_by: Some(run.label.clone()) };
            let over_budget = if run.revealed_in_document >= self.config.max_revealed_per_document {
                Some(Budget::RevealedPerDocument)
            } else if run.revealed >= self.config.max_revealed_per_unit {
                Some(Budget::RevealedPerUnit)
            } else {
                None
            };
            let action = {
                let mut f = lock(&shared.frontier);
                let key = unit.key();
                let fresh = if !in_scope {
                    (Known::OutOfScope, InventoryAction::OutOfScope)
                } else if unit.depth > self.config.depth {
                    (Known::Beyond, InventoryAction::BeyondDepth)
                } else if over_budget.is_some() {
                    (Known::OverBudget, InventoryAction::OverBudget)
                } else {
                    (Known::Scheduled, InventoryAction::Queued)
                };
                if f.known.contains_key(&key) && f.earlier.get(&key) == Some(&run.label) {
                    // Reported by this unit in an earlier run of this resumed scan: reported again
                    // now that it runs again (as an uninterrupted scan would), never re-queued.
                    f.earlier.remove(&key);
                    Some(fresh.1)
                } else {
                    let decided = match f.known.get(&key) {
                        Some(Known::Scheduled | Known::OutOfScope) => None,
                        Some(Known::Beyond) if unit.depth > self.config.depth => None,
                        Some(Known::OverBudget) if fresh.1 != InventoryAction::Queued => None,
                        _ => Some(fresh),
                    };
                    decided.map(|(known, action)| {
                        f.known.insert(key, known);
                        if action == InventoryAction::Queued && !self.config.defer_revealed {
                            f.push(unit.clone());
                        }
                        action
                    })
                }
            };
            let Some(action) = action else { continue };
            match action {
                InventoryAction::Queued => {
                    run.revealed += 1;
                    run.revealed_in_document += 1;
                }
                InventoryAction::OverBudget => {
                    if let Some(b) = over_budget {
                        run.spent.skip(b, 1);
                    }
                }
                _ => {}
            }
            lock(&shared.totals).revealed += 1;
            let rec = InventoryRecord {
                unit: unit.kind(),
                value: unit.label(),
                depth: unit.depth,
                revealed_by: run.label.clone(),
                candidate_kind: kind,
                candidate_value: value.to_string(),
                in_scope,
                action,
            };
            let _ = out.send(Record::Inventory(rec)).await;
            if action == InventoryAction::Queued && !self.config.defer_revealed {
                self.progress.known(1, true);
                shared.wake.notify_one();
            }
        }
    }
}
