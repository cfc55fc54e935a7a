//! Every case of `tests/conformance/robots/` (copied from the project's shared conformance cases):
//! `robots_cases.jsonl` (parse + check: allowed or not) and `robots_scope_cases.jsonl` (does the
//! robots.txt at one URL govern another), plus the project's own `robots_location_cases.jsonl` in
//! the scope format. Failures are reported by case id, all at once.

use std::path::PathBuf;

use serde_json::Value;
use url::Url;
use wellknown_robots::{RobotsTxt, check_url};

fn cases(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/robots").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: bad line {l:.80}: {e}")))
        .collect()
}

fn s<'a>(case: &'a Value, key: &str) -> &'a str {
    case.get(key).and_then(Value::as_str).unwrap_or_else(|| panic!("case {case:.80} lacks {key}"))
}

fn b(case: &Value, key: &str) -> bool {
    case.get(key).and_then(Value::as_bool).unwrap_or_else(|| panic!("case {case:.80} lacks {key}"))
}

#[test]
fn robots_cases() {
    let all = cases("robots_cases.jsonl");
    assert!(all.len() >= 96, "expected every case, got {}", all.len());
    let mut failures = Vec::new();
    for case in &all {
        let robots = RobotsTxt::parse(s(case, "robots").as_bytes());
        let out = check_url(&robots, None, s(case, "agent"), s(case, "url"));
        let want = b(case, "allowed");
        if out.allowed != Some(want) || !out.applies {
            failures.push(format!("{}: want allowed={want}, got {out:?}", s(case, "id")));
        }
        // The plain path API gives the same answer.
        let path_verdict = robots.check(s(case, "agent"), s(case, "url"));
        if path_verdict.allowed != want {
            failures.push(format!("{} (check): want allowed={want}, got {path_verdict:?}", s(case, "id")));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), all.len(), failures.join("\n"));
}

#[test]
fn robots_scope_cases() {
    scope_cases("robots_scope_cases.jsonl", 22);
}

/// The project's own cases (same format as the scope cases): a robots.txt anywhere but the top-level,
/// all-lower-case `/robots.txt` of its origin governs nothing (RFC 9309 section 2.3).
#[test]
fn robots_location_cases() {
    scope_cases("robots_location_cases.jsonl", 12);
}

fn scope_cases(file: &str, at_least: usize) {
    let all = cases(file);
    assert!(all.len() >= at_least, "expected every case, got {}", all.len());
    let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
    let mut failures = Vec::new();
    for case in &all {
        let id = s(case, "id");
        let want = b(case, "applies");
        let (Ok(robots_url), Ok(target)) = (Url::parse(s(case, "robots_url")), Url::parse(s(case, "target_url")))
        else {
            failures.push(format!("{id}: URL does not parse"));
            continue;
        };
        let got = wellknown_core::origin::robots_applies(&robots_url, &target);
        if got != want {
            failures.push(format!("{id}: robots_applies want {want}, got {got}"));
        }
        // check_url agrees, and a file that does not apply allows everything.
        let out = check_url(&robots, Some(&robots_url), "FooBot", s(case, "target_url"));
        if out.applies != want
            || out.allowed != Some(!want)
            || out.rule.is_some() != want
            || out.reason.is_some() == want
        {
            failures.push(format!("{id}: check_url {out:?}"));
        }
        // A bare path is on the file's own origin: it applies exactly when the file is at its
        // origin's /robots.txt.
        let located = wellknown_core::origin::is_robots_location(&robots_url);
        let out = check_url(&robots, Some(&robots_url), "FooBot", target.path());
        if out.applies != located {
            failures.push(format!("{id}: check_url of the bare path {out:?}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), all.len(), failures.join("\n"));
}
