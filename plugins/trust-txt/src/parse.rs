//! The trust.txt parser: `interpret(body, meta) -> Report`. Pure: no I/O, no clock, no panics.
//!
//! Grammar (JournalList trust.txt reference document, "File format"): one record per line,
//! `variable=value`; `#` starts a comment that runs to the end of the line (as in ads.txt, from which
//! the format comes); blank lines are ignored; variable names are case-insensitive.

use std::collections::HashSet;

use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::media::{MediaType, looks_like_html};
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Host, Locator, Origin, Report};

use crate::codes;

/// Fetch cap (bytes after content decoding): association files list hundreds of members, about 100
/// bytes each. Larger bodies are truncated and diagnosed `too_large`; the records before the cut are
/// read (the last, possibly cut, line is not).
pub const MAX_BODY_BYTES: u64 = 512 * 1024;

/// Variables whose value is an organisation's site: `origin` candidates (and `url` with a path).
pub const ORGANISATION_VARIABLES: [&str; 6] = ["belongto", "member", "control", "controlledby", "vendor", "customer"];

/// Interprets a trust.txt body fetched as described by `meta`.
///
/// Returns a report of kind `trust_txt` (`invalid` for an HTML page) with candidates located by line:
/// * `belongto`, `member`, `control`, `controlledby`, `vendor`, `customer`: an `origin` candidate (the
///   URL's origin, relation = the variable) and, when the URL has a path other than `/`, a `url`
///   candidate; a value without a scheme gives a `host` candidate flagged `invalid`
///   (`missing_scheme`);
/// * `social`, `disclosure`: a `url` candidate (relation = the variable);
/// * `contact`: a `contact` candidate (`mailto:` put in front of a bare e-mail address).
///
/// Facts: `records`, `comments` (comment lines), `datatrainingallowed` (`yes`/`no`, when declared),
/// `variables` (count per variable). Diagnostics: [`crate::codes::ALL`].
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "trust_txt");
    report.too_large_if_truncated(meta, MAX_BODY_BYTES);
    if meta.url.path() == "/trust.txt" {
        report.warn(
            shared::LEGACY_LOCATION,
            "served at /trust.txt; the reference document recommends /.well-known/trust.txt",
            None,
        );
    }
    let essence = meta.content_type.as_deref().and_then(MediaType::parse).map(|m| m.essence);
    if essence.as_deref() != Some("text/plain") {
        report.warn(
            shared::INVALID_CONTENT_TYPE,
            format!("Content-Type {:?} is not text/plain", meta.content_type.as_deref().unwrap_or("")),
            None,
        );
    }
    if looks_like_html(body) {
        report.error(shared::HTML_DOCUMENT, "an HTML page, not a trust.txt file", Some(Locator::Line(1)));
        report.kind = "invalid".to_string();
        return report;
    }
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            report.error(shared::INVALID_UTF8, format!("not UTF-8 from byte {at}"), Some(Locator::Byte(at as u64)));
            body.get(..at).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or_default()
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader { report, seen: HashSet::new(), training: None };
    let (mut records, mut comments, mut content_lines) = (0usize, 0usize, 0usize);
    let mut counts: std::collections::BTreeMap<&'static str, usize> = Default::default();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.len();
    for (i, raw) in lines.into_iter().enumerate() {
        // A cut body's last line may be cut too: not read.
        if meta.truncated && i + 1 == last && !text.ends_with('\n') {
            break;
        }
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (content, comment) = match raw.find('#') {
            Some(at) => (raw.get(..at).unwrap_or_default(), true),
            None => (raw, false),
        };
        let content = content.trim();
        if content.is_empty() {
            comments += usize::from(comment);
            continue;
        }
        content_lines += 1;
        let Some((variable, value)) = content.split_once('=') else {
            reader.report.warn(codes::UNRECOGNISED_LINE, "not a variable=value record", Some(Locator::Line(n)));
            continue;
        };
        let variable = variable.trim().to_ascii_lowercase();
        let value = value.trim();
        let Some(known) = KNOWN.iter().copied().find(|k| *k == variable) else {
            reader.report.warn(
                codes::UNKNOWN_VARIABLE,
                format!("unknown variable {variable:?}"),
                Some(Locator::Line(n)),
            );
            continue;
        };
        records += 1;
        *counts.entry(known).or_default() += 1;
        if value.is_empty() {
            reader.report.warn(codes::EMPTY_VALUE, format!("{known}= has no value"), Some(Locator::Line(n)));
            continue;
        }
        if !reader.seen.insert((known, value.to_string())) {
            reader.report.warn(
                codes::DUPLICATE_RECORD,
                format!("{known}={value} repeats an earlier record"),
                Some(Locator::Line(n)),
            );
            continue;
        }
        reader.record(known, value, n);
    }
    let mut report = reader.report;
    if records == 0 && content_lines > 0 {
        report.error(codes::NO_RECORDS, "no variable=value record: not trust.txt syntax", None);
    }
    report.fact("records", records);
    report.fact("comments", comments);
    report.fact(
        "variables",
        serde_json::Value::Object(counts.into_iter().map(|(k, v)| (k.to_string(), v.into())).collect()),
    );
    report
}

