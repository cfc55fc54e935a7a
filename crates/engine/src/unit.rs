//! What a run scans: the [`RunPlan`] (seeds, units already finished, units an earlier run revealed).
//! The units themselves ([`Unit`], [`UnitKind`], `UnitTarget`) are part of the output contract
//! and live in `wellknown-records`.

use wellknown_records::{Unit, UnitKind};

/// What to run: the units to scan, and units already finished (a resumed scan) that must be neither
/// scanned again nor queued again when a document reveals them.
#[derive(Debug, Clone, Default)]
pub struct RunPlan {
    /// Units to scan (targets, issuers, or a resumed scan's unfinished units).
    pub seeds: Vec<Unit>,
    /// Units already finished, by (kind, label).
    pub done: Vec<(UnitKind, String)>,
    /// Units an earlier run of this scan recorded as revealed by a document (inventory records),
    /// whatever became of them (scanned, pending, beyond the depth, out of scope). When the unit
    /// that revealed one runs again in this run and reveals it again, it reports it again, once, as
    /// an uninterrupted scan would have (the inventory record follows the first sighting that
    /// causes it); it is not queued again.
    pub revealed: Vec<Revealed>,
}

/// A unit an earlier run of a resumed scan recorded as revealed, and the unit that revealed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revealed {
    /// `origin` or `issuer`.
    pub kind: UnitKind,
    /// Its label.
    pub value: String,
    /// The label of the unit whose document revealed it.
    pub revealed_by: String,
}
