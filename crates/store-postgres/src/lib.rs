//! `wellknown-store-postgres`: the candidate graph in PostgreSQL, so several `wellknown` processes on
//! several machines write one graph.
//!
//! [`PostgresStore`] implements [`wellknown_store::Store`] over the same tables as the SQLite store
//! ([`schema`]), selected by a `postgres://` URL in `--db` ([`connect`]: libpq's parameters and
//! environment, the password from `PGPASSWORD` or a password file, TLS per `sslmode` through rustls,
//! [`tls`]). Writes of one [`Store::write`] batch become a few set-based statements (`INSERT ...
//! SELECT FROM unnest(...)`, one per table) in one transaction ([`write`]), so the writer keeps pace
//! with a scan whatever the round-trip time to the server.
//!
//! The driver is `postgres`, the blocking client of tokio-postgres: the `Store` trait is synchronous
//! (it runs on the binary's writer thread, as SQLite does), and that client owns a small
//! current-thread runtime of its own per connection, so no async leaks into the trait or its callers.

pub mod connect;
mod lease;
mod pgpass;
mod prepared;
pub mod private_server;
mod read;
pub mod schema;
mod stream;
pub mod testing;
pub mod tls;
pub mod work;
mod write;

use postgres::Client;
use wellknown_core::Timestamp;
use wellknown_store::query::{Dialect, Param, SqlRow};
use wellknown_store::{Acquired, GraphData, Lease, ScanId, ScanRow, Store, StoreError, UnitRow, Write};

pub use connect::{Env, SslMode, Target, is_postgres_url, redact};
/// The driver, for callers that need a plain connection ([`dial`]).
pub use postgres;

/// A PostgreSQL store: one connection, re-established when the server ends it.
pub struct PostgresStore {
    client: Client,
    /// The statements prepared on `client` (emptied when it is dialled again).
    prepared: prepared::Cache,
    target: Target,
    read_only: bool,
}

/// How long a store keeps trying to reconnect to a server that went away (a restart) before it
/// reports the error.
pub const RECONNECT_FOR: std::time::Duration = std::time::Duration::from_secs(60);

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore").field("target", &self.target).finish_non_exhaustive()
    }
}

/// A driver error as a store error, with the server's message, detail and SQLSTATE when it sent
/// one.
pub(crate) fn pg_error(context: &str, e: &postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(db) => {
            let detail = db.detail().map(|d| format!(" ({d})")).unwrap_or_default();
            StoreError::new(format!("postgres: {context}: {}{detail} [SQLSTATE {}]", db.message(), db.code().code()))
        }
        None => {
            let mut text = format!("postgres: {context}: {e}");
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                text.push_str(&format!(": {s}"));
                source = s.source();
            }
            StoreError::new(text)
        }
    }
}

