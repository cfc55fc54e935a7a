//! The SQLite backend: one file (default `wellknown.db` in the working directory), WAL journal.
//!
//! Durability: `journal_mode=WAL` with `synchronous=NORMAL`. A committed transaction survives the
//! process being killed (SIGKILL included): the WAL is in the OS page cache and is replayed on the
//! next open. Only an operating-system crash or power loss can lose the last transactions, which
//! `synchronous=FULL` would prevent at a cost the scan does not need.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, params};
use wellknown_core::{CandidateKind, Method, Timestamp};
use wellknown_records::{UnitKind, VerifySource, VerifyStatus};

use crate::id_cache::IdCache;
use crate::lease::{self, Acquired, Lease};
use crate::model::{
    DOCUMENT_NODE, DocumentRow, EvidenceRow, GraphData, NodeRow, RelationRow, RelationWrite, ScanId, ScanRow,
    StoredVerification, UnitRow, UnitState, VerificationRow, VhostRow, Write,
};
use crate::query::{Dialect, Param, SqlRow};
use crate::{Store, StoreError, schema, sqlite_stream};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::new(format!("sqlite: {e}"))
    }
}

/// How long a writer waits for another connection's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The SQLite store.
pub struct SqliteStore {
    conn: Connection,
    cache: IdCache,
    path: Option<PathBuf>,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore").field("path", &self.path).finish_non_exhaustive()
    }
}

fn ts(t: &Timestamp) -> String {
    t.to_string()
}

fn parse_ts(s: &str) -> Result<Timestamp, StoreError> {
    s.parse().map_err(|e| StoreError::new(format!("stored timestamp {s:?}: {e}")))
}

fn parse_json(s: Option<String>) -> serde_json::Value {
    s.and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(serde_json::Value::Null)
}

