//! For tests (this crate's and the binary's): a PostgreSQL server from the environment and a database
//! of its own per test.
//!
//! The test server: `WELLKNOWN_TEST_PG` names a role that may create databases
//! (`postgres://ROLE@HOST:PORT/DB`, its password from `PGPASSWORD` or a password file); the
//! optional `WELLKNOWN_TEST_PG_WORKER` names a role with no rights of its own, which the store under
//! test then uses after the worker grants of `docs/store.md`. Every test makes its own database
//! (`wellknown_test_<pid>_<n>`) and drops it when done, panicking or not.
//!
//! Without `WELLKNOWN_TEST_PG` the PostgreSQL tests say how to start a server and pass without
//! running, except under `CI=true`, where they fail: CI (`.ci/run`) starts one.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{Env, PostgresStore, Target, schema};

const HOW: &str = "start one and point the tests at it, e.g. as root: `eval \"$(bash .ci/postgres)\"` (starts the \
                   machine's PostgreSQL 15 cluster, creates the roles wellknown_ci and wellknown_ci_worker, and exports \
                   PGPASSFILE, WELLKNOWN_TEST_PG and WELLKNOWN_TEST_PG_WORKER)";

/// The server of the tests, when there is one.
#[derive(Clone)]
pub struct Server {
    /// The role that creates, migrates and drops databases.
    pub admin: Target,
    /// The role the store under test uses (the admin when no worker role is given).
    pub worker: Option<Target>,
}

/// The test server from the environment; `None` (after saying how to start one) outside CI.
///
/// Panics: under `CI=true` without `WELLKNOWN_TEST_PG`, or with a malformed URL.
pub fn server() -> Option<Server> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Some(url) = std::env::var("WELLKNOWN_TEST_PG").ok().filter(|u| !u.is_empty()) else {
        assert!(!ci, "CI=true but WELLKNOWN_TEST_PG is not set: the PostgreSQL suite must run in CI; {HOW}");
        eprintln!("skipped: the PostgreSQL tests need a server in WELLKNOWN_TEST_PG; {HOW}");
        return None;
    };
    let env = Env::from_process();
    let admin = Target::parse(&url, &env).expect("WELLKNOWN_TEST_PG");
    let worker = std::env::var("WELLKNOWN_TEST_PG_WORKER")
        .ok()
        .filter(|u| !u.is_empty())
        .map(|u| Target::parse(&u, &env).expect("WELLKNOWN_TEST_PG_WORKER"));
    Some(Server { admin, worker })
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A database of the test server, dropped with the value.
pub struct TestDb {
    /// The server.
    pub server: Server,
    /// The database's name.
    pub name: String,
}

impl Server {
    /// A new empty database, owned by the admin role; not migrated.
    ///
    /// Panics: the server is unreachable or refuses (with the reason; under CI this fails the test).
    pub fn empty_db(&self) -> TestDb {
        let name = format!("wellknown_test_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let mut admin = self.admin_client();
        // Two statements: CREATE DATABASE cannot run inside the implicit transaction of a batch.
        for sql in [format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"), format!("CREATE DATABASE {name}")] {
            admin.batch_execute(&sql).unwrap_or_else(|e| panic!("creating the test database {name}: {e:?}"));
        }
        TestDb { server: self.clone(), name }
    }

    /// A new database migrated to the latest schema, with the worker grants given to the worker role.
    pub fn migrated_db(&self) -> TestDb {
        let db = self.empty_db();
        let mut owner = PostgresStore::open(self.admin.with_database(&db.name))
            .unwrap_or_else(|e| panic!("migrating the test database {}: {e}", db.name));
        if let Some(worker) = &self.worker {
            owner.client().batch_execute(&schema::worker_grants(&worker.user)).expect("worker grants");
        }
        db
    }

    /// A plain connection as the admin role to its own database.
    pub fn admin_client(&self) -> postgres::Client {
        crate::dial(&self.admin).unwrap_or_else(|e| {
            panic!("the PostgreSQL test server ({}) is unreachable: {e}; {HOW}", self.admin.display())
        })
    }
}

impl TestDb {
    /// A store on this database as the worker role (or the admin role without one).
    pub fn worker_store(&self) -> PostgresStore {
        let target = self.server.worker.as_ref().unwrap_or(&self.server.admin).with_database(&self.name);
        PostgresStore::open(target).unwrap_or_else(|e| panic!("opening the test database {}: {e}", self.name))
    }

    /// The URL of this database for the worker role (or the admin role without one), without a
    /// password (the process environment's password file or `PGPASSWORD` supplies it).
    pub fn worker_url(&self) -> String {
        let t = self.server.worker.as_ref().unwrap_or(&self.server.admin);
        let host = if t.host.contains(':') { format!("[{}]", t.host) } else { t.host.clone() };
        format!("postgres://{}@{host}:{}/{}", t.user, t.port, self.name)
    }

    /// A store on this database as the admin role (the schema's owner).
    pub fn owner_store(&self) -> PostgresStore {
        PostgresStore::open(self.server.admin.with_database(&self.name))
            .unwrap_or_else(|e| panic!("opening the test database {}: {e}", self.name))
    }
}

impl Drop for TestDb {
    /// Drops the database, ending the sessions still open on it (`WITH (FORCE)`; the admin role needs
    /// `pg_signal_backend` to end another role's); tried for a few seconds while sessions close, and
    /// said on standard error when it fails, so a database left behind is never silent.
    fn drop(&mut self) {
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        let mut last = String::new();
        for _ in 0..20 {
            match crate::dial(&self.server.admin).and_then(|mut admin| {
                admin.batch_execute(&sql).map_err(|e| crate::pg_error("dropping the test database", &e))
            }) {
                Ok(()) => return,
                Err(e) => last = e.to_string(),
            }
            std::thread::sleep(std::time::Duration::from_millis(250));
        }
        eprintln!("warning: the test database {} was left behind: {last}", self.name);
    }
}
