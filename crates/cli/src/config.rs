//! Settings for `wellknown scan`, merged by figment from (lowest to highest precedence):
//! built-in defaults, `wellknown.toml` (or `--config FILE`), `WELLKNOWN_*` environment variables,
//! and command-line flags. Every key is documented in `docs/user-guide.md`.

use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

use crate::args::ScanArgs;
use crate::values::{self, Given};

/// Every scan setting. Keys are the same in the TOML file, as `WELLKNOWN_<KEY>` environment variables
/// (lists written `[a, b]`, or as one value; the variables of [`COMMA_LISTS`] also take values
/// separated by commas), and as `--<key>` flags
/// (with `-` for `_`). Numbers are read as given and judged against their range, and lists read,
/// by [`crate::values`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Units (origins, issuers) scanned in parallel (default 128).
    #[serde(deserialize_with = "values::de_concurrency")]
    pub concurrency: usize,
    /// Maximum concurrent requests to one host (default 2).
    #[serde(deserialize_with = "values::de_per_host")]
    pub per_host: usize,
    /// Maximum requests per second to one host (default 5).
    #[serde(deserialize_with = "values::de_rate")]
    pub rate: f64,
    /// Connect timeout, seconds (default 10).
    #[serde(deserialize_with = "values::de_seconds")]
    pub connect_timeout: f64,
    /// Total timeout per request, seconds (default 30).
    #[serde(deserialize_with = "values::de_seconds")]
    pub timeout: f64,
    /// Minimum transfer rate, bytes per second, judged from `slow_grace` after a request starts
    /// (default 1024; 0 = off).
    #[serde(deserialize_with = "values::de_count64")]
    pub min_rate: u64,
    /// Seconds after a request starts before `min_rate` is judged (default 10).
    #[serde(deserialize_with = "values::de_seconds")]
    pub slow_grace: f64,
    /// User-Agent header (default `wellknown/<version> (+<project URL>)`).
    pub user_agent: Option<String>,
    /// `HOST:PORT:ADDR` DNS overrides.
    #[serde(deserialize_with = "values::de_list")]
    pub resolve: Vec<String>,
    /// `HOST:PORT:CONNECT_HOST:CONNECT_PORT` connection overrides (empty HOST = any host).
    #[serde(deserialize_with = "values::de_list")]
    pub connect_to: Vec<String>,
    /// Allow loopback, private and link-local addresses (default false).
    pub allow_private: bool,
    /// Extra CA certificates (PEM files) to trust.
    #[serde(deserialize_with = "values::de_paths")]
    pub ca_cert: Vec<PathBuf>,
    /// Proxy URL for every request (`http://`, `https://`, `socks5://`, `socks5h://`); unset: the
    /// proxy environment variables are read.
    pub proxy: Option<String>,
    /// File whose first line is the proxy's `USER:PASSWORD`.
    pub proxy_auth_file: Option<PathBuf>,
    /// Extra CA certificates (PEM files) trusted through the proxy only.
    #[serde(deserialize_with = "values::de_paths")]
    pub proxy_ca: Vec<PathBuf>,
    /// Use a proxy when one is configured (default true; `--no-proxy` turns `proxy` and the proxy
    /// environment variables off).
    pub use_proxy: bool,
    /// Scope rules (default: registrable domains of the targets).
    #[serde(deserialize_with = "values::de_list")]
    pub scope: Vec<String>,
    /// Probe ids to run (default: all).
    #[serde(deserialize_with = "values::de_list")]
    pub probes: Vec<String>,
    /// Extra issuer identifiers to probe.
    #[serde(deserialize_with = "values::de_list")]
    pub issuer: Vec<String>,
    /// Maximum follow-up hops (default 8).
    #[serde(deserialize_with = "values::de_count32")]
    pub max_hops: u32,
    /// Request every IANA-registered suffix (default false).
    pub all_registered: bool,
    /// Output file for JSON Lines (default standard output).
    pub output: Option<PathBuf>,
    /// No progress bar or stderr summary (default false).
    pub quiet: bool,
    /// The store file (default `wellknown.db` in the working directory).
    pub db: Option<PathBuf>,
    /// Keep the graph in the store (default true; `--no-store` turns it off).
    pub store: bool,
    /// Verify candidate URLs (default true; `--no-verify`).
    pub verify: bool,
    /// Verification requests per origin at most (default 1000).
    #[serde(deserialize_with = "values::de_count")]
    pub max_verify: usize,
    /// Obey robots.txt for the scanner's own product token (default false).
    pub obey_robots: bool,
    /// Feedback depth (default 1).
    #[serde(deserialize_with = "values::de_count32")]
    pub depth: u32,
    /// Try revealed names that do not resolve as virtual hosts (default true; `--no-vhosts`).
    pub vhosts: bool,
    /// Wall-clock budget of one unit, seconds (default 300).
    #[serde(deserialize_with = "values::de_seconds")]
    pub origin_budget: f64,
    /// Follow-up documents fetched per unit at most (default 10000).
    #[serde(deserialize_with = "values::de_count")]
    pub max_follow_ups: usize,
    /// Candidate sightings recorded per unit at most (default 200000).
    #[serde(deserialize_with = "values::de_count")]
    pub max_candidates: usize,
    /// Units one document may queue (default 100).
    #[serde(deserialize_with = "values::de_count")]
    pub max_revealed_per_document: usize,
    /// Units one unit's documents may queue (default 1000).
    #[serde(deserialize_with = "values::de_count")]
    pub max_revealed: usize,
    /// Virtual-host tries per revealing origin (default 20).
    #[serde(deserialize_with = "values::de_count")]
    pub max_vhost_tries: usize,
    /// Compare 2xx documents with the origin's answer for a random path (default true;
    /// `--no-catch-all-check`).
    pub catch_all_check: bool,
    /// Ask `rate_limited` documents again at the end of the scan (default false).
    pub retry_rate_limited: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            concurrency: 128,
            per_host: 2,
            rate: 5.0,
            connect_timeout: 10.0,
            timeout: 30.0,
            min_rate: 1024,
            slow_grace: 10.0,
            user_agent: None,
            resolve: Vec::new(),
            connect_to: Vec::new(),
            allow_private: false,
            ca_cert: Vec::new(),
            proxy: None,
            proxy_auth_file: None,
            proxy_ca: Vec::new(),
            use_proxy: true,
            scope: Vec::new(),
            probes: Vec::new(),
            issuer: Vec::new(),
            max_hops: 8,
            all_registered: false,
            output: None,
            quiet: false,
            db: None,
            store: true,
            verify: true,
            max_verify: 1000,
            obey_robots: false,
            depth: 1,
            vhosts: true,
            origin_budget: 300.0,
            max_follow_ups: 10_000,
            max_candidates: 200_000,
            max_revealed_per_document: 100,
            max_revealed: 1_000,
            max_vhost_tries: 20,
            catch_all_check: true,
            retry_rate_limited: false,
        }
    }
}

