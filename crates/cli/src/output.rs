//! Where a command's output goes: `--output FILE` or standard output, and the one rule every writer
//! follows before it creates or truncates anything: never write over the store or any other SQLite
//! database.
//!
//! `scan -o`, `graph -o`, `candidates -o` and `diff -o` all call [`refuse_database_output`] (and
//! [`refuse_store_as_stdout`] for a shell redirection), so `wellknown graph -o wellknown.db` fails
//! the same way as `wellknown scan -o wellknown.db`: exit 2, one line naming the output and the
//! store, and the store left as it was.

use std::io::Write;
use std::path::{Path, PathBuf};

/// What identifies a file: its canonical path and, when it can be opened, its identity as the
/// `same-file` crate gives it (device and inode on Unix, volume and file index on Windows), which
/// catches hard links and other spellings of the same file.
pub struct FileKey {
    path: PathBuf,
    handle: Option<same_file::Handle>,
}

impl FileKey {
    /// The key of the file at `p`; a file that does not exist yet is named by its directory's
    /// canonical path and its name.
    pub fn of(p: &Path) -> FileKey {
        let path = std::fs::canonicalize(p)
            .or_else(|_| {
                // Not there yet: its directory's canonical path and its name.
                match (p.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d }), p.file_name()) {
                    (Some(d), Some(name)) => std::fs::canonicalize(d).map(|d| d.join(name)),
                    _ => std::path::absolute(p),
                }
            })
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf());
        FileKey { path, handle: same_file::Handle::from_path(p).ok() }
    }

    /// Whether both keys name the same file.
    pub fn same_as(&self, other: &FileKey) -> bool {
        if let (Some(a), Some(b)) = (&self.handle, &other.handle) {
            return a == b;
        }
        self.path == other.path
    }
}

/// The store's file and the companions SQLite keeps beside it, each with what it is to the store
/// (`""`, `"'s write-ahead log"`, ...).
fn store_files(db: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut out = vec![(db.to_path_buf(), "")];
    for (suffix, what) in
        [("-wal", "'s write-ahead log"), ("-shm", "'s shared-memory index"), ("-journal", "'s journal")]
    {
        let mut p = db.as_os_str().to_owned();
        p.push(suffix);
        out.push((PathBuf::from(p), what));
    }
    out
}

/// Refuses to write the output `out` (named in messages as `what`, e.g. `--output`) when it is the
/// store (`store`: how messages name it, e.g. `the store wellknown.db` or `--db x.db`, and its path;
/// its file, or the `-wal`, `-shm` or `-journal` file beside it, compared as [`FileKey`]s) or any
/// SQLite database (a file whose first 16 bytes are [`wellknown_store::SQLITE_MAGIC`]: another
/// store, or someone else's database). Called before the output is created, so nothing is
/// truncated. `-` (standard output) passes.
///
/// Errors: one line naming the output and the store or database, and what to do.
pub fn refuse_database_output(what: &str, out: &Path, store: Option<(&str, &Path)>) -> Result<(), String> {
    if out == Path::new("-") {
        return Ok(());
    }
    let give = "give another output file (or `-` for standard output)";
    if let Some((named, db)) = store {
        let key = FileKey::of(out);
        for (file, role) in store_files(db) {
            if key.same_as(&FileKey::of(&file)) {
                let part = if role.is_empty() { String::new() } else { format!("{role} ({})", file.display()) };
                return Err(format!(
                    "{what} {} is the same file as {named}{part}: writing there would destroy the store; {give}",
                    out.display()
                ));
            }
        }
    }
    if wellknown_store::is_sqlite_database(out) {
        let store = store.map(|(named, _)| format!(" ({named} is this command's store)")).unwrap_or_default();
        return Err(format!(
            "{what} {} is a SQLite database, maybe another store{store}: writing there would destroy it; {give}",
            out.display()
        ));
    }
    Ok(())
}

/// How messages name the store of a reading command: `--db PATH` when given so, else
/// `the store PATH`.
pub fn store_named(args: &crate::args::StoreArgs, path: &Path) -> String {
    match &args.db {
        Some(_) => format!("--db {}", crate::store_open::shown(path)),
        None => format!("the store {}", crate::store_open::shown(path)),
    }
}

/// Refuses to write to standard output when it is the store file itself (`wellknown graph >>
/// wellknown.db`; after `>` the shell has already emptied it): the output would overwrite the store.
/// Only Unix can tell (the device and inode of descriptor 1).
///
/// Errors: one line naming the store and what to do.
pub fn refuse_store_as_stdout(store: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        // Standard output counts only when it is a regular file (not a terminal or a pipe).
        let out = same_file::Handle::stdout().ok().filter(|h| h.as_file().metadata().is_ok_and(|m| m.is_file()));
        if let (Some(out), Ok(db)) = (out, same_file::Handle::from_path(store))
            && out == db
        {
            let state = if db.as_file().metadata().is_ok_and(|m| m.len() == 0) {
                "the shell's `>` has already emptied it: restore it from a copy"
            } else {
                "nothing was written to it"
            };
            return Err(format!(
                "standard output is the store {}: writing there would destroy the store ({state}); redirect to \
                 another file, or give -o FILE",
                store.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = store;
    Ok(())
}

/// The output: `path`, or standard output when absent or `-` (as Unix tools read it). The caller
/// checks it first ([`refuse_database_output`]). `source` names where the path came from
/// (`--output`, or a configuration key: see [`crate::config::source`]).
///
/// Errors: the file cannot be created, with its path and source.
pub fn open_output(path: Option<&Path>, source: &str) -> Result<Box<dyn Write + Send>, String> {
    match path {
        Some(p) if p != Path::new("-") => {
            let f = std::fs::File::create(p).map_err(|e| {
                if source.starts_with("--") {
                    format!("creating {source} {}: {e}", p.display())
                } else {
                    format!("{source}: creating {}: {e}", p.display())
                }
            })?;
            Ok(Box::new(std::io::BufWriter::new(f)))
        }
        _ => Ok(Box::new(std::io::BufWriter::new(std::io::stdout()))),
    }
}

/// Checks the output of a reading command (`candidates`, `diff`, `graph`, `scans`): `-o FILE` by
/// [`refuse_database_output`], standard output by [`refuse_store_as_stdout`]. Called before the
/// store is read and the output created, so a refused output leaves both as they were. `args` name
/// the store.
///
/// Errors: as those.
pub fn check(out: Option<&Path>, args: &crate::args::StoreArgs, store: &Path) -> Result<(), String> {
    match out.filter(|p| *p != Path::new("-")) {
        Some(p) => refuse_database_output("--output", p, Some((&store_named(args, store), store))),
        None => refuse_store_as_stdout(store),
    }
}

/// Writes `line` and a newline to `out`. A closed pipe (`wellknown ... | head`) is not an error: the
/// reader has what it wanted, so the process exits quietly with success.
///
/// Errors: any other write error, as text.
pub fn write_line(out: &mut dyn Write, line: &str) -> Result<(), String> {
    match out.write_all(line.as_bytes()).and_then(|()| out.write_all(b"\n")) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("writing the output: {e}")),
    }
}

/// Flushes `out` at the end ([`write_line`]'s rules for a closed pipe).
///
/// Errors: any other write error, as text.
pub fn finish(out: &mut dyn Write) -> Result<(), String> {
    match out.flush() {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("writing the output: {e}")),
    }
}
