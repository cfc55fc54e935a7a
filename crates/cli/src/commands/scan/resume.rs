//! `scan --resume [SCAN_ID]`: the scan to finish, its lease, its stored plan (which the settings
//! may not contradict) and its units: finished ones skipped, the others scanned again.

use std::path::Path;

use wellknown_core::Origin;
use wellknown_engine::{Revealed, RunPlan};
use wellknown_records::Unit;
use wellknown_store::{SqliteStore, Store, UnitState};

use crate::args::ScanArgs;
use crate::config::{self, Settings};
use crate::kept::{self, Kept};
use crate::plan::StoredPlan;
use crate::store_open;

/// The plan settings (`scope`, `probes`, `issuer`, `depth`, `max_hops`, `max_verify`,
/// `obey_robots`, `all_registered`, `verify`) set by the configuration file or a `WELLKNOWN_*`
/// variable must not differ from the stored plan of the scan `--resume` finishes: the stored plan
/// wins, so a different value would be silently ignored. The flags are refused by clap; the same
/// values as stored (a configuration that always sets them) are accepted.
///
/// Errors: the first such setting, naming the file key or variable and the stored value.
fn check_plan_unchanged(stored: &StoredPlan, settings: &Settings, args: &ScanArgs) -> Result<(), String> {
    let targets: Vec<Origin> = stored.targets.iter().filter_map(|t| Origin::parse_target(t).ok()).collect();
    let wanted = StoredPlan::new(&targets, settings)?;
    let differs: [(&str, bool, String); 9] = [
        ("scope", wanted.scope != stored.scope, serde_json::json!(stored.scope).to_string()),
        ("probes", wanted.probes != stored.probes, serde_json::json!(stored.probes).to_string()),
        ("issuer", wanted.issuers != stored.issuers, serde_json::json!(stored.issuers).to_string()),
        ("depth", wanted.depth != stored.depth, serde_json::json!(stored.depth).to_string()),
        ("max_hops", wanted.max_hops != stored.max_hops, serde_json::json!(stored.max_hops).to_string()),
        ("max_verify", wanted.max_verify != stored.max_verify, serde_json::json!(stored.max_verify).to_string()),
        ("obey_robots", wanted.obey_robots != stored.obey_robots, serde_json::json!(stored.obey_robots).to_string()),
        (
            "all_registered",
            wanted.all_registered != stored.all_registered,
            serde_json::json!(stored.all_registered).to_string(),
        ),
        ("verify", wanted.verify != stored.verify, serde_json::json!(stored.verify).to_string()),
    ];
    for (key, differs, stored_value) in differs {
        if !differs {
            continue;
        }
        if let Some(source) = config::set_outside_flags(args, key) {
            return Err(format!(
                "{source} cannot be used with '--resume': the resumed scan keeps its stored plan ({key} = \
                 {stored_value}); remove the setting or give the stored value"
            ));
        }
    }
    Ok(())
}

/// `--resume [SCAN_ID]`: the scan `wanted`, or the most recent unfinished one no running process
/// holds ([`kept::scan_to_resume`]); its plan, its finished units skipped, the others redone. The
/// store is checked and the scan's lease taken (refused while another process runs it) before any
/// request.
pub(super) fn resume(
    settings: &Settings,
    args: &ScanArgs,
    db: &Path,
    wanted: Option<i64>,
) -> Result<(StoredPlan, RunPlan, Option<Kept>), String> {
    if !settings.store {
        return Err("--resume needs the store (it cannot be combined with --no-store)".into());
    }
    if !db.is_file() {
        return Err(format!("nothing to resume: no store at {} (give --db PATH)", db.display()));
    }
    let mut store = store_open::for_scanning(db)?;
    let row = kept::scan_to_resume(&mut store, db, wanted)?;
    let lease = Kept::lease(&mut store, db, row.id)?;
    match resume_plan(&mut store, &row, settings, args, db) {
        Ok((stored, plan)) => Ok((stored, plan, Some(Kept::start(store, db, row.id, &lease)?))),
        Err(e) => {
            kept::release(&mut store, row.id, &lease);
            Err(e)
        }
    }
}

/// The stored plan of scan `row` (checked against the settings) and its run plan.
fn resume_plan(
    store: &mut SqliteStore,
    row: &wellknown_store::ScanRow,
    settings: &Settings,
    args: &ScanArgs,
    db: &Path,
) -> Result<(StoredPlan, RunPlan), String> {
    let stored: StoredPlan =
        serde_json::from_value(row.plan.clone()).map_err(|e| format!("scan {}: unreadable plan: {e}", row.id))?;
    check_plan_unchanged(&stored, settings, args)?;
    let units = store.units(row.id).map_err(|e| store_open::scan_error(db, &e))?;
    let mut plan = RunPlan::default();
    for u in &units {
        let kind = u.kind;
        if let Some(by) = &u.revealed_by {
            // Reported again if the unit that revealed it runs again (an interrupted unit's inventory).
            plan.revealed.push(Revealed { kind, value: u.value.clone(), revealed_by: by.clone() });
        }
        match u.state {
            UnitState::Done => plan.done.push((kind, u.value.clone())),
            UnitState::Pending => plan.seeds.push(Unit::from_label(kind, &u.value, u.depth, u.revealed_by.clone())?),
            // Recorded, not to be scanned; known so they are not reported again.
            UnitState::BeyondDepth | UnitState::OutOfScope | UnitState::OverBudget => {
                plan.done.push((kind, u.value.clone()))
            }
        }
    }
    if !settings.quiet {
        let (done, _) = kept::unit_counts(&units);
        crate::note!(
            "wellknown: resuming scan {} of {}: {done} unit(s) finished, {} to do",
            row.id,
            db.display(),
            plan.seeds.len()
        );
    }
    Ok((stored, plan))
}