/// The first 16 bytes of every SQLite database file ("SQLite format 3" and a NUL; the file format's
/// header string, <https://www.sqlite.org/fileformat.html> section 1.3).
pub const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Whether the file at `path` starts with [`SQLITE_MAGIC`]: a SQLite database (a `wellknown` store
/// or any other). A missing or unreadable file is not.
pub fn is_sqlite_database(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && &head == SQLITE_MAGIC
}

impl SqliteStore {
    /// Opens (creating if needed) the store at `path`, in WAL mode, with the current schema.
    ///
    /// Errors: the file cannot be opened or created, is not a SQLite database, or has a newer schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path).map_err(|e| StoreError::new(format!("opening {}: {e}", path.display())))?;
        SqliteStore::init(conn, Some(path), false)
    }

    /// [`SqliteStore::open`], after SQLite's `PRAGMA quick_check` has found the file sound, before
    /// anything is written to it: what a scan opens its store with, so a damaged store is refused
    /// before the first request rather than after the scan. The check reads the whole file (about a
    /// second per few hundred MB).
    ///
    /// Errors: as [`SqliteStore::open`]; the check's first finding (`the store is damaged: ...`).
    pub fn open_checked(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path).map_err(|e| StoreError::new(format!("opening {}: {e}", path.display())))?;
        SqliteStore::init(conn, Some(path), true)
    }

    /// Opens an existing store; does not create one.
    ///
    /// Errors: no file at `path` (the message says to run a scan first), or as [`SqliteStore::open`].
    pub fn open_existing(path: &Path) -> Result<SqliteStore, StoreError> {
        if !path.is_file() {
            return Err(missing(path));
        }
        SqliteStore::open(path)
    }

    /// Opens an existing store for reading only (`SQLITE_OPEN_READ_ONLY`): nothing is written to it,
    /// and a file or folder the user may only read can be queried. A store in WAL mode needs its
    /// `-shm` index, which SQLite creates beside the file; in a folder that cannot be written and
    /// without a `-wal` file holding data, the file is opened as immutable instead (`immutable=1`:
    /// nothing can be writing it). A store of an older schema is upgraded first, which needs write
    /// access once.
    ///
    /// Errors: no file at `path`; not a SQLite database; no `wellknown` store in it; a newer schema;
    /// a `-wal` file with data that cannot be read without write access to the folder; an older
    /// schema that cannot be upgraded. Each message names the path and what to do.
    pub fn open_read_only(path: &Path) -> Result<SqliteStore, StoreError> {
        if !path.is_file() {
            return Err(missing(path));
        }
        let conn = match read_only(path, "mode=ro") {
            Ok(c) => c,
            Err(first) => {
                let mut wal = path.as_os_str().to_owned();
                wal.push("-wal");
                let wal = PathBuf::from(wal);
                if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                    return Err(StoreError::new(format!(
                        "{first}; its write-ahead log {} holds writes that SQLite can only read with write access \
                         to the folder: copy both files into a writable folder and query the copy (--db COPY)",
                        wal.display()
                    )));
                }
                read_only(path, "immutable=1")?
            }
        };
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > schema::VERSION {
            return Err(newer(version));
        }
        if version == 0 {
            return Err(StoreError::new(format!(
                "{} is a SQLite database but no wellknown store (no schema version): give the store with --db, or \
                 run `wellknown scan` to create one",
                path.display()
            )));
        }
        if version < schema::VERSION {
            drop(conn);
            SqliteStore::open(path).map_err(|e| {
                StoreError::new(format!(
                    "the store {} has schema version {version} and is upgraded to {} when first opened, which needs \
                     write access: {e}; copy it into a writable folder and query the copy (--db COPY)",
                    path.display(),
                    schema::VERSION
                ))
            })?;
            return SqliteStore::open_read_only(path);
        }
        sqlite_stream::register(&conn)?;
        Ok(SqliteStore { conn, cache: IdCache::default(), path: Some(path.to_path_buf()) })
    }

    /// A store in memory (tests).
    ///
    /// Errors: SQLite could not allocate it.
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        SqliteStore::init(Connection::open_in_memory()?, None, false)
    }

    /// The file this store was opened from (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn init(conn: Connection, path: Option<&Path>, check: bool) -> Result<SqliteStore, StoreError> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        if check {
            quick_check(&conn)?;
        }
        let _mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // 4 MiB of page cache (the default is 2 MiB): the indexes a scan looks nodes and relations
        // up in stay in memory longer, without growing the process much.
        conn.pragma_update(None, "cache_size", -4_096)?;
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > schema::VERSION {
            return Err(newer(version));
        }
        if version >= 1 {
            for (to, sql) in schema::UPGRADES.iter().filter(|(to, _)| *to > version) {
                conn.execute_batch(sql)
                    .map_err(|e| StoreError::new(format!("upgrading the store to schema version {to}: {e}")))?;
            }
        }
        conn.execute_batch(schema::CREATE)?;
        conn.execute_batch(schema::CREATE_MIGRATIONS)?;
        let now = Timestamp::now().to_string();
        for (v, name) in schema::MIGRATIONS {
            let applied = (*v > version).then_some(now.as_str());
            conn.execute(
                "INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                params![v, name, applied],
            )?;
        }
        conn.pragma_update(None, "user_version", schema::VERSION)?;
        sqlite_stream::register(&conn)?;
        Ok(SqliteStore { conn, cache: IdCache::default(), path: path.map(Path::to_path_buf) })
    }

    /// The journal mode in force (`wal` for a file, `memory` in memory).
    ///
    /// Errors: SQLite errors.
    pub fn journal_mode(&self) -> Result<String, StoreError> {
        Ok(self.conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?)
    }

    /// The lease row of scan `scan`, if any (expired ones included).
    ///
    /// Errors: SQLite errors.
    pub fn lease(&self, scan: ScanId) -> Result<Option<Lease>, StoreError> {
        Ok(lease::all(&self.conn)?.into_iter().find(|(s, _)| *s == scan).map(|(_, l)| l))
    }
}

fn missing(path: &Path) -> StoreError {
    StoreError::new(format!("no store at {} (run `wellknown scan` first, or give --db)", path.display()))
}

fn newer(version: i64) -> StoreError {
    StoreError::new(format!(
        "the store has schema version {version}; this wellknown knows up to {} (upgrade wellknown)",
        schema::VERSION
    ))
}

/// `PRAGMA quick_check(1)`: `ok`, or the first problem found.
fn quick_check(conn: &Connection) -> Result<(), StoreError> {
    let found: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    if found == "ok" {
        Ok(())
    } else {
        Err(StoreError::new(format!("the store is damaged (SQLite's quick_check: {found})")))
    }
}

