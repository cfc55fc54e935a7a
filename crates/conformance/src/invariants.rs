//! What every report of a probe's `interpret` must satisfy, whatever the input: the assertions the
//! plugins' no-panic property tests share (`tests/it/no_panic.rs`, contract rules 5.1, 5.2, 6.2,
//! 7.3), so that a property test fails on a wrong report, not only on a panic.

use serde_json::Value;
use wellknown_core::{FetchMeta, Report, Severity, WellKnownProbe, code_listed};

/// Most candidates a body of `len` bytes may yield: two per byte (a URL and the host it reveals),
/// plus a few read from the fetch metadata (a redirect target and its host) rather than the body.
pub fn max_candidates(len: usize) -> usize {
    2 * len + 16
}

/// Interprets `body` with `probe` (through the trait, as the engine does) and checks the report:
///
/// * it names the probe (`report.probe` is [`WellKnownProbe::id`]) and its final URL;
/// * `valid` is exactly "no error", errors are errors and warnings warnings (rule 6.2);
/// * every diagnostic code is one the probe declares ([`WellKnownProbe::codes`], rule 7.3);
/// * candidates are bounded by the input ([`max_candidates`]), follow-ups by the candidates' bound;
/// * its JSON form is an object whose `valid`, `errors`, `warnings` and `candidates` agree with the
///   report;
/// * interpreting the same input again gives the same JSON (rule 5.1: pure).
///
/// Returns the report, or every broken invariant in one message.
pub fn check_interpret(probe: &dyn WellKnownProbe, body: &[u8], meta: &FetchMeta) -> Result<Report, String> {
    let report = probe.interpret(body, meta);
    let mut problems = check_report(probe, &report, body.len(), meta);
    let again = serde_json::to_string(&probe.interpret(body, meta)).unwrap_or_default();
    if serde_json::to_string(&report).unwrap_or_default() != again {
        problems.push("a second interpretation of the same input differs".to_string());
    }
    if problems.is_empty() { Ok(report) } else { Err(format!("{}: {}", probe.id(), problems.join("; "))) }
}

/// The invariants of one report of `probe` for a body of `len` bytes fetched as `meta` (see
/// [`check_interpret`]; also usable for `interpret_unavailable`, with `len` 0). Returns the broken
/// ones, empty when none is.
pub fn check_report(probe: &dyn WellKnownProbe, report: &Report, len: usize, meta: &FetchMeta) -> Vec<String> {
    let mut problems = Vec::new();
    if report.probe != probe.id() {
        problems.push(format!("report.probe is {:?}", report.probe));
    }
    if report.url != meta.url.as_str() {
        problems.push(format!("report.url is {:?}, not the final URL {}", report.url, meta.url));
    }
    if report.valid() != report.errors.is_empty() {
        problems.push("valid disagrees with the errors".to_string());
    }
    if let Some(d) = report.errors.iter().find(|d| d.severity != Severity::Error) {
        problems.push(format!("{} listed as an error with severity {:?}", d.code, d.severity));
    }
    if let Some(d) = report.warnings.iter().find(|d| d.severity != Severity::Warning) {
        problems.push(format!("{} listed as a warning with severity {:?}", d.code, d.severity));
    }
    for d in report.errors.iter().chain(&report.warnings) {
        if !code_listed(probe.codes(), &d.code) {
            problems.push(format!("code {:?} is not in the probe's codes::ALL", d.code));
        }
    }
    if report.candidates.len() > max_candidates(len) {
        problems.push(format!("{} candidates from {len} bytes", report.candidates.len()));
    }
    if report.follow_ups.len() > max_candidates(len) {
        problems.push(format!("{} follow-ups from {len} bytes", report.follow_ups.len()));
    }
    match serde_json::to_value(report) {
        Ok(Value::Object(json)) => {
            let count = |key: &str| json.get(key).and_then(Value::as_array).map(Vec::len);
            if json.get("valid").and_then(Value::as_bool) != Some(report.valid()) {
                problems.push("JSON `valid` disagrees with the report".to_string());
            }
            if count("errors") != Some(report.errors.len()) || count("warnings") != Some(report.warnings.len()) {
                problems.push("JSON `errors` / `warnings` disagree with the report".to_string());
            }
            if count("candidates") != Some(report.candidates.len()) {
                problems.push("JSON `candidates` disagree with the report".to_string());
            }
        }
        Ok(other) => problems.push(format!("the report serialises to {other}, not an object")),
        Err(e) => problems.push(format!("the report does not serialise: {e}")),
    }
    problems
}
