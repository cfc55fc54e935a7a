//! Versioned migrations and roles: a new database is migrated once by its owner (two processes
//! starting together included), a worker role runs no DDL and is told what to do when the schema
//! is behind, a newer schema is refused, and the worker may not delete data.

use wellknown_store::Store;
use wellknown_store_postgres::{PostgresStore, schema};

use crate::pg;
use crate::suite::{T1, first_scan, seed, t, writes};

#[test]
fn a_new_database_is_migrated_once_even_by_two_owners_at_once() {
    let Some(server) = pg::server() else { return };
    let db = server.empty_db();
    let target = server.admin.with_database(&db.name);
    let racers: Vec<_> = (0..2)
        .map(|_| {
            let target = target.clone();
            std::thread::spawn(move || PostgresStore::open(target).map(|_| ()))
        })
        .collect();
    for r in racers {
        r.join().unwrap().unwrap();
    }
    let mut s = db.owner_store();
    assert_eq!(s.schema_version().unwrap(), schema::latest());
    let rows = s.client().query("SELECT version, name FROM schema_migrations ORDER BY version", &[]).unwrap();
    let applied: Vec<(i64, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(
        applied,
        [
            (2, "the tables of schema version 2".to_string()),
            (3, "shared scans: unit groups and their leases".to_string()),
            (4, "open unit groups: leases find work without reading finished groups".to_string()),
            (5, "unit groups leave room on their pages for leases".to_string()),
        ]
    );
    assert_eq!(applied[0].0, wellknown_store::SCHEMA_VERSION, "version 2 is SQLite's version 2");
}

#[test]
fn a_newer_schema_is_refused() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut owner = db.owner_store();
    owner.client().execute("INSERT INTO schema_migrations (version, name) VALUES (99, 'future')", &[]).unwrap();
    let err = PostgresStore::open(server.admin.with_database(&db.name)).unwrap_err().to_string();
    assert!(err.contains("schema version 99") && err.contains("upgrade wellknown"), "{err}");
}

#[test]
fn the_worker_role_writes_scans_but_cannot_migrate_alter_or_delete() {
    let Some(server) = pg::server() else { return };
    let Some(worker) = server.worker.clone() else {
        eprintln!("skipped: WELLKNOWN_TEST_PG_WORKER names no worker role");
        return;
    };
    // A database its owner has not migrated yet: the worker is told to let the owner do it.
    let fresh = server.empty_db();
    let err = PostgresStore::open(worker.with_database(&fresh.name)).unwrap_err().to_string();
    assert!(err.contains("connect once as the role that owns the schema"), "{err}");

    let db = server.migrated_db();
    let mut s = db.worker_store();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    for sql in
        ["DELETE FROM evidence", "DROP TABLE evidence", "ALTER TABLE nodes ADD COLUMN x int", "TRUNCATE documents"]
    {
        let err = s.client().batch_execute(sql).unwrap_err();
        assert_eq!(
            err.code(),
            Some(&wellknown_store_postgres::postgres::error::SqlState::INSUFFICIENT_PRIVILEGE),
            "{sql}: {err}"
        );
    }
    assert_eq!(s.load().unwrap().evidence.len(), 3, "nothing was deleted");
}

/// Version 4 marks each existing group open or not from its units: a version 3 database with one
/// group done and one with pending units leases only the second after the upgrade.
#[test]
fn version_4_opens_the_groups_with_pending_units_of_a_version_3_database() {
    let Some(server) = pg::server() else { return };
    let db = server.empty_db();
    let target = server.admin.with_database(&db.name);
    let mut c = wellknown_store_postgres::dial(&target).unwrap();
    c.batch_execute(schema::CREATE_MIGRATIONS).unwrap();
    for m in schema::MIGRATIONS.iter().filter(|m| m.version <= 3) {
        c.batch_execute(m.sql).unwrap();
        c.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", &[&m.version, &m.name]).unwrap();
    }
    c.batch_execute(
        "INSERT INTO scans (id, started_at, plan) VALUES (1, now(), '{}');
         INSERT INTO units (scan_id, kind, value, depth, state, in_scope, grp) VALUES
           (1, 'origin', 'https://a.example', 0, 'done', true, 'a.example'),
           (1, 'origin', 'https://b.example', 0, 'pending', true, 'b.example');
         INSERT INTO unit_groups (scan_id, grp) VALUES (1, 'a.example'), (1, 'b.example');",
    )
    .unwrap();
    drop(c);
    let mut s = PostgresStore::open(target).unwrap();
    assert_eq!(s.schema_version().unwrap(), schema::latest());
    let open: Vec<(String, bool)> = s
        .client()
        .query("SELECT grp, open FROM unit_groups ORDER BY grp", &[])
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(open, [("a.example".to_string(), false), ("b.example".to_string(), true)]);
    // Version 5: room on the groups' pages for in-place lease updates.
    let options: Vec<String> =
        s.client().query_one("SELECT reloptions FROM pg_class WHERE relname = 'unit_groups'", &[]).unwrap().get(0);
    assert_eq!(options, ["fillfactor=50"]);
    let leased = s.lease_groups(1, "w", std::time::Duration::from_secs(60), 5).unwrap();
    assert_eq!(leased.groups, ["b.example"]);
}
