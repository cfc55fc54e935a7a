//! The targets of a new scan: command-line arguments, `-` (standard input) and `--list FILE`, read
//! as lines and parsed into origins.

use std::io::BufRead;

use tokio::sync::mpsc;
use wellknown_core::Origin;

use super::Signals;
use crate::args::ScanArgs;

/// One target line as written, and where it was read: `None` for an argument, `FILE:LINE` for
/// `--list FILE`, `stdin:LINE` for `-` (lines counted from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct TargetLine {
    /// The line as written.
    pub text: String,
    /// `FILE:LINE` or `stdin:LINE`; `None` for a command-line argument.
    pub at: Option<String>,
}

impl TargetLine {
    fn argument(text: &str) -> TargetLine {
        TargetLine { text: text.to_string(), at: None }
    }
}

/// Target lines from arguments, `-` (standard input, read to its end) and `--list FILE`, in that
/// order, and the signal that interrupted the reading of standard input if one did: the lines read
/// until then are kept, and the other sources are still read (they cannot block).
///
/// Standard input is read on a thread of its own while `signals` are listened to, so a producer
/// that is slow or never closes its end (`subfinder ... | wellknown scan -`) cannot keep a signal
/// from being handled.
///
/// Errors: an unreadable standard input or list.
pub async fn read_targets(
    args: &ScanArgs,
    signals: &mut Signals,
) -> Result<(Vec<TargetLine>, Option<&'static str>), String> {
    let mut raw: Vec<TargetLine> = Vec::new();
    let mut interrupted = None;
    let mut stdin_lines = 0usize;
    for t in &args.targets {
        if t != "-" {
            raw.push(TargetLine::argument(t));
            continue;
        }
        if interrupted.is_some() {
            continue;
        }
        let (tx, mut rx) = mpsc::unbounded_channel::<Result<String, String>>();
        // Not joined: after a signal the thread may stay blocked on a read until the process exits.
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let line = line.map_err(|e| format!("reading targets from standard input: {e}"));
                let failed = line.is_err();
                if tx.send(line).is_err() || failed {
                    break;
                }
            }
        });
        loop {
            tokio::select! {
                line = rx.recv() => match line {
                    Some(line) => {
                        stdin_lines += 1;
                        raw.push(TargetLine { text: line?, at: Some(format!("stdin:{stdin_lines}")) });
                    }
                    None => break,
                },
                name = signals.recv() => {
                    interrupted = Some(name);
                    break;
                }
            }
        }
    }
    if let Some(path) = &args.list {
        let text = std::fs::read_to_string(path).map_err(|e| format!("reading --list {}: {e}", path.display()))?;
        raw.extend(
            text.lines()
                .enumerate()
                .map(|(i, l)| TargetLine { text: l.to_string(), at: Some(format!("{}:{}", path.display(), i + 1)) }),
        );
    }
    Ok((raw, interrupted))
}

/// The origins named by target lines (see [`read_targets`]); blank lines and `#` comments are
/// skipped.
///
/// Errors: a target that is neither an origin, URL nor host name, or whose scheme is not http(s),
/// quoted as written and preceded by where it was read (`hosts.txt:3: target "https://[::1": …`,
/// `stdin:2: …`; arguments have no prefix).
pub fn parse_targets(raw: &[TargetLine]) -> Result<Vec<Origin>, String> {
    let mut out = Vec::new();
    for line in raw {
        let t = line.text.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let at = line.at.as_deref().map(|a| format!("{a}: ")).unwrap_or_default();
        let origin = Origin::parse_target(t).map_err(|e| format!("{at}target {t:?}: {e}"))?;
        if !matches!(origin.scheme(), "http" | "https") {
            return Err(format!(
                "{at}target {t:?}: scheme {:?} is not scanned (the documents wellknown reads are served over http \
                 and https; give https://{} or the host alone)",
                origin.scheme(),
                origin.host().name()
            ));
        }
        out.push(origin);
    }
    Ok(out)
}
