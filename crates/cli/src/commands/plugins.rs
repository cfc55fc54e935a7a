//! `wellknown plugins`: the registered probes, their well-known suffix and IANA registry status.

use serde_json::json;
use wellknown_core::{iana, probes};

use crate::args::PluginsArgs;
use crate::exit;

/// The registry status of a probe's suffix, as a short word: `permanent`, `provisional`, ...,
/// `not registered`, or `n/a` for documents outside /.well-known/.
pub fn registry_status(suffix: Option<&str>) -> String {
    match suffix {
        None => "n/a (not under /.well-known/)".to_string(),
        Some(s) => match iana::lookup(s) {
            Some(e) => e.status.to_string(),
            None => "not registered".to_string(),
        },
    }
}

/// Prints the table (or JSON Lines with `--json`).
pub fn run(args: &PluginsArgs) -> Result<i32, String> {
    let list = probes();
    if args.json {
        for p in &list {
            let line = json!({
                "id": p.id(),
                "suffix": p.suffix(),
                "registry": registry_status(p.suffix()),
                "runs_on_origin": p.runs_on_origin(),
                "spec": p.spec(),
                "summary": p.summary(),
            });
            println!("{line}");
        }
    } else {
        println!("{:<28} {:<30} {:<32} SPEC", "PROBE", "SUFFIX", "IANA REGISTRY");
        for p in &list {
            let suffix = p.suffix().map(|s| format!("/.well-known/{s}")).unwrap_or_else(|| "-".into());
            let reg = registry_status(p.suffix());
            println!("{:<28} {:<30} {:<32} {}", p.id(), suffix, reg, p.spec());
        }
    }
    Ok(if list.is_empty() { exit::NOTHING } else { exit::FOUND })
}