/// The memory SQLite may keep for a reading connection (`PRAGMA soft_heap_limit`), bytes.
const SQLITE_READ_HEAP_BYTES: i64 = 16 << 20;

/// Opens `path` read-only through a `file:` URI with `param` (`mode=ro`, `immutable=1`), and reads
/// its header, which is when SQLite finds out whether it can.
fn read_only(path: &Path, param: &str) -> Result<Connection, StoreError> {
    let uri = format!("file:{}?{param}", uri_path(path));
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(&uri, flags)
        .map_err(|e| StoreError::new(format!("opening {} read-only: {e}", path.display())))?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // The analyses' sorts and intermediate tables go to temporary files, not memory (the bundled
    // SQLite keeps them in memory by default), so a query's memory does not grow with the store.
    conn.pragma_update(None, "temp_store", "FILE")?;
    // And SQLite's caches (of the file, of each temporary table and sort) share one budget, which
    // it keeps by recycling pages: the memory of a query does not grow with the store.
    conn.pragma_update(None, "soft_heap_limit", SQLITE_READ_HEAP_BYTES)?;
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0))
        .map_err(|e| StoreError::new(format!("reading {}: {e}", path.display())))?;
    Ok(conn)
}

/// `path` for a `file:` URI: absolute, every byte but unreserved characters, `/` and `:`
/// percent-encoded (RFC 3986 section 2.1), so `?`, `#` and `%` in a file name stay part of it.
fn uri_path(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        abs.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = abs.to_string_lossy().replace('\\', "/").into_bytes();
    let mut out = String::with_capacity(bytes.len());
    for b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b':' | b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Applies one write inside `tx`.
fn apply(tx: &Transaction<'_>, cache: &mut IdCache, scan: ScanId, w: &Write) -> Result<(), StoreError> {
    match w {
        Write::Unit(u) => {
            tx.prepare_cached(
                "INSERT INTO units (scan_id, kind, value, depth, revealed_by, state, in_scope)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (scan_id, kind, value) DO UPDATE SET
                   state = CASE WHEN units.state = 'done' THEN 'done'
                                WHEN units.state = 'pending' AND excluded.state <> 'done' THEN 'pending'
                                ELSE excluded.state END,
                   depth = MIN(units.depth, excluded.depth),
                   revealed_by = COALESCE(units.revealed_by, excluded.revealed_by),
                   in_scope = excluded.in_scope",
            )?
            .execute(params![
                scan,
                u.kind.as_str(),
                u.value,
                u.depth,
                u.revealed_by,
                u.state.as_str(),
                u.in_scope
            ])?;
        }
        Write::Document(d) => {
            let id: i64 = tx
                .prepare_cached(
                    "INSERT INTO documents (scan_id, origin, probe, role, hop, requested_url, url, status,
                       redirect_chain, content_type, size, sha256, truncated, fetched_at, failure_class,
                       failure_message, kind, valid, facts, via, not_attempted)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)
                     ON CONFLICT (scan_id, probe, requested_url, via) DO UPDATE SET
                       origin = excluded.origin, role = excluded.role, hop = excluded.hop, url = excluded.url,
                       status = excluded.status, redirect_chain = excluded.redirect_chain,
                       content_type = excluded.content_type, size = excluded.size, sha256 = excluded.sha256,
                       truncated = excluded.truncated, fetched_at = excluded.fetched_at,
                       failure_class = excluded.failure_class, failure_message = excluded.failure_message,
                       kind = excluded.kind, valid = excluded.valid, facts = excluded.facts,
                       not_attempted = excluded.not_attempted
                     RETURNING id",
                )?
                .query_row(
                    params![
                        scan,
                        d.origin,
                        d.probe,
                        d.role,
                        d.hop,
                        d.requested_url,
                        d.url,
                        d.status,
                        d.redirect_chain,
                        d.content_type,
                        i64::try_from(d.size).unwrap_or(i64::MAX),
                        d.sha256,
                        d.truncated,
                        ts(&d.fetched_at),
                        d.failure_class,
                        d.failure_message,
                        d.kind,
                        d.valid,
                        d.facts,
                        d.via,
                        d.not_attempted
                    ],
                    |r| r.get(0),
                )?;
            let key = cache.key(&(scan, d.probe.as_str(), d.url.as_str()));
            cache.docs.insert(key, id);
        }
        Write::Diagnostic(d) => {
            let Some(doc) = document_id(tx, cache, scan, &d.probe, &d.document_url)? else { return Ok(()) };
            tx.prepare_cached(
                "INSERT OR IGNORE INTO diagnostics (document_id, severity, code, message, locator)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                doc,
                d.severity.as_str(),
                d.code,
                d.message,
                d.locator.clone().unwrap_or_default()
            ])?;
        }
        Write::Relation(r) => relation(tx, cache, scan, r)?,
        Write::Verification(v) => {
            let node = node_id(tx, cache, v.kind.as_str(), &v.value, None, &v.verified_at)?;
            tx.prepare_cached(
                "INSERT INTO verifications (node_id, scan_id, status, http_status, target, method,
                   failure_class, failure_message, source, verified_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                 ON CONFLICT (node_id, scan_id) DO UPDATE SET
                   status = excluded.status, http_status = excluded.http_status, target = excluded.target,
                   method = excluded.method, failure_class = excluded.failure_class,
                   failure_message = excluded.failure_message, source = excluded.source,
                   verified_at = excluded.verified_at",
            )?
            .execute(params![
                node,
                scan,
                v.status.as_str(),
                v.http_status,
                v.target,
                v.method.map(Method::as_str),
                v.failure_class,
                v.failure_message,
                v.source.as_str(),
                ts(&v.verified_at)
            ])?;
        }
        Write::Vhost(v) => {
            tx.prepare_cached(
                "INSERT INTO vhosts (scan_id, host, origin, revealed_by, address, answers, status, failure_class, checked_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                 ON CONFLICT (scan_id, host, address) DO UPDATE SET
                   answers = excluded.answers, status = excluded.status,
                   failure_class = excluded.failure_class, checked_at = excluded.checked_at",
            )?
            .execute(params![
                scan,
                v.host,
                v.origin,
                v.revealed_by,
                v.address,
                v.answers,
                v.status,
                v.failure_class,
                ts(&v.checked_at)
            ])?;
        }
    }
    Ok(())
}

