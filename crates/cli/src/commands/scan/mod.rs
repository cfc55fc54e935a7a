//! `wellknown scan TARGET...`: the main job, one file per seam:
//!
//! | file | holds |
//! | --- | --- |
//! | `mod.rs` | [`run`]: settings, the output, the runtime and the signals, a new or resumed scan, the engine |
//! | `targets.rs` | reading the targets (arguments, `-`, `--list`) and parsing them into origins |
//! | `output_clash.rs` | the outputs refused before anything is opened (the store, a database, a file the scan reads) |
//! | `new_scan.rs` | a new scan: its seeds, its plan and its unfinished row in the store |
//! | `resume.rs` | `--resume`: which scan, its lease, its stored plan checked against the settings, its units |
//! | `stream.rs` | the records from the engine to the output and the store, and what stops them (a signal, a lost lease, a reader gone) |
//! | `summary.rs` | the summary line and the "every target failed" list on standard error; a scan interrupted before it started |
//! | `signals.rs` | SIGINT and SIGTERM |

mod new_scan;
mod output_clash;
mod resume;
mod signals;
mod stream;
mod summary;
mod targets;

use std::path::PathBuf;
use std::sync::Arc;

use wellknown_engine::{Engine, SystemClock};

use crate::args::ScanArgs;
use crate::config;
use crate::output;
use crate::transport::HttpTransport;

pub use signals::Signals;
pub use summary::{summary_line, unreachable_line};
pub use targets::{TargetLine, parse_targets, read_targets};

/// Runs a scan (or, with `--resume`, finishes the last unfinished one); returns the exit code
/// (0 found something, 1 found nothing, 2 error, 130 interrupted).
///
/// SIGINT and SIGTERM are caught from before the targets are read: a signal while `-` is still
/// reading standard input stops there, records the targets read so far as an unfinished scan
/// (nothing is requested; `--resume` scans them) and still writes the `summary` record
/// (`"interrupted": true`).
pub fn run(args: &ScanArgs) -> Result<i32, String> {
    let started = std::time::Instant::now();
    crate::alloc::tune_for_scan();
    let settings = config::load(args)?;
    config::validate(&settings, args)?;
    let db = settings.db.clone().unwrap_or_else(|| PathBuf::from(config::DEFAULT_DB));
    output_clash::check_output_clash(&settings, args, &db)?;
    let mut writer = output::open_output(settings.output.as_deref(), &config::source(args, "output"))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("starting the runtime: {e}"))?;
    let mut signals = {
        let _runtime = rt.enter();
        Signals::install()?
    };
    let (stored, run_plan, store) = if let Some(wanted) = args.resume {
        resume::resume(&settings, args, &db, wanted)?
    } else {
        let (raw, interrupted) = rt.block_on(read_targets(args, &mut signals))?;
        let targets = parse_targets(&raw)?;
        if let Some(name) = interrupted {
            let kept = if targets.is_empty() && settings.issuer.is_empty() {
                None
            } else {
                new_scan::fresh(targets.clone(), &settings, &db)?.2
            };
            return rt.block_on(summary::interrupted_before_scan(
                name,
                &targets,
                kept,
                &mut writer,
                &settings,
                started,
            ));
        }
        new_scan::fresh(targets, &settings, &db)?
    };
    let config = stored.config(&settings)?;
    let transport = HttpTransport::from_settings(&settings, &config.scope)?;
    let net_stats = transport.stats();
    let engine = Engine::new(Arc::new(transport), Arc::new(SystemClock), config)?;
    rt.block_on(stream::scan(Arc::new(engine), run_plan, store, writer, (&settings, net_stats), signals))
}
