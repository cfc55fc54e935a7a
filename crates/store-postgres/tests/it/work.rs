//! Shared scans in the database: workers lease whole groups of units (by registrable domain), never
//! the same group twice at once, take over expired leases, give up on a group after
//! `MAX_ATTEMPTS`, and the scan finishes when nothing is left.

use std::collections::BTreeSet;
use std::time::Duration;

use wellknown_store::{Store, UnitRow, UnitState, Write};
use wellknown_store_postgres::work::MAX_ATTEMPTS;

use crate::pg;
use crate::suite::{ROBOTS, T1, cand, seed, t, writes};
use wellknown_core::CandidateKind;

const MINUTE: Duration = Duration::from_secs(60);

/// `units` written `done`, as a worker writes the units it ran.
fn done(units: &[UnitRow]) -> Vec<Write> {
    units.iter().map(|u| Write::Unit(UnitRow { state: UnitState::Done, ..u.clone() })).collect()
}

fn values(units: &[UnitRow]) -> BTreeSet<String> {
    units.iter().map(|u| u.value.clone()).collect()
}

#[test]
fn workers_lease_whole_groups_once_and_the_scan_finishes_when_all_are_done() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let seeds = [
        "https://a.example",
        "https://www.a.example",
        "http://a.example",
        "https://b.example",
        "https://127.0.0.1:8443",
    ];
    let scan = s.begin_scan(t(T1), &serde_json::json!({}), &seeds.map(seed)).unwrap();

    let first = s.lease_groups(scan, "w1", MINUTE, 1).unwrap();
    assert_eq!(first.groups, ["a.example"]);
    assert_eq!(
        values(&first.units),
        ["http://a.example", "https://a.example", "https://www.a.example"].map(String::from).into()
    );
    let mut other = db.worker_store();
    let second = other.lease_groups(scan, "w2", MINUTE, 10).unwrap();
    assert_eq!(
        second.groups.iter().collect::<BTreeSet<_>>(),
        ["127.0.0.1", "b.example"].iter().map(|g| g.to_string()).collect::<BTreeSet<_>>().iter().collect()
    );
    assert!(other.lease_groups(scan, "w3", MINUTE, 10).unwrap().groups.is_empty(), "everything is leased");
    // One lease of two groups, split for two slots: each group with its own units.
    let each: Vec<(Vec<String>, BTreeSet<String>)> =
        second.clone().split().into_iter().map(|l| (l.groups, values(&l.units))).collect();
    assert_eq!(
        each.into_iter().collect::<BTreeSet<_>>(),
        [
            (vec!["127.0.0.1".to_string()], ["https://127.0.0.1:8443".to_string()].into()),
            (vec!["b.example".to_string()], ["https://b.example".to_string()].into()),
        ]
        .into()
    );

    let p = &s.progress().unwrap()[0];
    assert_eq!((p.pending, p.done, p.failed), (0, 0, 0));
    assert_eq!(p.leased, [("w1".to_string(), 3), ("w2".to_string(), 2)]);
    assert!(!s.finish_if_complete(scan).unwrap(), "units are leased");

    // w1 runs its units, and one of them reveals a unit of b.example (leased by w2) and one of a
    // new group: both wait, pending, for the next lease.
    let mut ran = done(&first.units);
    let revealed = |v: &str| UnitRow { depth: 1, revealed_by: Some("https://a.example".into()), ..seed(v) };
    ran.push(Write::Unit(revealed("https://api.b.example")));
    ran.push(Write::Unit(revealed("https://c.example")));
    s.write(scan, &ran).unwrap();
    s.release_groups(scan, &first.groups, "w1").unwrap();
    let next = s.lease_groups(scan, "w1", MINUTE, 10).unwrap();
    assert_eq!(next.groups, ["c.example"], "b.example is still w2's");
    other.release_groups(scan, &second.groups, "w2").unwrap();
    let last = other.lease_groups(scan, "w2", MINUTE, 10).unwrap();
    assert_eq!(
        values(&last.units),
        ["https://127.0.0.1:8443", "https://api.b.example", "https://b.example"].map(String::from).into()
    );
    for (store, leased, who) in [(&mut s, &next, "w1"), (&mut other, &last, "w2")] {
        let writes: Vec<Write> = done(&leased.units);
        store.write(scan, &writes).unwrap();
        assert!(!store.finish_if_complete(scan).unwrap() || who == "w2");
        store.release_groups(scan, &leased.groups, who).unwrap();
    }
    assert!(s.finish_if_complete(scan).unwrap());
    let row = &s.scans().unwrap()[0];
    assert!(row.finished_at.is_some());
    assert_eq!((row.summary["shared"].as_bool(), row.summary["units_done"].as_i64()), (Some(true), Some(7)));
    let p = &s.progress().unwrap()[0];
    assert_eq!((p.pending, p.done, p.failed, p.done_last_minute), (0, 7, 0, 7));
}

