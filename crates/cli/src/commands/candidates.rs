//! `wellknown candidates [--kind K] [--in-scope] [--status S] [--format lines|jsonl]`.

use wellknown_core::{CandidateKind, Timestamp};
use wellknown_engine::VerifyStatus;
use wellknown_store::analysis::{CandidateQuery, UNVERIFIED, candidates};
use wellknown_store::{SqliteStore, Store};

use crate::args::CandidatesArgs;
use crate::config;
use crate::exit;

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
    let g = SqliteStore::open_existing(&path).and_then(|mut s| s.load()).map_err(|e| e.to_string())?;
    let q = CandidateQuery { kind: args.kind.clone(), in_scope_only: args.in_scope, status: args.status.clone() };
    let rows = candidates(&g, &q, Timestamp::now());
    for r in &rows {
        let line =
            if args.format == "jsonl" { serde_json::to_string(r).map_err(|e| e.to_string())? } else { r.value.clone() };
        super::print_line(&line)?;
    }
    Ok(if rows.is_empty() { exit::NOTHING } else { exit::FOUND })
}