fn document_id(
    tx: &Transaction<'_>,
    cache: &mut IdCache,
    scan: ScanId,
    probe: &str,
    url: &str,
) -> Result<Option<i64>, StoreError> {
    let key = cache.key(&(scan, probe, url));
    if let Some(id) = cache.docs.get(key) {
        return Ok(Some(id));
    }
    // By final URL; else by requested URL: the evidence of a redirect that was not followed (out of
    // scope) names the document that redirected, whose final URL is the refused target.
    let mut id: Option<i64> = tx
        .prepare_cached(
            "SELECT id FROM documents WHERE scan_id = ?1 AND probe = ?2 AND url = ?3 ORDER BY id DESC LIMIT 1",
        )?
        .query_row(params![scan, probe, url], |r| r.get(0))
        .optional()?;
    if id.is_none() {
        id = tx
            .prepare_cached(
                "SELECT id FROM documents WHERE scan_id = ?1 AND probe = ?2 AND requested_url = ?3
                 ORDER BY id DESC LIMIT 1",
            )?
            .query_row(params![scan, probe, url], |r| r.get(0))
            .optional()?;
    }
    if let Some(id) = id {
        cache.docs.insert(key, id);
    }
    Ok(id)
}

/// The node's id, inserting it when new; a known scope replaces an unknown or different one
/// (`in_scope` None leaves the stored scope as it is).
fn node_id(
    tx: &Transaction<'_>,
    cache: &mut IdCache,
    kind: &str,
    value: &str,
    in_scope: Option<bool>,
    seen: &Timestamp,
) -> Result<i64, StoreError> {
    let key = cache.key(&(kind, value));
    if let Some((id, stored)) = cache.nodes.get(key)
        && (in_scope.is_none() || stored == in_scope)
    {
        return Ok(id);
    }
    // One statement whether the node is new or not: the upsert returns the row's id either way.
    let (id, stored): (i64, Option<bool>) = tx
        .prepare_cached(
            "INSERT INTO nodes (kind, value, in_scope, first_seen) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (kind, value) DO UPDATE SET in_scope = COALESCE(excluded.in_scope, nodes.in_scope)
             RETURNING id, in_scope",
        )?
        .query_row(params![kind, value, in_scope, ts(seen)], |r| Ok((r.get(0)?, r.get(1)?)))?;
    cache.nodes.insert(key, (id, stored));
    Ok(id)
}

