//! The `wellknown` command line: clap definitions, configuration (figment), output writers and the
//! commands. The only crate that knows clap, figment and indicatif; it links every plugin crate.
//!
//! The library half exists so `xtask` can generate the man page and shell completions from the same
//! clap definitions ([`args::command`]).

/// `eprintln!` that ignores a failed write: a diagnostic, progress or summary line on a closed or
/// full standard error (`wellknown scan ... 2>&1 | true`) is lost, and the exit code stays the
/// documented one (`eprintln!` would panic, exit 101).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod alloc;
pub mod args;
pub mod budget_notes;
pub mod commands;
pub mod config;
pub mod kept;
pub mod output;
pub mod plan;
pub mod plugins_linked;
pub mod progress;
pub mod proxy_settings;
pub mod robots_gate;
pub mod scan_lease;
pub mod store_open;
pub mod store_sink;
pub mod transport;
pub mod values;

/// Process exit codes (design.md, "Command line contract").
pub mod exit {
    /// The command ran and found something.
    pub const FOUND: i32 = 0;
    /// The command ran and found nothing.
    pub const NOTHING: i32 = 1;
    /// Error: bad arguments, unreadable input, or every target failed.
    pub const ERROR: i32 = 2;
    /// Interrupted by SIGINT or SIGTERM (128 + SIGINT, as shells report it); records written so far
    /// are complete and the stored scan can be resumed.
    pub const INTERRUPTED: i32 = 130;
}
