//! How far each scan got: its units counted by state in the database (`wellknown scans`), without
//! reading the units themselves.

use std::collections::BTreeMap;

use super::{Param, SqlRow};
use crate::model::{ScanId, UnitState};
use crate::{Store, StoreError};

/// A scan's units by state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// Scanned completely.
    pub done: u64,
    /// Still to scan.
    pub pending: u64,
    /// Every unit, whatever its state (beyond depth, out of scope and over budget included).
    pub total: u64,
}

/// The unit counts of every scan that has units, by scan id.
///
/// Errors: the store's; a malformed stored value.
pub fn counts(store: &mut dyn Store) -> Result<BTreeMap<ScanId, UnitCounts>, StoreError> {
    let mut out: BTreeMap<ScanId, UnitCounts> = BTreeMap::new();
    let sql = "SELECT scan_id, state, COUNT(*) FROM units GROUP BY scan_id, state";
    store.stream(sql, &[] as &[Param], &mut |r: &SqlRow| {
        let n = u64::try_from(r.int(2)?).unwrap_or(0);
        let c = out.entry(r.int(0)?).or_default();
        c.total += n;
        match UnitState::parse(&r.text(1)?) {
            Some(UnitState::Done) => c.done += n,
            Some(UnitState::Pending) => c.pending += n,
            _ => {}
        }
        Ok(())
    })?;
    Ok(out)
}
