//! The benchmark's inputs, shared with `tests/it/agreement.rs`: every robots.txt of `benches/corpus/`
//! and a fixed set of (agent, URL) queries per file.
//!
//! Queries per file: each agent of [`AGENTS`] with each path of [`FIXED_PATHS`] plus up to
//! [`DERIVED_PER_FILE`] paths taken from the file's own `allow`/`disallow` lines (found by a plain line
//! scan, independent of any parser: the value up to `#`, `*` replaced by `x`, a final `$` dropped,
//! printable ASCII only), all as absolute `https://<host><path>` URLs.

#![allow(dead_code)]

use std::path::PathBuf;

/// Crawler product tokens queried for every file.
pub const AGENTS: [&str; 3] = ["Googlebot", "GPTBot", "FooBot"];

/// Paths queried for every file.
pub const FIXED_PATHS: [&str; 10] = [
    "/",
    "/index.html",
    "/search?q=robots",
    "/admin/",
    "/wp-admin/admin-ajax.php",
    "/cart",
    "/api/v1/items?id=7",
    "/images/logo.png",
    "/en-us/about/",
    "/robots.txt",
];

/// At most this many paths per file are derived from its own rules.
pub const DERIVED_PER_FILE: usize = 6;

/// One corpus file and its queries.
pub struct Input {
    /// Host the file was served by (the file name without `.txt`).
    pub host: String,
    /// The file's bytes.
    pub body: Vec<u8>,
    /// The bytes as text (lossy UTF-8), for APIs that take `&str`.
    pub text: String,
    /// Absolute URLs to check.
    pub urls: Vec<String>,
}

fn derived_paths(body: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(body);
    let mut out: Vec<String> = Vec::new();
    for line in text.split(['\n', '\r']) {
        let lower = line.trim_start().to_ascii_lowercase();
        let value = if let Some(v) = lower.strip_prefix("disallow:") {
            v
        } else if let Some(v) = lower.strip_prefix("allow:") {
            v
        } else {
            continue;
        };
        // Take the value from the original line (case preserved).
        let start = line.len() - value.len();
        let raw = line.get(start..).unwrap_or("").split('#').next().unwrap_or("").trim();
        let raw = raw.strip_suffix('$').unwrap_or(raw);
        if !raw.starts_with('/') || !raw.bytes().all(|b| b.is_ascii_graphic()) {
            continue;
        }
        let path = raw.replace('*', "x");
        if !out.contains(&path) && !FIXED_PATHS.contains(&path.as_str()) {
            out.push(path);
        }
        if out.len() == DERIVED_PER_FILE {
            break;
        }
    }
    out
}

/// Loads every file of `benches/corpus/` (sorted by name) with its queries.
pub fn load_corpus() -> Vec<Input> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/corpus");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let body = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let host = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let mut urls: Vec<String> = FIXED_PATHS.iter().map(|path| format!("https://{host}{path}")).collect();
            urls.extend(derived_paths(&body).into_iter().map(|path| format!("https://{host}{path}")));
            let text = String::from_utf8_lossy(&body).into_owned();
            Input { host, body, text, urls }
        })
        .collect()
}

/// Total number of (agent, URL) queries over `inputs`.
pub fn query_count(inputs: &[Input]) -> usize {
    inputs.iter().map(|i| i.urls.len() * AGENTS.len()).sum()
}

/// Answers every query with `wellknown-robots` (one parse per file).
pub fn run_ours(inputs: &[Input], out: &mut Vec<bool>) {
    for input in inputs {
        let robots = wellknown_robots::RobotsTxt::parse(&input.body);
        for agent in AGENTS {
            for url in &input.urls {
                out.push(robots.is_allowed(agent, url));
            }
        }
    }
}

/// Answers every query with `texting_robots` (one parse per file and agent, its API; a file it
/// rejects allows everything).
pub fn run_texting(inputs: &[Input], out: &mut Vec<bool>) {
    for input in inputs {
        for agent in AGENTS {
            match texting_robots::Robot::new(agent, &input.body) {
                Ok(robot) => out.extend(input.urls.iter().map(|u| robot.allowed(u))),
                Err(_) => out.extend(input.urls.iter().map(|_| true)),
            }
        }
    }
}

/// Answers every query with `robotstxt` (Google's C++ matcher ported to Rust; its API parses the
/// file again for every query).
pub fn run_robotstxt(inputs: &[Input], out: &mut Vec<bool>) {
    for input in inputs {
        for agent in AGENTS {
            for url in &input.urls {
                let mut matcher = robotstxt::DefaultMatcher::default();
                out.push(matcher.one_agent_allowed_by_robots(&input.text, agent, url));
            }
        }
    }
}
