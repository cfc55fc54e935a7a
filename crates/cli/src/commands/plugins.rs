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

/// Where a probe looks on an origin, as paths (`/robots.txt`; `/.well-known/security.txt, /security.txt`),
/// or as a URL with `<host>` for the origin's host when the location is on another host
/// (`https://mta-sts.<host>/.well-known/mta-sts.txt`), or `(follow-up only)` for probes that only
/// read URLs other documents name (jwks).
fn location(p: &dyn wellknown_core::WellKnownProbe) -> String {
    const EXAMPLE: &str = "origin.invalid";
    if !p.runs_on_origin() {
        return "(follow-up only)".to_string();
    }
    let Ok(origin) = wellknown_core::Origin::parse_target(&format!("https://{EXAMPLE}")) else { return "-".into() };
    let paths: Vec<String> = p
        .locations(&wellknown_core::Target::origin(origin))
        .iter()
        .map(|u| match u.host_str() {
            Some(h) if h != EXAMPLE => format!("{}://{}{}", u.scheme(), h.replace(EXAMPLE, "<host>"), u.path()),
            _ => u.path().to_string(),
        })
        .collect();
    if paths.is_empty() { "-".to_string() } else { paths.join(", ") }
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
            super::print_line(&line.to_string())?;
        }
    } else {
        let rows: Vec<[String; 4]> = list
            .iter()
            .map(|p| {
                let suffix = location(*p);
                [p.id().to_string(), suffix, registry_status(p.suffix()), p.spec().to_string()]
            })
            .collect();
        let header = ["PROBE".to_string(), "LOCATION".to_string(), "IANA REGISTRY".to_string(), "SPEC".to_string()];
        let mut widths = [0usize; 3];
        for row in std::iter::once(&header).chain(&rows) {
            for (w, cell) in widths.iter_mut().zip(row.iter()) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&header).chain(&rows) {
            let line = format!(
                "{:<w0$}  {:<w1$}  {:<w2$}  {}",
                row[0],
                row[1],
                row[2],
                row[3],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2]
            );
            super::print_line(&line)?;
        }
    }
    Ok(if list.is_empty() { exit::NOTHING } else { exit::FOUND })
}