/// Flags given on the command line, only those present (so they override without erasing).
#[derive(Debug, Default, Serialize)]
struct Overrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    concurrency: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    per_host: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    connect_timeout: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_rate: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    slow_grace: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_agent: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    resolve: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    connect_to: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    allow_private: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ca_cert: Vec<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proxy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proxy_auth_file: Option<PathBuf>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    proxy_ca: Vec<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    use_proxy: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    scope: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    probes: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    issuer: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_hops: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    all_registered: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<PathBuf>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    quiet: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    db: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    store: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verify: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_verify: Option<usize>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    obey_robots: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vhosts: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin_budget: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_follow_ups: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_candidates: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_revealed_per_document: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_revealed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_vhost_tries: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    catch_all_check: Option<bool>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    retry_rate_limited: bool,
}

/// Merges defaults, the configuration file, the environment and the flags.
///
/// `WELLKNOWN_*` variables that name no setting are ignored with a warning on standard error
/// (environments hold unrelated variables); a known variable with a bad value is an error naming the
/// variable. An unknown key in the configuration file is an error naming the file and the key.
///
/// Errors: an unreadable or malformed configuration file, an unknown key in it, or a value of the
/// wrong type, as one line naming the file and key, the variable, or the flag.
pub fn load(args: &ScanArgs) -> Result<Settings, String> {
    let file = config_file(args)?;
    let mut fig = Figment::from(Serialized::defaults(Settings::default()));
    if let Some(f) = &file {
        check_file_keys(f)?;
        fig = fig.merge(Toml::file(f));
    }
    let o = overrides(args);
    let known = known_keys();
    for name in unknown_env_vars(&known) {
        crate::note!("wellknown: warning: ignoring environment variable {name}: no setting of that name");
    }
    let split = comma_lists_from_env();
    let split_keys: Vec<String> = split.keys().cloned().collect();
    let env = Env::prefixed(ENV_PREFIX)
        .filter(move |k| known.iter().any(|n| k == n.as_str()) && !split_keys.iter().any(|n| k == n.as_str()));
    fig.merge(env)
        .merge(Serialized::defaults(split))
        .merge(Serialized::defaults(o))
        .extract()
        .map_err(|e| describe(e, file.as_deref()))
}