impl PostgresStore {
    /// Connects to the store at `url` ([`connect`] for the URL and where the password comes from),
    /// bringing its schema to the latest version when needed ([`schema`]).
    ///
    /// Errors: a bad URL; the server unreachable, refusing the user or the TLS requirements; a
    /// database of a newer schema version; a database that needs a migration which this role may not
    /// run (the message says to connect once as the schema's owner).
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let target = Target::parse(url, &Env::from_process())?;
        PostgresStore::open(target)
    }

    /// [`PostgresStore::connect`] to a parsed target.
    ///
    /// Errors: as [`PostgresStore::connect`].
    pub fn open(target: Target) -> Result<PostgresStore, StoreError> {
        let mut client = dial(&target)?;
        migrate(&mut client, &target)?;
        Ok(PostgresStore { client, prepared: prepared::Cache::default(), target, read_only: false })
    }

    /// Where this store is (without the password).
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The lease row of scan `scan`, if any (expired ones included).
    ///
    /// Errors: the server's.
    pub fn lease(&mut self, scan: ScanId) -> Result<Option<Lease>, StoreError> {
        Ok(lease::all(&mut self.client)?.into_iter().find(|(s, _)| *s == scan).map(|(_, l)| l))
    }

    /// Makes every later transaction of this connection read-only (`default_transaction_read_only`):
    /// what the reading commands open the store with, so they write nothing.
    ///
    /// Errors: the server's.
    pub fn set_read_only(&mut self) -> Result<(), StoreError> {
        self.read_only = true;
        self.client
            .batch_execute("SET default_transaction_read_only = on")
            .map_err(|e| pg_error("setting the connection read-only", &e))
    }

    /// Whether the connection was encrypted (TLS).
    ///
    /// Errors: the server's.
    pub fn uses_tls(&mut self) -> Result<bool, StoreError> {
        let row = self
            .client
            .query_one("SELECT coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false)", &[])
            .map_err(|e| pg_error("reading pg_stat_ssl", &e))?;
        Ok(row.get(0))
    }

    /// The schema version recorded in `schema_migrations`.
    ///
    /// Errors: the server's.
    pub fn schema_version(&mut self) -> Result<i64, StoreError> {
        current_version(&mut self.client)
    }

    /// Runs `op`; first reconnects when the connection is closed (the server restarted or ended
    /// it), and after a failure that left the connection closed reconnects and runs `op` once more
    /// (every operation is one transaction: a failed one changed nothing, and writes are
    /// idempotent); after a failure naming a prepared statement the session does not know
    /// (SQLSTATE 26000), forgets the prepared statements and runs `op` once more.
    pub(crate) fn with_reconnect<T>(
        &mut self,
        mut op: impl FnMut(&mut PostgresStore) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if self.client.is_closed() {
            self.reconnect()?;
        }
        match op(self) {
            Err(_) if self.client.is_closed() => {
                self.reconnect()?;
                op(self)
            }
            // A prepared statement the session no longer knows (`DISCARD ALL`, a pooler that moved
            // the session): prepared again.
            Err(e) if e.to_string().contains("[SQLSTATE 26000]") => {
                self.prepared.clear();
                op(self)
            }
            done => done,
        }
    }

    /// Dials again, for up to [`RECONNECT_FOR`] (every half second), and restores the session
    /// settings.
    fn reconnect(&mut self) -> Result<(), StoreError> {
        let deadline = std::time::Instant::now() + RECONNECT_FOR;
        loop {
            match dial(&self.target) {
                Ok(client) => {
                    self.client = client;
                    self.prepared.clear();
                    if self.read_only {
                        self.set_read_only()?;
                    }
                    return Ok(());
                }
                Err(e) if std::time::Instant::now() >= deadline => {
                    return Err(StoreError::new(format!("reconnecting to {}: {e}", self.target.display())));
                }
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(500)),
            }
        }
    }

    /// The underlying connection, for statements the trait does not cover (tests, administration).
    pub fn client(&mut self) -> &mut Client {
        &mut self.client
    }
}

/// Opens one plain connection to `target` (no migration): for administration and tests.
///
/// Errors: the server unreachable or refusing, with what to do when no password was found.
pub fn dial(target: &Target) -> Result<Client, StoreError> {
    let tls = tls::connector(target)?;
    target.config().connect(tls).map_err(|e| {
        let why = pg_error("connecting", &e).to_string();
        let hint = if why.contains("password") && !target.has_password() {
            "; no password was found: set PGPASSWORD, or add a line to ~/.pgpass (or the file of PGPASSFILE / \
             passfile=), mode 0600"
        } else {
            ""
        };
        StoreError::new(format!("{why}{hint}"))
    })
}

/// The version recorded in `schema_migrations` (0 without the table).
fn current_version(client: &mut Client) -> Result<i64, StoreError> {
    let what = "reading the schema version";
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])
        .map_err(|e| pg_error(what, &e))?
        .get(0);
    if !exists {
        return Ok(0);
    }
    let row = client
        .query_one("SELECT coalesce(max(version), 0)::bigint FROM schema_migrations", &[])
        .map_err(|e| pg_error(what, &e))?;
    Ok(row.get(0))
}

