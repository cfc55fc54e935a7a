//! The conformance harness shared by the plugins' tests (a dev-dependency only; nothing in the
//! product links it), the property-test generators of the JSON probes ([`generate`]), and the
//! invariants every report must keep, which every plugin's no-panic property test asserts
//! ([`invariants::check_interpret`]).
//!
//! A case of `tests/conformance/wellknown/` is two files: `NAME.input` (the body as served) and
//! `NAME.meta.json` (`doc`, `url` = the final URL, `redirect_chain` = the URLs requested before it,
//! `content_type`, `now`, and `expect`: `valid`, `errors` and `warnings` as code sets, `candidates`
//! as lists per kind). See `tests/conformance/README.md` (the shared suite's description) and
//! `tests/conformance/PROJECT_CASES.md` (the cases this project added in the same formats).
//!
//! Each plugin keeps its own mapping from its report to the case's candidate lists (documents differ
//! in what they reveal); this crate loads cases, builds their fetch metadata and collects problems.
//! Test code: it panics with a clear message on a missing or malformed case file.

pub mod generate;
pub mod invariants;

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::path::PathBuf;

use serde_json::Value;
use url::Url;
use wellknown_core::{CandidateKind, Diagnostic, FetchMeta, Host, Locator, RedirectHop, Report, Timestamp};

/// `tests/conformance/wellknown` of the workspace.
pub fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown")
}

/// One case: its name (the file stem), the body and the parsed `meta.json`.
#[derive(Debug, Clone)]
pub struct Case {
    /// `NAME` of `NAME.input` / `NAME.meta.json`.
    pub name: String,
    /// The body as served.
    pub body: Vec<u8>,
    /// The parsed `NAME.meta.json`.
    pub meta: Value,
}

impl Case {
    /// The document type (`doc`): `security.txt`, `openid-configuration`, `assetlinks`, ...
    pub fn doc(&self) -> &str {
        self.meta["doc"].as_str().unwrap_or_default()
    }

    /// The expected answer (`expect`).
    pub fn expect(&self) -> &Value {
        &self.meta["expect"]
    }

    /// The fetch metadata the case describes: final URL, media type, clock, body size, and the
    /// redirect chain (its first URL is the URL requested; each hop recorded as a 301).
    pub fn fetch_meta(&self) -> FetchMeta {
        let m = &self.meta;
        let url = Url::parse(m["url"].as_str().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{}: url {:?}: {e}", self.name, m["url"]));
        let now: Timestamp = m["now"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .unwrap_or_else(|e| panic!("{}: now {:?} is not RFC 3339: {e}", self.name, m["now"]));
        let mut meta = FetchMeta::synthetic(url, m["content_type"].as_str(), now);
        let chain: Vec<Url> = strings(&m["redirect_chain"]).iter().filter_map(|u| Url::parse(u).ok()).collect();
        if let Some(first) = chain.first() {
            meta.requested_url = first.clone();
            meta.redirect_chain = chain.into_iter().map(|url| RedirectHop { url, status: 301 }).collect();
        }
        meta.size = self.body.len() as u64;
        meta
    }
}

/// Every case whose `meta.json` satisfies `select(name, meta)`, sorted by name.
pub fn cases(select: impl Fn(&str, &Value) -> bool) -> Vec<Case> {
    let dir = cases_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".meta.json").map(str::to_string))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for name in names {
        let read = |ext: &str| {
            let p = dir.join(format!("{name}.{ext}"));
            std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        };
        let meta: Value =
            serde_json::from_slice(&read("meta.json")).unwrap_or_else(|e| panic!("{name}.meta.json: {e}"));
        if select(&name, &meta) {
            out.push(Case { body: read("input"), name, meta });
        }
    }
    out
}

/// The cases whose name starts with `prefix` (`assetlinks_`, `aasa_`, `sectxt_`).
pub fn cases_with_prefix(prefix: &str) -> Vec<Case> {
    cases(|name, _| name.starts_with(prefix))
}

/// The strings of a JSON array (anything else: none).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// The distinct strings of a JSON array.
pub fn string_set(v: &Value) -> BTreeSet<String> {
    strings(v).into_iter().collect()
}

/// The codes of a list of diagnostics, as a set.
pub fn code_set(ds: &[Diagnostic]) -> BTreeSet<String> {
    ds.iter().map(|d| d.code.clone()).collect()
}

/// `(code, JSON pointer)` of each diagnostic, in order (None when its locator is not a pointer): the
/// shape the JSON probes' edge-case tests compare.
pub fn code_pointers(ds: &[Diagnostic]) -> Vec<(String, Option<String>)> {
    ds.iter()
        .map(|d| {
            let p = match &d.locator {
                Some(Locator::JsonPointer(p)) => Some(p.clone()),
                _ => None,
            };
            (d.code.clone(), p)
        })
        .collect()
}

/// The expected `(code, pointer)` entry of [`code_pointers`].
pub fn at_pointer(code: &str, pointer: &str) -> (String, Option<String>) {
    (code.to_string(), Some(pointer.to_string()))
}

/// Distinct candidate values of `kind`, in document order; a candidate flagged `excluded` (an
/// excluded app path) is written `NOT <value>`, as the cases write it.
pub fn distinct_values(report: &Report, kind: CandidateKind) -> Vec<String> {
    let mut seen = BTreeSet::new();
    report
        .candidates
        .iter()
        .filter(|c| c.kind() == kind)
        .map(|c| if c.has_flag("excluded") { format!("NOT {}", c.value()) } else { c.value().to_string() })
        .filter(|v| seen.insert(v.clone()))
        .collect()
}

