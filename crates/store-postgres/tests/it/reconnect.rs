//! A store whose connection the server ends (as a restart does) reconnects and carries on: the batch
//! that met the closed connection is written once the connection is back, nothing lost.

use wellknown_store::Store;

use crate::pg;
use crate::suite::{T1, first_scan, seed, t, writes};

#[test]
fn a_store_reconnects_when_the_server_ends_its_connection() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    // The server ends the store's connection (the session ends itself: no extra role rights).
    let end = |s: &mut wellknown_store_postgres::PostgresStore| {
        let _ = s.client().batch_execute("SELECT pg_terminate_backend(pg_backend_pid())");
    };
    end(&mut s);
    s.write(id, &writes(&first_scan())).unwrap();
    end(&mut s);
    let g = s.load().unwrap();
    assert_eq!((g.documents.len(), g.evidence.len()), (2, 3), "the batch was written once, after reconnecting");
    end(&mut s);
    // The scan's one unit is done (its records were in the batch): nothing left to lease.
    let leased = s.lease_groups(id, "w", std::time::Duration::from_secs(60), 1).unwrap();
    assert!(leased.groups.is_empty());
    assert_eq!(s.progress().unwrap()[0].done, 1);
}

/// Statements the session forgot (`DEALLOCATE ALL`, as `DISCARD ALL` or a pooler does) are prepared
/// again: the write goes through.
#[test]
fn a_store_prepares_again_what_the_session_forgot() {
    let Some(server) = pg::server() else { return };
    let db = server.migrated_db();
    let mut s = db.worker_store();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    s.client().batch_execute("DEALLOCATE ALL").unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    let leased = s.lease_groups(id, "w", std::time::Duration::from_secs(60), 1).unwrap();
    assert!(leased.groups.is_empty(), "the unit is done");
    assert_eq!(s.progress().unwrap()[0].done, 1);
}