/// The list settings whose `WELLKNOWN_<KEY>` variable also takes values separated by commas
/// (`WELLKNOWN_SCOPE=*.example.com,!admin.example.com`): their entries never hold a comma. Other
/// list settings take one value per variable without brackets (an issuer URL or a file name may
/// hold a comma), or the list form `[a, b]`; the configuration file's text is always one entry.
pub const COMMA_LISTS: [&str; 3] = ["scope", "probes", "connect_to"];

/// The [`COMMA_LISTS`] variables set without brackets, split at commas ([`values::split_env_list`]),
/// by setting key; a variable named in several cases is read as [`env_var_name`] names it.
fn comma_lists_from_env() -> std::collections::BTreeMap<String, Vec<String>> {
    let mut out = std::collections::BTreeMap::new();
    for key in COMMA_LISTS {
        let name = env_var_name(key);
        if let Some(entries) = std::env::var(&name).ok().and_then(|v| values::split_env_list(&v)) {
            out.insert(key.to_string(), entries);
        }
    }
    out
}

/// Prefix of the environment variables read as settings.
pub const ENV_PREFIX: &str = "WELLKNOWN_";

/// `--config FILE`, else `./wellknown.toml` when present.
///
/// Errors: `--config` names a file that does not exist.
pub fn config_file(args: &ScanArgs) -> Result<Option<PathBuf>, String> {
    match &args.config {
        Some(p) if !p.exists() => Err(format!("configuration file {} does not exist", p.display())),
        Some(p) => Ok(Some(p.clone())),
        None => Ok(Path::new("wellknown.toml").exists().then(|| PathBuf::from("wellknown.toml"))),
    }
}

/// The flags given on the command line.
fn overrides(args: &ScanArgs) -> Overrides {
    Overrides {
        concurrency: args.concurrency,
        per_host: args.per_host,
        rate: args.rate,
        connect_timeout: args.connect_timeout,
        timeout: args.timeout,
        min_rate: args.min_rate,
        slow_grace: args.slow_grace,
        user_agent: args.user_agent.clone(),
        resolve: args.resolve.clone(),
        connect_to: args.connect_to.clone(),
        allow_private: args.allow_private,
        ca_cert: args.ca_cert.clone(),
        proxy: args.proxy.clone(),
        proxy_auth_file: args.proxy_auth_file.clone(),
        proxy_ca: args.proxy_ca.clone(),
        use_proxy: args.no_proxy.then_some(false),
        scope: args.scope.clone(),
        probes: args.probes.clone(),
        issuer: args.issuer.clone(),
        max_hops: args.max_hops,
        all_registered: args.all_registered,
        output: args.output.clone(),
        quiet: args.quiet,
        db: args.db.clone(),
        store: args.no_store.then_some(false),
        verify: if args.no_verify { Some(false) } else { args.verify.then_some(true) },
        max_verify: args.max_verify,
        obey_robots: args.obey_robots,
        depth: args.depth,
        vhosts: args.no_vhosts.then_some(false),
        origin_budget: args.origin_budget,
        max_follow_ups: args.max_follow_ups,
        max_candidates: args.max_candidates,
        max_revealed_per_document: args.max_revealed_per_document,
        max_revealed: args.max_revealed,
        max_vhost_tries: args.max_vhost_tries,
        catch_all_check: args.no_catch_all_check.then_some(false),
        retry_rate_limited: args.retry_rate_limited,
    }
}