/// Applies the migrations the database lacks, in one transaction under [`schema::MIGRATION_LOCK`].
/// A database already at the latest version runs no DDL (a worker role without DDL rights opens it).
fn migrate(client: &mut Client, target: &Target) -> Result<(), StoreError> {
    let latest = schema::latest();
    let found = current_version(client)?;
    if found > latest {
        return Err(StoreError::new(format!(
            "the store {} has schema version {found}; this wellknown knows up to {latest} (upgrade wellknown)",
            target.display()
        )));
    }
    if found == latest {
        return Ok(());
    }
    let owner_hint = |e: &postgres::Error| {
        let base = pg_error("migrating the schema", e);
        if e.code() == Some(&postgres::error::SqlState::INSUFFICIENT_PRIVILEGE) {
            StoreError::new(format!(
                "{base}; the store {} is at schema version {found} and needs {latest}: connect once as the role \
                 that owns the schema (any wellknown command with --db does it), then again as this one",
                target.display()
            ))
        } else {
            base
        }
    };
    let mut tx = client.transaction().map_err(|e| pg_error("migrating the schema", &e))?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&schema::MIGRATION_LOCK]).map_err(|e| owner_hint(&e))?;
    tx.batch_execute(schema::CREATE_MIGRATIONS).map_err(|e| owner_hint(&e))?;
    // Another process may have migrated while this one waited for the lock.
    let now: i64 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM schema_migrations", &[])
        .map_err(|e| owner_hint(&e))?
        .get(0);
    for m in schema::MIGRATIONS.iter().filter(|m| m.version > now) {
        tx.batch_execute(m.sql).map_err(|e| owner_hint(&e))?;
        tx.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", &[&m.version, &m.name])
            .map_err(|e| owner_hint(&e))?;
    }
    tx.commit().map_err(|e| owner_hint(&e))
}

impl Store for PostgresStore {
    fn begin_scan(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
    ) -> Result<ScanId, StoreError> {
        self.with_reconnect(|s| write::insert_scan(&mut s.client, &mut s.prepared, started_at, plan, seeds, None))
    }

    fn begin_scan_with_lease(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
        lease: &Lease,
    ) -> Result<ScanId, StoreError> {
        self.with_reconnect(|s| {
            write::insert_scan(&mut s.client, &mut s.prepared, started_at, plan, seeds, Some(lease))
        })
    }

    fn acquire_lease(
        &mut self,
        scan: ScanId,
        lease: &Lease,
        now: Timestamp,
        dead: &dyn Fn(&Lease) -> bool,
    ) -> Result<Acquired, StoreError> {
        self.with_reconnect(|s| lease::acquire(&mut s.client, scan, lease, now, dead))
    }

    fn renew_lease(&mut self, scan: ScanId, holder: &str, expires_at: Timestamp) -> Result<bool, StoreError> {
        self.with_reconnect(|s| lease::renew(&mut s.client, scan, holder, expires_at))
    }

    fn release_lease(&mut self, scan: ScanId, holder: &str) -> Result<(), StoreError> {
        self.with_reconnect(|s| lease::release(&mut s.client, scan, holder))
    }

    fn leases(&mut self) -> Result<Vec<(ScanId, Lease)>, StoreError> {
        self.with_reconnect(|s| lease::all(&mut s.client))
    }

    fn write(&mut self, scan: ScanId, writes: &[Write]) -> Result<(), StoreError> {
        self.with_reconnect(|s| write::apply(&mut s.client, &mut s.prepared, scan, writes))
    }

    fn finish_scan(
        &mut self,
        scan: ScanId,
        finished_at: Timestamp,
        summary: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let n = self
            .client
            .execute(
                "UPDATE scans SET finished_at = $2, summary = $3::text::json WHERE id = $1",
                &[&scan, &finished_at, &summary.to_string()],
            )
            .map_err(|e| pg_error("finishing the scan", &e))?;
        if n == 0 {
            return Err(StoreError::new(format!("no scan {scan}")));
        }
        Ok(())
    }

    fn scans(&mut self) -> Result<Vec<ScanRow>, StoreError> {
        self.with_reconnect(|s| read::scans(&mut s.client))
    }

    fn units(&mut self, scan: ScanId) -> Result<Vec<UnitRow>, StoreError> {
        self.with_reconnect(|s| read::units(&mut s.client, scan))
    }

    fn load(&mut self) -> Result<GraphData, StoreError> {
        self.with_reconnect(|s| read::load(&mut s.client))
    }

    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn stream(
        &mut self,
        sql: &str,
        params: &[Param],
        each: &mut dyn FnMut(&SqlRow) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        // Reconnects before, never during: rows already handed on cannot be taken back.
        if self.client.is_closed() {
            self.reconnect()?;
        }
        stream::stream(&mut self.client, sql, params, each)
    }
}