fn relation(tx: &Transaction<'_>, cache: &mut IdCache, scan: ScanId, r: &RelationWrite) -> Result<(), StoreError> {
    let Some(doc) = document_id(tx, cache, scan, &r.probe, &r.document_url)? else {
        return Err(StoreError::new(format!(
            "evidence for {} {} names document {} ({}) that this scan has not recorded",
            r.kind, r.value, r.document_url, r.probe
        )));
    };
    let source = node_id(tx, cache, DOCUMENT_NODE, &r.document_url, None, &r.fetched_at)?;
    let target = node_id(tx, cache, r.kind.as_str(), &r.value, r.in_scope, &r.fetched_at)?;
    let key = cache.key(&(source, r.relation.as_str(), target));
    let rel = match cache.relations.get(key) {
        Some(id) => id,
        None => {
            // The no-op update makes RETURNING answer for an existing relation too.
            let id: i64 = tx
                .prepare_cached(
                    "INSERT INTO relations (source_id, relation, target_id, first_seen) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (source_id, relation, target_id) DO UPDATE SET first_seen = relations.first_seen
                     RETURNING id",
                )?
                .query_row(params![source, r.relation, target, ts(&r.fetched_at)], |row| row.get(0))?;
            cache.relations.insert(key, id);
            id
        }
    };
    tx.prepare_cached(
        "INSERT OR IGNORE INTO evidence (relation_id, scan_id, document_id, probe, fetched_at, status, locator, hints, flags)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        rel,
        scan,
        doc,
        r.probe,
        ts(&r.fetched_at),
        r.status,
        r.locator.as_deref().unwrap_or_default(),
        r.hints,
        r.flags
    ])?;
    Ok(())
}