/// Every variable of the reference document (version of 2024-07-11).
const KNOWN: [&str; 10] = [
    "belongto",
    "member",
    "control",
    "controlledby",
    "social",
    "contact",
    "vendor",
    "customer",
    "disclosure",
    "datatrainingallowed",
];

struct Reader {
    report: Report,
    seen: HashSet<(&'static str, String)>,
    training: Option<(String, u32)>,
}

impl Reader {
    fn record(&mut self, variable: &'static str, value: &str, n: u32) {
        let loc = Some(Locator::Line(n));
        match variable {
            "contact" => {
                let v = if !value.contains(':') && value.contains('@') {
                    format!("mailto:{value}")
                } else {
                    value.to_string()
                };
                let v = Url::parse(&v).map(|u| u.to_string()).unwrap_or(v);
                self.report.candidate(Candidate::new(CandidateKind::Contact, "contact", v, loc));
            }
            "datatrainingallowed" => {
                let v = value.to_ascii_lowercase();
                if v != "yes" && v != "no" {
                    self.report.warn(
                        codes::INVALID_DATATRAINING,
                        format!("datatrainingallowed={value} is neither yes nor no"),
                        loc,
                    );
                    return;
                }
                match &self.training {
                    None => {
                        self.report.fact("datatrainingallowed", v.as_str());
                        self.training = Some((v, n));
                    }
                    Some((first, line)) if *first != v => {
                        self.report.warn(
                            codes::CONFLICTING_DATATRAINING,
                            format!("datatrainingallowed={v} contradicts line {line}"),
                            loc,
                        );
                    }
                    Some(_) => {}
                }
            }
            _ => self.url_record(variable, value, n),
        }
    }

    fn url_record(&mut self, variable: &'static str, value: &str, n: u32) {
        let loc = Some(Locator::Line(n));
        let has_scheme = value
            .split_once("://")
            .is_some_and(|(s, _)| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)));
        if !has_scheme {
            let Ok(u) = Url::parse(&format!("https://{value}")) else {
                self.report.error(codes::INVALID_URL, format!("{variable}={value} is not a URL"), loc);
                return;
            };
            self.report.warn(
                codes::MISSING_SCHEME,
                format!("{variable}={value} has no scheme: a URL is expected"),
                loc.clone(),
            );
            if let Some(h) = u.host() {
                self.report.candidate(
                    Candidate::new(CandidateKind::Host, variable, Host::from(h).name(), loc).with_flag("invalid"),
                );
            }
            return;
        }
        let url = match Url::parse(value) {
            Ok(u) => u,
            Err(e) => {
                self.report.error(codes::INVALID_URL, format!("{variable}={value} is not a URL: {e}"), loc);
                return;
            }
        };
        let organisation = ORGANISATION_VARIABLES.contains(&variable);
        if organisation
            && matches!(url.scheme(), "http" | "https")
            && let Ok(origin) = Origin::from_url(&url)
        {
            self.report.candidate(Candidate::new(CandidateKind::Origin, variable, origin.ascii(), loc.clone()));
            if url.path() == "/" && url.query().is_none() {
                return;
            }
        }
        self.report.candidate(Candidate::new(CandidateKind::Url, variable, url.as_str(), loc));
    }
}