/// Every setting key (`concurrency`, `per_host`, ...), from [`Settings`] itself.
pub fn known_keys() -> Vec<String> {
    match serde_json::to_value(Settings::default()) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Names of the `WELLKNOWN_*` environment variables (prefix matched without regard to case, as
/// figment does) that name no setting, sorted.
fn unknown_env_vars(known: &[String]) -> Vec<String> {
    let mut out: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| {
            k.len() >= ENV_PREFIX.len()
                && k.is_char_boundary(ENV_PREFIX.len())
                && k[..ENV_PREFIX.len()].eq_ignore_ascii_case(ENV_PREFIX)
                && !known.iter().any(|n| n.eq_ignore_ascii_case(&k[ENV_PREFIX.len()..]))
                // The test suite's own (`WELLKNOWN_TEST_PG`: docs/store.md, "Tests"), not settings.
                && !k[ENV_PREFIX.len()..].to_ascii_uppercase().starts_with("TEST_")
        })
        .collect();
    out.sort();
    out
}

/// Rejects a configuration file that does not parse or holds a key that is no setting (a typo
/// must not pass silently).
fn check_file_keys(file: &Path) -> Result<(), String> {
    use figment::Provider;
    let data = Toml::file(file).data().map_err(|e| format!("configuration file {}: {}", file.display(), e.kind))?;
    let known = known_keys();
    for dict in data.values() {
        let mut unknown: Vec<&String> = dict.keys().filter(|k| !known.contains(k)).collect();
        unknown.sort();
        if let Some(k) = unknown.first() {
            return Err(format!(
                "configuration file {}: unknown key `{k}` (known keys: {})",
                file.display(),
                known.join(", ")
            ));
        }
    }
    Ok(())
}

/// One line per figment error, naming where the bad value came from: `FILE: key `k``,
/// `WELLKNOWN_K`, or `--k`; never figment's internal profile path (`default.k`).
fn describe(err: figment::Error, file: Option<&Path>) -> String {
    let mut lines = Vec::new();
    for e in err {
        let key = e.path.join(".");
        let from_file = e.metadata.as_ref().is_some_and(|m| m.source.as_ref().is_some_and(|s| s.file_path().is_some()));
        let from_env = e.metadata.as_ref().is_some_and(|m| m.name.contains("environment"));
        let what = match &e.kind {
            figment::error::Kind::UnknownField(k, _) => format!("unknown key `{k}`"),
            figment::error::Kind::InvalidType(actual, expected) => {
                format!("invalid type: found {actual}, expected {}", plain_type(expected))
            }
            figment::error::Kind::InvalidValue(actual, expected) => {
                format!("invalid value: found {actual}, expected {}", plain_type(expected))
            }
            other => other.to_string(),
        };
        // A range message reads on from its source, as the command line words it (`--per-host must
        // be from 1 to 100, got -1`); any other follows a colon.
        let sep = if what.starts_with(values::RANGE_PREFIX) { " " } else { ": " };
        let line = match (from_file, from_env, file) {
            (true, _, Some(f)) => format!("configuration file {}: key `{key}`{sep}{what}", f.display()),
            (_, true, _) => format!("environment variable {}{sep}{what}", env_var_name(&key)),
            _ if key.is_empty() => what,
            _ => format!("--{}{sep}{what}", key.replace('_', "-")),
        };
        lines.push(line);
    }
    lines.join("; ")
}

/// Serde's type names in words.
fn plain_type(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".to_string(),
        "usize" | "u64" | "u32" | "u16" | "u8" => "a non-negative integer".to_string(),
        "a boolean" | "bool" => "true or false".to_string(),
        other => other.to_string(),
    }
}

/// The `WELLKNOWN_*` variable that sets `key`, named as it was written (names are matched without
/// regard to case, `WELLKNOWN_per_host` sets `per_host`); the upper-case name when none is set.
fn env_var_name(key: &str) -> String {
    let wanted = format!("{ENV_PREFIX}{key}");
    let mut set: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| k.eq_ignore_ascii_case(&wanted))
        .collect();
    set.sort();
    set.into_iter().next().unwrap_or_else(|| wanted.to_ascii_uppercase())
}

