//! `wellknown parse PROBE FILE --url URL ...`: interpret one local file as if fetched from URL.

use url::Url;
use wellknown_core::{FetchMeta, RedirectHop, Report, Timestamp, probe_by_id, probes};

use crate::args::ParseArgs;
use crate::exit;

/// Runs the command: prints one JSON report. Exit 0 when the document is valid, 1 when it has
/// errors, 2 on bad arguments.
pub fn run(args: &ParseArgs) -> Result<i32, String> {
    let Some(probe) = probe_by_id(&args.probe) else {
        let ids: Vec<&str> = probes().iter().map(|p| p.id()).collect();
        return Err(format!("unknown probe {:?} (registered: {})", args.probe, ids.join(", ")));
    };
    let url = Url::parse(&args.url).map_err(|e| format!("--url {:?}: {e}", args.url))?;
    let now = match &args.now {
        Some(t) => t.parse::<Timestamp>().map_err(|e| format!("--now {t:?} is not an RFC 3339 instant: {e}"))?,
        None => Timestamp::now(),
    };
    let body = super::read_input(&args.file)?;
    let mut meta = FetchMeta::synthetic(url.clone(), args.content_type.as_deref(), now);
    meta.status = Some(args.status);
    meta.size = body.len() as u64;
    for r in &args.redirected_from {
        let u = Url::parse(r).map_err(|e| format!("--redirected-from {r:?}: {e}"))?;
        meta.redirect_chain.push(RedirectHop { url: u, status: 301 });
    }
    if let Some(first) = meta.redirect_chain.first() {
        meta.requested_url = first.url.clone();
    }
    let report = if meta.is_success() {
        probe.interpret(&body, &meta)
    } else {
        probe.interpret_unavailable(&meta).unwrap_or_else(|| {
            let mut r = Report::new(probe.id(), &url, "unavailable");
            r.error("http_status", format!("status {} is not a document to interpret", args.status), None);
            r
        })
    };
    let text = if args.pretty { serde_json::to_string_pretty(&report) } else { serde_json::to_string(&report) };
    super::print_line(&text.map_err(|e| e.to_string())?)?;
    Ok(if report.valid() { exit::FOUND } else { exit::NOTHING })
}