#[test]
fn concurrent_workers_never_get_the_same_group() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let seeds: Vec<UnitRow> = (0..40).map(|i| seed(&format!("https://h{i}.example{}.test", i % 20))).collect();
    let scan = s.begin_scan(t(T1), &serde_json::json!({}), &seeds).unwrap();
    let db = std::sync::Arc::new(db);
    let workers: Vec<_> = (0..4)
        .map(|w| {
            let db = db.clone();
            std::thread::spawn(move || {
                let mut store = db.worker_store();
                let mut got = Vec::new();
                loop {
                    let leased = store.lease_groups(scan, &format!("w{w}"), MINUTE, 2).unwrap();
                    if leased.groups.is_empty() {
                        return got;
                    }
                    got.extend(leased.units.into_iter().map(|u| u.value));
                }
            })
        })
        .collect();
    let mut all: Vec<String> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    all.sort();
    let mut expected: Vec<String> = seeds.iter().map(|u| u.value.clone()).collect();
    expected.sort();
    assert_eq!(all, expected, "each unit leased exactly once");
}

#[test]
fn an_expired_lease_is_taken_over_and_a_group_that_keeps_failing_is_given_up() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let scan = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    // Each "worker" dies holding the lease: it expires at once (ttl 0) and the next one takes over.
    for attempt in 1..=MAX_ATTEMPTS {
        let leased = s.lease_groups(scan, &format!("dead{attempt}"), Duration::ZERO, 1).unwrap();
        assert_eq!(leased.groups, ["a.example"], "attempt {attempt}");
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(
            s.renew_groups(&format!("dead{attempt}"), MINUTE, &["a.example".to_string()]).unwrap(),
            0,
            "an expired lease is not renewed"
        );
    }
    assert!(s.lease_groups(scan, "next", MINUTE, 1).unwrap().groups.is_empty(), "failed: not leased again");
    let p = &s.progress().unwrap()[0];
    assert_eq!((p.pending, p.failed), (0, 1));
    assert!(s.finish_if_complete(scan).unwrap());
    assert_eq!(s.scans().unwrap()[0].summary["units_failed"].as_i64(), Some(1));
}

/// A group released with nothing pending is closed (leases skip it); a unit revealed into it later
/// opens it again, and the next lease gets it.
#[test]
fn a_unit_revealed_into_a_released_group_opens_it_again() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let scan = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let leased = s.lease_groups(scan, "w1", MINUTE, 4).unwrap();
    assert_eq!(leased.groups, ["a.example"]);
    s.write(scan, &done(&leased.units)).unwrap();
    s.release_groups(scan, &leased.groups, "w1").unwrap();
    let open: bool = s.client().query_one("SELECT open FROM unit_groups", &[]).unwrap().get(0);
    assert!(!open, "nothing pending: closed");
    assert!(s.lease_groups(scan, "w2", MINUTE, 4).unwrap().groups.is_empty());
    // Another unit's document reveals api.a.example: the same registrable domain, the same group.
    let revealed = UnitRow { revealed_by: Some("https://b.example".into()), depth: 1, ..seed("https://api.a.example") };
    s.write(scan, &[Write::Unit(revealed)]).unwrap();
    let again = s.lease_groups(scan, "w2", MINUTE, 4).unwrap();
    assert_eq!(
        (again.groups.clone(), values(&again.units)),
        (vec!["a.example".to_string()], values(&[seed("https://api.a.example")]))
    );
}