/// Where the value of setting `key` came from, as messages name it: the flag (`--per-host`), the
/// variable as written (`environment variable WELLKNOWN_per_host`), or the file and key
/// (``configuration file wellknown.toml: key `per_host` ``); the bare key for a default.
pub fn source(args: &ScanArgs, key: &str) -> String {
    let flags = serde_json::to_value(overrides(args)).unwrap_or_default();
    if flags.get(key).is_some() {
        return format!("--{}", key.replace('_', "-"));
    }
    let wanted = format!("{ENV_PREFIX}{key}");
    if std::env::vars_os().any(|(k, _)| k.to_str().is_some_and(|k| k.eq_ignore_ascii_case(&wanted))) {
        return format!("environment variable {}", env_var_name(key));
    }
    match config_file(args).ok().flatten() {
        Some(f) => format!("configuration file {}: key `{key}`", f.display()),
        None => key.to_string(),
    }
}

/// Where `key` is set other than by a flag: the `WELLKNOWN_*` variable (which wins over the file),
/// else the configuration file holding the key, as messages name them
/// (`environment variable WELLKNOWN_SCOPE`, ``configuration file wellknown.toml: key `scope` ``);
/// `None` when neither sets it.
pub fn set_outside_flags(args: &ScanArgs, key: &str) -> Option<String> {
    use figment::Provider;
    let wanted = format!("{ENV_PREFIX}{key}");
    if std::env::vars_os().any(|(k, _)| k.to_str().is_some_and(|k| k.eq_ignore_ascii_case(&wanted))) {
        return Some(format!("environment variable {}", env_var_name(key)));
    }
    let file = config_file(args).ok().flatten()?;
    let data = Toml::file(&file).data().ok()?;
    data.values()
        .any(|dict| dict.contains_key(key))
        .then(|| format!("configuration file {}: key `{key}`", file.display()))
}

/// A bad value of a list or text setting, with where it came from: `--issuer "x": why` for a
/// flag, `configuration file wellknown.toml: key `issuer`: "x": why` otherwise.
pub fn bad_value(source: &str, value: &str, why: impl std::fmt::Display) -> String {
    if source.starts_with("--") { format!("{source} {value:?}: {why}") } else { format!("{source}: {value:?}: {why}") }
}

/// Accepted ranges of the numeric settings (documented in docs/user-guide.md).
pub mod limits {
    /// `concurrency`: units (origins, issuers) scanned in parallel.
    pub const CONCURRENCY: std::ops::RangeInclusive<usize> = 1..=10_000;
    /// `per_host`: requests in flight to one host.
    pub const PER_HOST: std::ops::RangeInclusive<usize> = 1..=100;
    /// `rate`: request starts per second to one host, when not 0 (0 = no spacing).
    pub const RATE: std::ops::RangeInclusive<f64> = 0.001..=1_000_000.0;
    /// `connect_timeout`, `timeout` and `slow_grace`, seconds: 1 ms (a shorter one would fail every request) to
    /// one hour.
    pub const TIMEOUT_SECS: std::ops::RangeInclusive<f64> = 0.001..=3600.0;
}

/// Checks the merged settings, so a bad value is refused whether it came from a flag, the
/// environment or the configuration file, before the store is opened or anything requested: the
/// numeric ranges, the scope rules, issuers, `resolve` and `connect_to` entries, and a non-empty
/// `output`. `args` and the file tell where a value came from, for the message ([`source`]).
///
/// Errors: the first bad value, as one line naming the flag, variable or file key and what is
/// accepted (`--timeout must be from 0.001 to 3600 seconds, got 0`, ``configuration file
/// wellknown.toml: key `issuer`: "x": relative URL without a base``).
pub fn validate(s: &Settings, args: &ScanArgs) -> Result<(), String> {
    let origin = |key: &str| source(args, key);
    // Values read by `load` were judged as they were read (crate::values); this holds for any
    // Settings, with the same messages.
    let judged = |key: &str, r: Result<(), String>| r.map_err(|e| format!("{} {e}", origin(key)));
    let int = |v: usize| Given::Int(i128::try_from(v).unwrap_or(i128::MAX));
    judged("concurrency", values::whole::<usize>(&int(s.concurrency), values::wide(limits::CONCURRENCY)).map(drop))?;
    judged("per_host", values::whole::<usize>(&int(s.per_host), values::wide(limits::PER_HOST)).map(drop))?;
    judged("rate", values::rate(&Given::Float(s.rate)).map(drop))?;
    judged("connect_timeout", values::seconds(&Given::Float(s.connect_timeout)).map(drop))?;
    judged("timeout", values::seconds(&Given::Float(s.timeout)).map(drop))?;
    judged("origin_budget", values::seconds(&Given::Float(s.origin_budget)).map(drop))?;
    judged("slow_grace", values::seconds(&Given::Float(s.slow_grace)).map(drop))?;
    validate_lists(s, &origin)
}

