//! Opening the store, for reading (`scans`, `candidates`, `graph`, `diff`: read-only) and for a scan
//! (checked before the first request), with errors that name the store and say what to do.
//!
//! `--db` names a SQLite file, or a PostgreSQL database by a `postgres://` / `postgresql://` URL
//! (`wellknown_store_postgres::connect`: the password comes from `PGPASSWORD` or a password file,
//! never the command line; messages show the URL without any password).

use std::path::Path;

use wellknown_store::{SqliteStore, Store};
use wellknown_store_postgres::PostgresStore;

/// Whether `db` is a PostgreSQL URL rather than a SQLite file.
pub fn is_url(db: &Path) -> bool {
    db.to_str().is_some_and(wellknown_store_postgres::is_postgres_url)
}

/// How messages name the store `db`: its path, or its URL without a password.
pub fn shown(db: &Path) -> String {
    match db.to_str() {
        Some(url) if is_url(db) => wellknown_store_postgres::redact(url),
        _ => db.display().to_string(),
    }
}

fn postgres(db: &Path) -> Result<PostgresStore, wellknown_store::StoreError> {
    PostgresStore::connect(db.to_str().unwrap_or_default())
}

/// The store `path`, opened read-only: a SQLite file through [`SqliteStore::open_read_only`] (a
/// store the user may only read can be queried, and nothing is written to it); a PostgreSQL
/// database with every transaction read-only (`default_transaction_read_only`).
///
/// Errors: one line naming the store and what to do (run a scan first, give `--db`, copy a store
/// whose write-ahead log cannot be read, reach the server).
pub fn for_reading(path: &Path) -> Result<Box<dyn Store>, String> {
    if is_url(path) {
        let mut store = postgres(path).map_err(|e| reading_error(path, &e))?;
        store.set_read_only().map_err(|e| reading_error(path, &e))?;
        return Ok(Box::new(store));
    }
    Ok(Box::new(SqliteStore::open_read_only(path).map_err(|e| reading_error(path, &e))?))
}

/// The store `db` opened for writing, unchecked: a second connection of a running scan (its
/// heartbeat).
///
/// Errors: [`scan_error`].
pub fn for_writing(db: &Path) -> Result<Box<dyn Store>, String> {
    if is_url(db) {
        return Ok(Box::new(postgres(db).map_err(|e| scan_error(db, &e))?));
    }
    Ok(Box::new(SqliteStore::open(db).map_err(|e| scan_error(db, &e))?))
}

/// An error reading the store `path`, as one line naming it and what to do.
pub fn reading_error(path: &Path, e: &dyn std::fmt::Display) -> String {
    let e = e.to_string().replace('\n', " ");
    let hint = if e.contains("malformed") || e.contains("damaged") {
        "; the store is damaged: restore it from a copy, or give --db PATH for another store"
    } else if e.contains("--db") {
        ""
    } else {
        "; give --db PATH naming a wellknown store (`wellknown scan` creates one)"
    };
    format!("cannot read the store {}: {e}{hint}", shown(path))
}

/// The store `db` of a scan, opened for writing: a SQLite file after SQLite's `quick_check`
/// ([`SqliteStore::open_checked`]), so a store that cannot be opened, is no store, or is damaged is
/// refused before the first request; a PostgreSQL database once connected and migrated.
///
/// Errors: [`scan_error`].
pub fn for_scanning(db: &Path) -> Result<Box<dyn Store>, String> {
    if is_url(db) {
        return Ok(Box::new(postgres(db).map_err(|e| scan_error(db, &e))?));
    }
    Ok(Box::new(SqliteStore::open_checked(db).map_err(|e| scan_error(db, &e))?))
}

/// One line saying which store failed and what to do instead (checked before any request).
pub fn scan_error(db: &Path, e: &dyn std::fmt::Display) -> String {
    let e = e.to_string().replace('\n', " ");
    let restore = if e.contains("malformed") || e.contains("damaged") { ": restore it from a copy" } else { "" };
    format!(
        "cannot use the store {}: {e}{restore}; give --db PATH (a writable location) or --no-store (JSON Lines only)",
        shown(db)
    )
}

/// The command that resumes scan `id` of the store `db`: `wellknown scan --resume ID`, with
/// `--db PATH` unless `db` is the default store.
pub fn resume_command(db: &Path, id: i64) -> String {
    if db == Path::new(crate::config::DEFAULT_DB) {
        format!("wellknown scan --resume {id}")
    } else {
        format!("wellknown scan --resume {id} --db {}", shown(db))
    }
}
