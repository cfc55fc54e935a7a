//! Opening the store, for reading (`scans`, `candidates`, `graph`, `diff`: read-only) and for a scan
//! (checked before the first request), with errors that name the path and say what to do.

use std::path::Path;

use wellknown_store::SqliteStore;

/// The store `path`, opened read-only ([`SqliteStore::open_read_only`]): a store the user may only
/// read (a read-only file or folder, another user's file) can be queried, and nothing is written to
/// it.
///
/// Errors: one line naming the path and what to do (run a scan first, give `--db`, copy a store
/// whose write-ahead log cannot be read).
pub fn for_reading(path: &Path) -> Result<SqliteStore, String> {
    SqliteStore::open_read_only(path).map_err(|e| reading_error(path, &e))
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
    format!("cannot read the store {}: {e}{hint}", path.display())
}

/// The store `db` of a scan, opened for writing after SQLite's `quick_check`
/// ([`SqliteStore::open_checked`]): a store that cannot be opened, is no store, or is damaged is
/// refused before the first request.
///
/// Errors: [`scan_error`].
pub fn for_scanning(db: &Path) -> Result<SqliteStore, String> {
    SqliteStore::open_checked(db).map_err(|e| scan_error(db, &e))
}

/// One line saying which store failed and what to do instead (checked before any request).
pub fn scan_error(db: &Path, e: &dyn std::fmt::Display) -> String {
    let e = e.to_string().replace('\n', " ");
    let restore = if e.contains("malformed") || e.contains("damaged") { ": restore it from a copy" } else { "" };
    format!(
        "cannot use the store {}: {e}{restore}; give --db PATH (a writable location) or --no-store (JSON Lines only)",
        db.display()
    )
}

/// The command that resumes scan `id` of the store `db`: `wellknown scan --resume ID`, with
/// `--db PATH` unless `db` is the default store.
pub fn resume_command(db: &Path, id: i64) -> String {
    if db == Path::new(crate::config::DEFAULT_DB) {
        format!("wellknown scan --resume {id}")
    } else {
        format!("wellknown scan --resume {id} --db {}", db.display())
    }
}
