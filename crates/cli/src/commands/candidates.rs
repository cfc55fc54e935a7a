//! `wellknown candidates [--kind K] [--in-scope] [--status S] [--format lines|jsonl] [-o FILE]`.

use wellknown_core::{CandidateKind, Timestamp};
use wellknown_records::VerifyStatus;
use wellknown_store::Store;
use wellknown_store::analysis::{CandidateQuery, UNVERIFIED, candidates};

use crate::args::CandidatesArgs;
use crate::exit;
use crate::{config, output, store_open};

/// Prints the matching candidate values: one per line (`lines`), or one JSON object each (`jsonl`:
/// kind, value, in_scope, status, http_status, target, confidence, relations, documents,
/// first_seen, last_seen, flags). Exit 0 when something matched, 1 when nothing did.
pub fn run(args: &CandidatesArgs) -> Result<i32, String> {
    if let Some(k) = &args.kind
        && CandidateKind::parse(k).is_none()
    {
        let all: Vec<&str> = CandidateKind::ALL.iter().map(|k| k.as_str()).collect();
        return Err(format!("--kind {k:?}: expected one of {}", all.join(", ")));
    }
    if let Some(s) = &args.status
        && s != UNVERIFIED
        && VerifyStatus::parse(s).is_none()
    {
        let mut all: Vec<&str> = VerifyStatus::ALL.iter().map(|v| v.as_str()).collect();
        all.push(UNVERIFIED);
        return Err(format!("--status {s:?}: expected one of {}", all.join(", ")));
    }
    if !matches!(args.format.as_str(), "lines" | "jsonl") {
        return Err(format!("--format {:?}: expected lines or jsonl", args.format));
    }
    let path = config::store_path(&args.store)?;
    output::check(args.output.as_deref(), &args.store, &path)?;
    let g = store_open::for_reading(&path)?.load().map_err(|e| store_open::reading_error(&path, &e))?;
    let mut out = output::open_output(args.output.as_deref(), "--output")?;
    let q = CandidateQuery { kind: args.kind.clone(), in_scope_only: args.in_scope, status: args.status.clone() };
    let rows = candidates(&g, &q, Timestamp::now());
    for r in &rows {
        let line =
            if args.format == "jsonl" { serde_json::to_string(r).map_err(|e| e.to_string())? } else { r.value.clone() };
        output::write_line(&mut out, &line)?;
    }
    output::finish(&mut out)?;
    Ok(if rows.is_empty() { exit::NOTHING } else { exit::FOUND })
}
