//! What a scan refuses to write its JSON Lines over, checked before any output is opened.

use std::path::{Path, PathBuf};

use crate::args::ScanArgs;
use crate::config::{self, Settings};
use crate::output::{self, FileKey};

/// Refuses an `--output` (flag, variable or file key) that is the store or any SQLite database
/// ([`output::refuse_database_output`], the rule every writer follows), or the same file as one the
/// scan reads: the `--list` file, a `ca_cert` file or the configuration file; and a standard output
/// that is the store file. Checked before anything is opened or truncated, so `-o wellknown.db` or
/// `--list l.txt -o l.txt` destroys nothing.
///
/// Errors: one line naming both settings and paths.
pub(super) fn check_output_clash(settings: &Settings, args: &ScanArgs, db: &Path) -> Result<(), String> {
    let Some(out) = settings.output.as_deref().filter(|p| *p != Path::new("-")) else {
        return if settings.store { output::refuse_store_as_stdout(db) } else { Ok(()) };
    };
    let db_source = match config::source(args, "db") {
        s if s == "db" => format!("the store {}", db.display()),
        s if s.starts_with("--") => format!("{s} {}", db.display()),
        s => format!("{s} (the store) {}", db.display()),
    };
    let out_source = config::source(args, "output");
    let out_source = if out_source.starts_with("--") { out_source } else { format!("{out_source} (the output)") };
    output::refuse_database_output(&out_source, out, settings.store.then_some((db_source.as_str(), db)))?;
    let mut guarded: Vec<(String, PathBuf)> = Vec::new();
    if let Some(l) = &args.list {
        guarded.push((format!("--list {}", l.display()), l.clone()));
    }
    let ca_source = config::source(args, "ca_cert");
    for c in &settings.ca_cert {
        let src = if ca_source.starts_with("--") { ca_source.clone() } else { format!("{ca_source}:") };
        guarded.push((format!("{src} {}", c.display()), c.clone()));
    }
    if let Some(f) = config::config_file(args)? {
        guarded.push((format!("configuration file {}", f.display()), f));
    }
    let out_key = FileKey::of(out);
    for (what, path) in guarded {
        if out_key.same_as(&FileKey::of(&path)) {
            return Err(format!(
                "{out_source} {} is the same file as {what}: writing JSON Lines there would destroy it; give another \
                 output file (or `-` for standard output)",
                out.display()
            ));
        }
    }
    Ok(())
}
