//! How fast one PostgreSQL grants and completes leases (`cargo xtask bench-scan --workers N --db
//! URL` runs it): `lease_rate URL UNITS WORKERS [GROUPS_PER_LEASE]`.
//!
//! Records a scan of UNITS origins (each its own registrable domain, so its own group) in the empty
//! database at URL, then WORKERS threads, each with its own connection, do what `wellknown work`
//! does around every unit and nothing else: lease up to GROUPS_PER_LEASE groups (default 1), then,
//! for each group on its own (as each slot of a worker completes its group), write its units `done`
//! and release it in one transaction (`write_and_release`); until no group is left. Prints units a
//! second: the ceiling coordination puts on a fleet of workers whose scans take no time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use wellknown_records::UnitKind;
use wellknown_store::{Store, UnitRow, UnitState, Write};
use wellknown_store_postgres::PostgresStore;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, units, workers, rest @ ..] = args.as_slice() else {
        return Err("usage: lease_rate URL UNITS WORKERS [GROUPS_PER_LEASE]".into());
    };
    let (units, workers): (usize, usize) = (units.parse()?, workers.parse()?);
    let per_lease: usize = rest.first().map_or(Ok(1), |s| s.parse())?;
    let mut store = PostgresStore::connect(url)?;
    if !store.scans()?.is_empty() {
        return Err("the database holds scans: give an empty one".into());
    }
    let seeds: Vec<UnitRow> = (0..units)
        .map(|i| UnitRow {
            kind: UnitKind::Origin,
            value: format!("https://u{i}.example"),
            depth: 0,
            revealed_by: None,
            state: UnitState::Pending,
            in_scope: true,
        })
        .collect();
    let scan = store.begin_scan(wellknown_core::Timestamp::now(), &serde_json::json!({}), &seeds)?;
    let url = Arc::new(url.clone());
    let started = Instant::now();
    let threads: Vec<_> = (0..workers)
        .map(|w| {
            let url = Arc::clone(&url);
            std::thread::spawn(move || -> Result<usize, String> {
                let mut s = PostgresStore::connect(&url).map_err(|e| e.to_string())?;
                let holder = format!("bench-{w}@lease-rate/0");
                let mut done = 0;
                loop {
                    let leased =
                        s.lease_groups(scan, &holder, Duration::from_secs(60), per_lease).map_err(|e| e.to_string())?;
                    if leased.groups.is_empty() {
                        return Ok(done);
                    }
                    let n = leased.units.len();
                    // Each group completes on its own, as each slot of a worker completes its group.
                    for one in leased.split() {
                        let writes: Vec<Write> = one
                            .units
                            .iter()
                            .map(|u| Write::Unit(UnitRow { state: UnitState::Done, ..u.clone() }))
                            .collect();
                        s.write_and_release(scan, &writes, &one.groups, &holder).map_err(|e| e.to_string())?;
                    }
                    done += n;
                }
            })
        })
        .collect();
    let mut total = 0;
    for t in threads {
        total += t.join().map_err(|_| "a worker thread panicked")??;
    }
    let secs = started.elapsed().as_secs_f64();
    let finished = store.finish_if_complete(scan)?;
    println!(
        "{total} units by {workers} workers ({per_lease} group(s) a lease) in {secs:.2} s: {:.0} units/s; scan finished: {finished}",
        total as f64 / secs
    );
    Ok(())
}