/// A unit queued by one worker stays pending when another worker, which did not know it, records it
/// again deeper than the plan's depth or past its revealed budget: it is still run.
#[test]
fn a_pending_unit_recorded_again_by_another_worker_stays_pending() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let scan = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let queued = UnitRow { revealed_by: Some("https://a.example".into()), depth: 1, ..seed("https://b.example") };
    s.write(scan, &[Write::Unit(queued.clone())]).unwrap();
    for state in [UnitState::BeyondDepth, UnitState::OverBudget] {
        let again = UnitRow { state, depth: 2, revealed_by: Some("https://c.example".into()), ..queued.clone() };
        s.write(scan, &[Write::Unit(again)]).unwrap();
    }
    let b = s.units(scan).unwrap().into_iter().find(|u| u.value == "https://b.example").unwrap();
    assert_eq!((b.state, b.depth), (UnitState::Pending, 1));
}

/// A group's last records and its release commit together: units revealed into the group itself
/// keep it open, a unit of a new group opens that group, and the group is free for the next lease.
#[test]
fn the_last_records_and_the_release_commit_together() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let scan =
        s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example"), seed("https://b.example")]).unwrap();
    let leased = s.lease_groups(scan, "w1", MINUTE, 1).unwrap();
    assert_eq!(leased.groups, ["a.example"]);
    let revealed = |v: &str| UnitRow { depth: 1, revealed_by: Some("https://a.example".into()), ..seed(v) };
    let mut last: Vec<Write> = done(&leased.units);
    last.push(Write::Unit(revealed("https://api.a.example")));
    last.push(Write::Unit(revealed("https://c.example")));
    s.write_and_release(scan, &last, &leased.groups, "w1").unwrap();

    let groups: Vec<(String, bool, Option<String>, i32)> = s
        .client()
        .query("SELECT grp, open, leased_by, attempts FROM unit_groups ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect();
    assert_eq!(
        groups,
        [("a.example".into(), true, None, 0), ("b.example".into(), true, None, 0), ("c.example".into(), true, None, 0)]
    );
    let p = &s.progress().unwrap()[0];
    assert_eq!((p.pending, p.done), (3, 1));
    let again = s.lease_groups(scan, "w2", MINUTE, 1).unwrap();
    assert_eq!(
        (again.groups, values(&again.units)),
        (vec!["a.example".to_string()], values(&[seed("https://api.a.example")]))
    );
}

/// A last batch the store refuses writes nothing and releases nothing: the group stays leased by
/// its worker, its unit pending (taken over after the lease expires).
#[test]
fn a_refused_last_batch_neither_writes_nor_releases() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let scan = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let leased = s.lease_groups(scan, "w1", MINUTE, 1).unwrap();
    let mut last: Vec<Write> = done(&leased.units);
    // Evidence naming a document this scan never recorded.
    last.extend(writes(&[cand(CandidateKind::Url, "https://a.example/x", "robots_disallow", ROBOTS, "robots", T1, 1)]));
    let err = s.write_and_release(scan, &last, &leased.groups, "w1").unwrap_err();
    assert!(err.to_string().contains("has not recorded"), "{err}");
    let (leased_by, open): (Option<String>, bool) =
        s.client().query_one("SELECT leased_by, open FROM unit_groups", &[]).map(|r| (r.get(0), r.get(1))).unwrap();
    assert_eq!((leased_by.as_deref(), open), (Some("w1"), true));
    assert_eq!(s.units(scan).unwrap()[0].state, UnitState::Pending);
}

/// The heartbeat renews only the groups its worker runs: a lease the worker does not know of (its
/// answer was lost with the connection) expires and is taken over.
#[test]
fn the_heartbeat_renews_only_the_groups_its_worker_runs() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let scan =
        s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example"), seed("https://b.example")]).unwrap();
    let leased = s.lease_groups(scan, "w1", Duration::from_millis(300), 2).unwrap();
    assert_eq!(leased.groups, ["a.example", "b.example"]);
    assert_eq!(s.renew_groups("w1", MINUTE, &["a.example".to_string()]).unwrap(), 1);
    std::thread::sleep(Duration::from_millis(400));
    let taken = s.lease_groups(scan, "w2", MINUTE, 2).unwrap();
    assert_eq!(taken.groups, ["b.example"], "a.example is still w1's");
}