fn opt_locator(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

impl SqliteStore {
    /// Records a new scan, its seed units and (when given) its lease, in one transaction.
    fn insert_scan(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
        lease: Option<&Lease>,
    ) -> Result<ScanId, StoreError> {
        let tx = self.conn.transaction()?;
        let id: ScanId = tx.query_row(
            "INSERT INTO scans (started_at, plan) VALUES (?1, ?2) RETURNING id",
            params![ts(&started_at), plan.to_string()],
            |r| r.get(0),
        )?;
        if let Some(lease) = lease {
            lease::put(&tx, id, lease)?;
        }
        for u in seeds {
            apply(&tx, &mut self.cache, id, &Write::Unit(u.clone()))?;
        }
        tx.commit()?;
        Ok(id)
    }
}

impl Store for SqliteStore {
    fn begin_scan(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
    ) -> Result<ScanId, StoreError> {
        self.insert_scan(started_at, plan, seeds, None)
    }

    fn begin_scan_with_lease(
        &mut self,
        started_at: Timestamp,
        plan: &serde_json::Value,
        seeds: &[UnitRow],
        lease: &Lease,
    ) -> Result<ScanId, StoreError> {
        self.insert_scan(started_at, plan, seeds, Some(lease))
    }

    fn acquire_lease(
        &mut self,
        scan: ScanId,
        lease: &Lease,
        now: Timestamp,
        dead: &dyn Fn(&Lease) -> bool,
    ) -> Result<Acquired, StoreError> {
        lease::acquire(&mut self.conn, scan, lease, now, dead)
    }

    fn renew_lease(&mut self, scan: ScanId, holder: &str, expires_at: Timestamp) -> Result<bool, StoreError> {
        lease::renew(&self.conn, scan, holder, expires_at)
    }

    fn release_lease(&mut self, scan: ScanId, holder: &str) -> Result<(), StoreError> {
        lease::release(&self.conn, scan, holder)
    }

    fn leases(&mut self) -> Result<Vec<(ScanId, Lease)>, StoreError> {
        lease::all(&self.conn)
    }

    fn write(&mut self, scan: ScanId, writes: &[Write]) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        let mut applied = Ok(());
        for w in writes {
            applied = apply(&tx, &mut self.cache, scan, w);
            if applied.is_err() {
                break;
            }
        }
        match applied {
            Ok(()) => Ok(tx.commit()?),
            Err(e) => {
                // Rolled back: ids cached during this batch may name rows that no longer exist.
                self.cache = IdCache::default();
                Err(e)
            }
        }
    }

    fn finish_scan(
        &mut self,
        scan: ScanId,
        finished_at: Timestamp,
        summary: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let n = self.conn.execute(
            "UPDATE scans SET finished_at = ?2, summary = ?3 WHERE id = ?1",
            params![scan, ts(&finished_at), summary.to_string()],
        )?;
        if n == 0 {
            return Err(StoreError::new(format!("no scan {scan}")));
        }
        Ok(())
    }

    fn scans(&mut self) -> Result<Vec<ScanRow>, StoreError> {
        let mut stmt = self.conn.prepare("SELECT id, started_at, finished_at, plan, summary FROM scans ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, started, finished, plan, summary) = row?;
            out.push(ScanRow {
                id,
                started_at: parse_ts(&started)?,
                finished_at: finished.as_deref().map(parse_ts).transpose()?,
                plan: parse_json(plan),
                summary: parse_json(summary),
            });
        }
        Ok(out)
    }

    fn units(&mut self, scan: ScanId) -> Result<Vec<UnitRow>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT kind, value, depth, revealed_by, state, in_scope FROM units WHERE scan_id = ?1 ORDER BY rowid",
        )?;
        let rows = stmt.query_map(params![scan], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, bool>(5)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (kind, value, depth, revealed_by, state, in_scope) = row?;
            let state =
                UnitState::parse(&state).ok_or_else(|| StoreError::new(format!("unknown unit state {state:?}")))?;
            let kind = UnitKind::parse(&kind).ok_or_else(|| StoreError::new(format!("unknown unit kind {kind:?}")))?;
            out.push(UnitRow { kind, value, depth, revealed_by, state, in_scope });
        }
        Ok(out)
    }

    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn stream(
        &mut self,
        sql: &str,
        params: &[Param],
        each: &mut dyn FnMut(&SqlRow) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        sqlite_stream::stream(&self.conn, sql, params, each)
    }

    fn load(&mut self) -> Result<GraphData, StoreError> {
        let scans = self.scans()?;
        let c = &self.conn;
        let mut nodes = Vec::new();
        let mut stmt = c.prepare("SELECT id, kind, value, in_scope, first_seen FROM nodes ORDER BY id")?;
        for row in stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, r.get(3)?, r.get::<_, String>(4)?))
        })? {
            let (id, kind, value, in_scope, first) = row?;
            nodes.push(NodeRow { id, kind, value, in_scope, first_seen: parse_ts(&first)? });
        }
        let mut relations = Vec::new();
        let mut stmt = c.prepare("SELECT id, source_id, relation, target_id, first_seen FROM relations ORDER BY id")?;
        for row in stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get::<_, String>(2)?, r.get(3)?, r.get::<_, String>(4)?))
        })? {
            let (id, source, relation, target, first) = row?;
            relations.push(RelationRow { id, source, relation, target, first_seen: parse_ts(&first)? });
        }
        let mut evidence = Vec::new();
        let mut stmt = c.prepare(
            "SELECT id, relation_id, scan_id, document_id, probe, fetched_at, status, locator, hints, flags
             FROM evidence ORDER BY id",
        )?;
        for row in stmt.query_map([], |r| {
            Ok((
                (r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?),
                (r.get::<_, String>(4)?, r.get::<_, String>(5)?, r.get::<_, Option<u16>>(6)?),
                (r.get::<_, String>(7)?, r.get::<_, String>(8)?, r.get::<_, String>(9)?),
            ))
        })? {
            let ((id, relation, scan, document), (probe, fetched, status), (locator, hints, flags)) = row?;
            evidence.push(EvidenceRow {
                id,
                relation,
                scan,
                document,
                probe,
                fetched_at: parse_ts(&fetched)?,
                status,
                locator: opt_locator(locator),
                hints,
                flags,
            });
        }
        let mut documents = Vec::new();
        let mut stmt = c.prepare(
            "SELECT id, scan_id, origin, probe, role, hop, requested_url, url, status, redirect_chain, content_type,
                    size, sha256, truncated, fetched_at, failure_class, failure_message, kind, valid, facts, via,
                    not_attempted
             FROM documents ORDER BY id",
        )?;
        for row in stmt.query_map([], |r| {
            Ok(DocumentRow {
                id: r.get(0)?,
                scan: r.get(1)?,
                origin: r.get(2)?,
                probe: r.get(3)?,
                role: r.get(4)?,
                hop: r.get(5)?,
                requested_url: r.get(6)?,
                url: r.get(7)?,
                status: r.get(8)?,
                redirect_chain: r.get(9)?,
                content_type: r.get(10)?,
                size: u64::try_from(r.get::<_, i64>(11)?).unwrap_or_default(),
                sha256: r.get(12)?,
                truncated: r.get(13)?,
                fetched_at: Timestamp::UNIX_EPOCH,
                failure_class: r.get(15)?,
                failure_message: r.get(16)?,
                kind: r.get(17)?,
                valid: r.get(18)?,
                facts: r.get(19)?,
                via: r.get(20)?,
                not_attempted: r.get(21)?,
            })
            .and_then(|d| Ok((d, r.get::<_, String>(14)?)))
        })? {
            let (mut d, fetched) = row?;
            d.fetched_at = parse_ts(&fetched)?;
            documents.push(d);
        }
        let mut verifications = Vec::new();
        let mut stmt = c.prepare(
            "SELECT v.node_id, n.kind, n.value, v.scan_id, v.status, v.http_status, v.target, v.method,
                    v.failure_class, v.failure_message, v.source, v.verified_at
             FROM verifications v JOIN nodes n ON n.id = v.node_id ORDER BY v.id",
        )?;
        for row in stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                (
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(7)?,
                    r.get::<_, String>(10)?,
                ),
                VerificationRow {
                    kind: CandidateKind::Url,
                    value: r.get(2)?,
                    scan: r.get(3)?,
                    status: VerifyStatus::Alive,
                    http_status: r.get(5)?,
                    target: r.get(6)?,
                    method: None,
                    failure_class: r.get(8)?,
                    failure_message: r.get(9)?,
                    source: VerifySource::Request,
                    verified_at: Timestamp::UNIX_EPOCH,
                },
                r.get::<_, String>(11)?,
            ))
        })? {
            let (node, (kind, status, method, source), mut v, at) = row?;
            v.kind = CandidateKind::parse(&kind)
                .ok_or_else(|| StoreError::new(format!("unknown candidate kind {kind:?} of a verified node")))?;
            v.status =
                VerifyStatus::parse(&status).ok_or_else(|| StoreError::new(format!("unknown verdict {status:?}")))?;
            v.method = method
                .map(|m| Method::parse(&m).ok_or_else(|| StoreError::new(format!("unknown verification method {m:?}"))))
                .transpose()?;
            v.source = VerifySource::parse(&source)
                .ok_or_else(|| StoreError::new(format!("unknown verification source {source:?}")))?;
            v.verified_at = parse_ts(&at)?;
            verifications.push(StoredVerification { node, row: v });
        }
        let mut vhosts = Vec::new();
        let mut stmt = c.prepare(
            "SELECT scan_id, host, origin, revealed_by, address, answers, status, failure_class, checked_at
             FROM vhosts ORDER BY id",
        )?;
        for row in stmt.query_map([], |r| {
            Ok((
                VhostRow {
                    scan: r.get(0)?,
                    host: r.get(1)?,
                    origin: r.get(2)?,
                    revealed_by: r.get(3)?,
                    address: r.get(4)?,
                    answers: r.get(5)?,
                    status: r.get(6)?,
                    failure_class: r.get(7)?,
                    checked_at: Timestamp::UNIX_EPOCH,
                },
                r.get::<_, String>(8)?,
            ))
        })? {
            let (mut v, at) = row?;
            v.checked_at = parse_ts(&at)?;
            vhosts.push(v);
        }
        Ok(GraphData { scans, nodes, relations, evidence, documents, verifications, vhosts })
    }
}
