//! Helpers of the end-to-end tests against [`HostileServer`]s (`e2e_hostile_*`): the real binary
//! run without `--quiet` (so the budget lines on standard error can be read), its records by type,
//! and the server's request log.

use serde_json::Value;
use wellknown_tests::HostileServer;

/// The paths every origin probe requests when nothing answers 2xx (robots.txt first, then each
/// probe's location and its fallback), sorted. A 2xx `/.well-known/change-password` adds its status
/// check; any 2xx document adds the two calibration paths.
pub const PROBE_PATHS: [&str; 10] = [
    "/.well-known/apple-app-site-association",
    "/.well-known/assetlinks.json",
    "/.well-known/change-password",
    "/.well-known/oauth-authorization-server",
    "/.well-known/openid-configuration",
    "/.well-known/security.txt",
    "/apple-app-site-association",
    "/robots.txt",
    "/security.txt",
    "/sitemap.xml",
];

/// The origin probes whose locations are [`PROBE_PATHS`] (with `jwks`, which reads follow-ups only):
/// what [`scan`] selects when a test names no `--probe`.
pub const HOSTILE_PROBES: [&str; 9] = [
    "robots",
    "sitemap",
    "security.txt",
    "openid-configuration",
    "oauth-authorization-server",
    "jwks",
    "assetlinks",
    "apple-app-site-association",
    "change-password",
];

/// One run of `wellknown scan`.
pub struct Scan {
    /// Exit code.
    pub code: i32,
    /// The JSON Lines records, in order.
    pub records: Vec<Value>,
    /// Standard error.
    pub stderr: String,
}

/// Runs `wellknown scan --no-store --allow-private --rate 0 ARGS` (no store, loopback allowed, no
/// spacing between requests to one host; `--quiet` is not passed, so the budget lines and the
/// summary line are on standard error).
pub fn scan(args: &[&str]) -> Scan {
    let mut all = vec!["scan", "--no-store", "--allow-private", "--rate", "0"];
    // The probes of PROBE_PATHS, unless the test selects its own: the hostile tests count requests
    // and documents per probe, so a plugin added later must not change what they scan.
    if !args.contains(&"--probe") {
        for p in HOSTILE_PROBES {
            all.extend(["--probe", p]);
        }
    }
    all.extend_from_slice(args);
    let out = super::wellknown(&all);
    Scan {
        code: out.status.code().unwrap_or(-1),
        records: super::jsonl(&out.stdout),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

impl Scan {
    /// Records of type `t`, in order.
    pub fn of_type(&self, t: &str) -> Vec<&Value> {
        self.records.iter().filter(|r| r["type"] == t).collect()
    }

    /// The summary (the last record).
    pub fn summary(&self) -> &Value {
        let last = self.records.last().unwrap_or_else(|| panic!("no records; stderr: {}", self.stderr));
        assert_eq!(last["type"], "summary", "the summary is the last record");
        last
    }

    /// The document records of the unit `origin`, in order.
    pub fn documents_of(&self, origin: &str) -> Vec<&Value> {
        self.of_type("document").into_iter().filter(|d| d["origin"] == origin).collect()
    }

    /// The document record requested at `url`.
    pub fn document(&self, url: &str) -> &Value {
        self.of_type("document")
            .into_iter()
            .find(|d| d["requested_url"] == url)
            .unwrap_or_else(|| panic!("no document requested at {url}"))
    }

    /// The `origin` record of `origin`.
    pub fn origin(&self, origin: &str) -> &Value {
        self.of_type("origin")
            .into_iter()
            .find(|o| o["origin"] == origin)
            .unwrap_or_else(|| panic!("no origin record for {origin}"))
    }

    /// The `budget` records of `origin`, in order (one per budget and what it left undone).
    pub fn budgets_of(&self, origin: &str) -> Vec<Value> {
        self.of_type("budget").into_iter().filter(|b| b["origin"] == origin).cloned().collect()
    }

    /// The lines of standard error that start with `prefix`.
    pub fn stderr_lines(&self, prefix: &str) -> Vec<&str> {
        self.stderr.lines().filter(|l| l.starts_with(prefix)).collect()
    }

    /// The summary line on standard error (`wellknown: N target(s): ...`).
    pub fn summary_line(&self) -> &str {
        self.stderr
            .lines()
            .find(|l| l.starts_with("wellknown: ") && l.contains(" target(s): "))
            .unwrap_or_else(|| panic!("no summary line: {}", self.stderr))
    }
}

/// A budget record as the engine writes it.
pub fn budget_record(origin: &str, budget: &str, limit: u64, skipped_what: &str, skipped: u64, flag: &str) -> Value {
    serde_json::json!({
        "type": "budget",
        "origin": origin,
        "unit": "origin",
        "budget": budget,
        "limit": limit,
        "skipped_what": skipped_what,
        "skipped": skipped,
        "flag": flag,
    })
}

/// The server's request log as `METHOD path`, in order of arrival.
pub fn log(server: &HostileServer) -> Vec<String> {
    server.requests().into_iter().map(|r| format!("{} {}", r.method, r.path)).collect()
}

/// [`log`], sorted.
pub fn sorted_log(server: &HostileServer) -> Vec<String> {
    let mut v = log(server);
    v.sort();
    v
}

/// `GET path` for each of `paths`, sorted.
pub fn gets<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut v: Vec<String> = paths.into_iter().map(|p| format!("GET {p}")).collect();
    v.sort();
    v
}

/// The two calibration paths of a log, checked: `/wellknown-calibration-<16 hex>` and the same
/// token under `/.well-known/`. Returns the token.
pub fn calibration_token(server: &HostileServer) -> String {
    let paths: Vec<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("wellknown-calibration-"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(paths.len(), 2, "two calibration requests: {paths:?}");
    let root =
        paths.iter().find_map(|p| p.strip_prefix("GET /wellknown-calibration-")).unwrap_or_else(|| panic!("{paths:?}"));
    assert!(root.len() == 16 && root.bytes().all(|b| b.is_ascii_hexdigit()), "{root}");
    assert!(paths.contains(&format!("GET /.well-known/wellknown-calibration-{root}")), "{paths:?}");
    format!("wellknown-calibration-{root}")
}