/// The text and list settings of [`validate`]; `origin` names where a key's value came from.
fn validate_lists(s: &Settings, origin: &dyn Fn(&str) -> String) -> Result<(), String> {
    let prefixed = |key: &str, e: &dyn std::fmt::Display| {
        let src = origin(key);
        format!("{src}: {e}")
    };
    if s.scope.iter().any(|r| r.trim().is_empty()) {
        return Err(prefixed("scope", &wellknown_core::ScopeError(String::new())));
    }
    wellknown_core::Scope::parse(&s.scope).map_err(|e| prefixed("scope", &e))?;
    for i in &s.issuer {
        crate::plan::issuer_identifier(i).map_err(|e| bad_value(&origin("issuer"), i, e))?;
    }
    for r in &s.resolve {
        r.parse::<wellknown_http::ResolveOverride>().map_err(|e| bad_value(&origin("resolve"), r, e))?;
    }
    for r in &s.connect_to {
        r.parse::<wellknown_http::ConnectTo>().map_err(|e| bad_value(&origin("connect_to"), r, e))?;
    }
    if let Some(ua) = &s.user_agent {
        if ua.trim().is_empty() {
            return Err(prefixed(
                "user_agent",
                &"an empty User-Agent (give a product token such as `ExampleBot/1.0`, or leave it unset for the default)",
            ));
        }
        // RFC 9110, section 5.5: a field value is visible characters, spaces, tabs and obs-text;
        // CR, LF and the other controls would end or forge header lines.
        if let Some(c) = ua.chars().find(|&c| c.is_control() && c != '\t') {
            return Err(bad_value(
                &origin("user_agent"),
                ua,
                format_args!(
                    "not a valid User-Agent: control character {c:?} (a header value holds visible characters, \
                     spaces and tabs)"
                ),
            ));
        }
    }
    if s.output.as_ref().is_some_and(|p| p.as_os_str().is_empty()) {
        return Err(prefixed("output", &"an empty path (give a file, or `-` for standard output)"));
    }
    if s.db.as_ref().is_some_and(|p| p.as_os_str().is_empty()) {
        return Err(prefixed("db", &"an empty path (give a file, or `--no-store` to keep no store)"));
    }
    for id in &s.probes {
        if wellknown_core::probe_by_id(id).is_none() {
            let known: Vec<&str> = wellknown_core::probes().iter().map(|p| p.id()).collect();
            return Err(bad_value(
                &origin("probes"),
                id,
                format_args!("no such probe (registered: {})", known.join(", ")),
            ));
        }
    }
    // Read now, so that a missing CA file is refused before the store is created.
    let files = s.ca_cert.iter().map(|p| ("ca_cert", p)).chain(s.proxy_ca.iter().map(|p| ("proxy_ca", p)));
    for (key, path) in files.chain(s.proxy_auth_file.iter().map(|p| ("proxy_auth_file", p))) {
        if let Err(e) = std::fs::metadata(path)
            .and_then(|m| if m.is_file() { Ok(()) } else { Err(std::io::Error::other("not a file")) })
        {
            return Err(bad_value(&origin(key), &path.display().to_string(), format_args!("cannot be read: {e}")));
        }
    }
    // The message shows the URL with its credentials as `***` (never the value as given).
    if let Some(p) = &s.proxy {
        p.parse::<wellknown_http::ProxyUrl>().map_err(|e| prefixed("proxy", &e))?;
    }
    Ok(())
}

/// The store path for the commands that read it: `--db`, else `db` from `WELLKNOWN_DB` or the
/// configuration file, else `wellknown.db` in the working directory.
///
/// Errors: as [`load`].
pub fn store_path(args: &crate::args::StoreArgs) -> Result<PathBuf, String> {
    if let Some(p) = &args.db {
        return Ok(p.clone());
    }
    let scan = ScanArgs { config: args.config.clone(), ..ScanArgs::default() };
    Ok(load(&scan)?.db.unwrap_or_else(|| PathBuf::from(DEFAULT_DB)))
}

/// The store file used when none is configured.
pub const DEFAULT_DB: &str = "wellknown.db";
