//! The scan's summary on standard error (one line, and the list of targets when every one failed),
//! and the summary-only output of a scan interrupted while its targets were still being read.

use std::io::Write;

use wellknown_core::Origin;
use wellknown_records::Record;

use crate::config::Settings;
use crate::exit;
use crate::kept::Kept;
use crate::store_open::resume_command;

/// A signal arrived while targets were still being read from standard input: nothing is
/// requested; the targets read so far are in the store as an unfinished scan (`kept`, when any
/// was read and the store is on), and the `summary` record (`"interrupted": true`, `units` 0) is
/// still written last. Returns [`exit::INTERRUPTED`].
///
/// Errors: the store writer failed.
pub(super) async fn interrupted_before_scan(
    name: &str,
    targets: &[Origin],
    kept: Option<Kept>,
    writer: &mut Box<dyn Write + Send>,
    settings: &Settings,
    started: std::time::Instant,
) -> Result<i32, String> {
    let distinct: std::collections::HashSet<String> = targets.iter().map(Origin::ascii).collect();
    let summary = wellknown_records::Summary {
        targets: distinct.len(),
        elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        interrupted: true,
        ..wellknown_records::Summary::default()
    };
    let rec = Record::Summary(summary.clone());
    let resume = kept.as_ref().map(|k| resume_command(&k.db, k.id));
    if let Some(kept) = kept {
        kept.send(rec.clone()).await;
        tokio::task::spawn_blocking(move || kept.finish()).await.map_err(|e| format!("store writer: {e}"))??;
    }
    // A closed pipe loses only the summary; the exit code still tells the interruption.
    let _ = serde_json::to_writer(&mut *writer, &rec)
        .map_err(std::io::Error::from)
        .and_then(|()| writer.write_all(b"\n"))
        .and_then(|()| writer.flush());
    if !settings.quiet {
        crate::note!("{}", summary_line(&summary, &[]));
    }
    let what = match distinct.len() {
        0 => "no target had been read; nothing was scanned".to_string(),
        n => match &resume {
            Some(resume) => format!("{n} target(s) read, none scanned; `{resume}` scans them"),
            None => format!("{n} target(s) read, none scanned (no store: nothing to resume)"),
        },
    };
    crate::note!("wellknown: interrupted by {name} while reading targets from standard input: {what}");
    Ok(exit::INTERRUPTED)
}

/// One line of the "every target failed" list on standard error: the target and its failure
/// classes; a `private_address` refusal names the flag that lifts it.
pub fn unreachable_line(origin: &str, classes: &[String]) -> String {
    let mut line =
        format!("  {origin}: {}", if classes.is_empty() { "no response".to_string() } else { classes.join(", ") });
    if classes.iter().any(|c| c == "private_address") {
        line.push_str(" (a loopback, private or otherwise non-public address: refused without --allow-private)");
    }
    line
}

/// The summary printed on standard error at the end of a scan: targets (and why the unreachable
/// ones failed), documents (answered 2xx, recognised by their probe, failed to fetch, and of those
/// the ones not attempted because their origin was found unreachable; redirects not followed, out
/// of scope or into a refused private address, which are answers), candidates, diagnostics and
/// time.
pub fn summary_line(s: &wellknown_records::Summary, unreachable: &[(String, Vec<String>)]) -> String {
    let mut classes: Vec<&str> = unreachable.iter().flat_map(|(_, c)| c.iter().map(String::as_str)).collect();
    classes.sort_unstable();
    classes.dedup();
    let failed = match (s.unreachable, classes.is_empty()) {
        (0, _) => String::new(),
        (n, true) => format!(", {n} unreachable"),
        (n, false) => format!(", {n} unreachable ({})", classes.join(", ")),
    };
    let by_class = if s.failures_by_class.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = s.failures_by_class.iter().map(|(c, n)| format!("{n} {c}")).collect();
        format!(" ({})", list.join(", "))
    };
    let skipped = match s.documents_not_attempted {
        0 => String::new(),
        n => format!(" ({n} not attempted: origin unreachable or too slow)"),
    };
    let catch_all = match s.documents_catch_all {
        0 => String::new(),
        n => format!(", {n} answered like a random path (catch_all)"),
    };
    let budgets = if s.budgets.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = s.budgets.iter().map(|(b, n)| format!("{b} {n}")).collect();
        format!("; budgets reached in {} unit(s), left undone: {}", s.units_over_budget, list.join(", "))
    };
    let redirected = match s.redirected_out_of_scope {
        0 => String::new(),
        n => format!(", {n} redirected out of scope"),
    };
    let private = match s.redirected_to_private {
        0 => String::new(),
        n => format!(", {n} redirected to a private address"),
    };
    let interrupted = if s.interrupted { " (interrupted)" } else { "" };
    format!(
        "wellknown{interrupted}: {} target(s): {} reachable{failed}; {} document(s): {} answered 2xx, {} recognised, {} \
         failed to fetch{by_class}{skipped}{redirected}{private}{catch_all}; {} candidate(s); diagnostics: {} error(s), \
         {} warning(s){budgets}; {} ms",
        s.targets,
        s.reachable,
        s.documents,
        s.documents_found,
        s.documents_recognised,
        s.fetch_failures,
        s.candidates,
        s.errors,
        s.warnings,
        s.elapsed_ms
    )
}

#[cfg(test)]
mod tests {
    use super::{summary_line, unreachable_line};

    #[test]
    fn a_private_address_refusal_names_allow_private() {
        assert_eq!(
            unreachable_line("https://127.0.0.1:42353", &["private_address".to_string()]),
            "  https://127.0.0.1:42353: private_address (a loopback, private or otherwise non-public address: \
             refused without --allow-private)"
        );
        assert_eq!(
            unreachable_line("https://a.example", &["connect_refused".to_string()]),
            "  https://a.example: connect_refused"
        );
        assert_eq!(unreachable_line("https://a.example", &[]), "  https://a.example: no response");
    }

    #[test]
    fn redirects_not_followed_are_named_apart_from_fetch_failures() {
        let s = wellknown_records::Summary {
            targets: 1,
            reachable: 1,
            documents: 3,
            fetch_failures: 0,
            redirected_out_of_scope: 1,
            redirected_to_private: 2,
            elapsed_ms: 5,
            ..wellknown_records::Summary::default()
        };
        assert_eq!(
            summary_line(&s, &[]),
            "wellknown: 1 target(s): 1 reachable; 3 document(s): 0 answered 2xx, 0 recognised, 0 failed to fetch, 1 \
             redirected out of scope, 2 redirected to a private address; 0 candidate(s); diagnostics: 0 error(s), 0 \
             warning(s); 5 ms"
        );
    }
}