/// The case format's candidate lists and the candidate kind each one holds.
pub const CASE_LISTS: [(&str, CandidateKind); 6] = [
    ("urls", CandidateKind::Url),
    ("hosts", CandidateKind::Host),
    ("apps", CandidateKind::App),
    ("contacts", CandidateKind::Contact),
    ("keys", CandidateKind::Key),
    ("paths", CandidateKind::Path),
];

/// What differs between a report and a case's expectation, collected for one message.
#[derive(Debug, Default)]
pub struct Problems(Vec<String>);

impl Problems {
    /// Compares `valid` and the error and warning code sets with `expect`.
    pub fn diagnostics(&mut self, report: &Report, expect: &Value) {
        self.compare("valid", Some(report.valid()), expect["valid"].as_bool());
        self.compare("errors", code_set(&report.errors), string_set(&expect["errors"]));
        self.compare("warnings", code_set(&report.warnings), string_set(&expect["warnings"]));
    }

    /// Compares every list of [`CASE_LISTS`] (distinct values in document order, an absent list
    /// meaning none) and flags a candidate of any kind outside those lists and `also`.
    pub fn ordered_candidates(&mut self, report: &Report, expect: &Value, also: &[CandidateKind]) {
        for (list, kind) in CASE_LISTS {
            let want = strings(&expect["candidates"][list]);
            self.compare(&format!("candidates.{list}"), distinct_values(report, kind), want);
        }
        let known = |k: CandidateKind| CASE_LISTS.iter().any(|(_, l)| *l == k) || also.contains(&k);
        if let Some(c) = report.candidates.iter().find(|c| !known(c.kind())) {
            self.0.push(format!("unexpected candidate kind {c:?}"));
        }
    }

    /// Compares the case lists the metadata-style cases use, each as a set of distinct values (an
    /// absent list meaning none): `urls`, the candidates of kind `url`, `endpoint`, `issuer` and
    /// `sitemap` (every absolute URL the document declares), and of the kinds `also_urls` (a probe
    /// whose cases list its `origin` candidates there); `hosts`, the `host` candidates with the hosts
    /// of those URLs; `contacts`, `apps`, `keys`, `paths`, their kinds.
    pub fn url_and_host_sets(&mut self, report: &Report, expect: &Value, also_urls: &[CandidateKind]) {
        let of = |kinds: &[CandidateKind]| -> BTreeSet<String> {
            report.candidates.iter().filter(|c| kinds.contains(&c.kind())).map(|c| c.value().to_string()).collect()
        };
        let mut url_kinds =
            vec![CandidateKind::Url, CandidateKind::Endpoint, CandidateKind::Issuer, CandidateKind::Sitemap];
        url_kinds.extend_from_slice(also_urls);
        let urls = of(&url_kinds);
        let mut hosts = of(&[CandidateKind::Host]);
        hosts.extend(urls.iter().filter_map(|u| Some(Host::from(Url::parse(u).ok()?.host()?).name())));
        let lists = [
            ("urls", urls),
            ("hosts", hosts),
            ("contacts", of(&[CandidateKind::Contact])),
            ("apps", of(&[CandidateKind::App])),
            ("keys", of(&[CandidateKind::Key])),
            ("paths", of(&[CandidateKind::Path])),
        ];
        for (list, got) in lists {
            self.compare(&format!("candidates.{list}"), got, string_set(&expect["candidates"][list]));
        }
    }

    /// [`Problems::ordered_candidates`] with more lists of the same form, named by the cases
    /// (`("origins", CandidateKind::Origin)`): each compared as distinct values in document order
    /// (an absent list meaning none), and their kinds expected.
    pub fn ordered_candidates_with(&mut self, report: &Report, expect: &Value, lists: &[(&str, CandidateKind)]) {
        let kinds: Vec<CandidateKind> = lists.iter().map(|(_, k)| *k).collect();
        self.ordered_candidates(report, expect, &kinds);
        for (list, kind) in lists {
            let want = strings(&expect["candidates"][*list]);
            self.compare(&format!("candidates.{list}"), distinct_values(report, *kind), want);
        }
    }

    /// Records `what` when `got` differs from `want`.
    pub fn compare<T: PartialEq + Debug>(&mut self, what: &str, got: T, want: T) {
        if got != want {
            self.0.push(format!("{what}: got {got:?}, want {want:?}"));
        }
    }

    /// Records a free-form problem.
    pub fn push(&mut self, problem: String) {
        self.0.push(problem);
    }

    /// Ok when nothing differed, else one message naming the case and every problem.
    pub fn finish(self, case: &str) -> Result<(), String> {
        if self.0.is_empty() { Ok(()) } else { Err(format!("{case}:\n  {}", self.0.join("\n  "))) }
    }
}

/// Runs `check` on every case and panics listing every failure; `expected` is how many cases the
/// selection must hold (so a lost case file fails the test instead of passing silently).
pub fn run_all(cases: &[Case], expected: usize, check: impl Fn(&Case) -> Result<(), String>) {
    assert_eq!(cases.len(), expected, "expected {expected} cases, found {}", cases.len());
    let failures: Vec<String> = cases.iter().filter_map(|c| check(c).err()).collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
