//! `wellknown candidates [--kind K] [--in-scope] [--status S] [--format lines|jsonl] [-o FILE]`.

use wellknown_core::{CandidateKind, Timestamp};
use wellknown_records::VerifyStatus;
use wellknown_store::StoreError;
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
    let mut store = store_open::for_reading(&path)?;
    let mut out = output::open_output(args.output.as_deref(), "--output")?;
    let q = CandidateQuery { kind: args.kind.clone(), in_scope_only: args.in_scope, status: args.status.clone() };
    // The rows stream out of the database as they are printed: memory holds one candidate.
    let mut found = 0usize;
    let mut output_failed: Option<String> = None;
    let res = candidates(&mut *store, &q, Timestamp::now(), &mut |r| {
        found += 1;
        let line = if args.format == "jsonl" {
            serde_json::to_string(&r).map_err(|e| StoreError::new(e.to_string()))?
        } else {
            r.value
        };
        output::write_line(&mut out, &line).map_err(|e| {
            output_failed = Some(e.clone());
            StoreError::new(e)
        })
    });
    if let Some(e) = output_failed {
        return Err(e);
    }
    res.map_err(|e| store_open::reading_error(&path, &e))?;
    output::finish(&mut out)?;
    Ok(if found == 0 { exit::NOTHING } else { exit::FOUND })
}
