//! A new scan: its seed units (the targets, then the `--issuer`s), its stored plan, and, with the
//! store on, its row begun in the store before any request.

use std::path::Path;

use url::Url;
use wellknown_core::Origin;
use wellknown_engine::RunPlan;
use wellknown_records::Unit;
use wellknown_store::ingest::seed_rows;

use crate::config::Settings;
use crate::kept::{self, Kept};
use crate::plan::StoredPlan;
use crate::store_open;

/// A new scan of `targets`, its plan stored with the scan.
pub(super) fn fresh(
    targets: Vec<Origin>,
    settings: &Settings,
    db: &Path,
) -> Result<(StoredPlan, RunPlan, Option<Kept>), String> {
    if targets.is_empty() && settings.issuer.is_empty() {
        return Err("no targets: give origins, URLs or host names as arguments, `-` for stdin, or --list FILE".into());
    }
    let stored = StoredPlan::new(&targets, settings)?;
    for i in &settings.issuer {
        if let Ok((issuer, true)) = crate::plan::issuer_identifier(i) {
            // Like a target's, never sent, recorded or stored (the warning names the issuer without them).
            crate::note!(
                "wellknown: warning: --issuer {issuer}: the user name and password given in it are dropped (never \
                 sent, recorded or stored)"
            );
        }
    }
    let mut seeds: Vec<Unit> = targets.into_iter().map(Unit::origin).collect();
    for i in &stored.issuers {
        seeds.push(Unit::issuer(Url::parse(i).map_err(|e| format!("--issuer {i:?}: {e}"))?));
    }
    let kept = if settings.store {
        // Opened and checked before any request: a store that cannot be used costs no traffic.
        let mut store = store_open::for_scanning(db)?;
        if let Some(line) = kept::unfinished_note(&mut store, db)? {
            crate::note!("{line}");
        }
        let plan = serde_json::to_value(&stored).map_err(|e| e.to_string())?;
        Some(Kept::begin(store, db, &plan, &seed_rows(&seeds))?)
    } else {
        None
    };
    Ok((stored, RunPlan { seeds, ..RunPlan::default() }, kept))
}
