//! Settings for `wellknown scan`, merged by figment from (lowest to highest precedence):
//! built-in defaults, `wellknown.toml` (or `--config FILE`), `WELLKNOWN_*` environment variables,
//! and command-line flags. Every key is documented in `docs/user-guide.md`.

use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

use crate::args::ScanArgs;

/// Every scan setting. Keys are the same in the TOML file, as `WELLKNOWN_<KEY>` environment variables
/// (lists written `[a, b]`), and as `--<key>` flags (with `-` for `_`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Origins scanned in parallel (default 16).
    pub concurrency: usize,
    /// Maximum concurrent requests to one host (default 2).
    pub per_host: usize,
    /// Maximum requests per second to one host (default 5).
    pub rate: f64,
    /// Connect timeout, seconds (default 10).
    pub connect_timeout: f64,
    /// Total timeout per request, seconds (default 30).
    pub timeout: f64,
    /// User-Agent header (default `wellknown/<version> (+<project URL>)`).
    pub user_agent: Option<String>,
    /// `HOST:PORT:ADDR` DNS overrides.
    pub resolve: Vec<String>,
    /// `HOST:PORT:CONNECT_HOST:CONNECT_PORT` connection overrides (empty HOST = any host).
    pub connect_to: Vec<String>,
    /// Allow loopback, private and link-local addresses (default false).
    pub allow_private: bool,
    /// Extra CA certificates (PEM files) to trust.
    pub ca_cert: Vec<PathBuf>,
    /// Scope rules (default: registrable domains of the targets).
    pub scope: Vec<String>,
    /// Probe ids to run (default: all).
    pub probes: Vec<String>,
    /// Extra issuer identifiers to probe.
    pub issuer: Vec<String>,
    /// Maximum follow-up hops (default 8).
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
    pub max_verify: usize,
    /// Obey robots.txt for the scanner's own product token (default false).
    pub obey_robots: bool,
    /// Feedback depth (default 1).
    pub depth: u32,
    /// Try revealed names that do not resolve as virtual hosts (default true; `--no-vhosts`).
    pub vhosts: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            concurrency: 16,
            per_host: 2,
            rate: 5.0,
            connect_timeout: 10.0,
            timeout: 30.0,
            user_agent: None,
            resolve: Vec::new(),
            connect_to: Vec::new(),
            allow_private: false,
            ca_cert: Vec::new(),
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
    user_agent: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    resolve: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    connect_to: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    allow_private: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    ca_cert: Vec<PathBuf>,
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
}

/// Merges defaults, the configuration file, the environment and the flags.
///
/// Errors: an unreadable or malformed configuration file, an unknown key, or a value of the wrong
/// type (figment's message names the key and the source).
pub fn load(args: &ScanArgs) -> Result<Settings, Box<figment::Error>> {
    let file: Option<PathBuf> = match &args.config {
        Some(p) => Some(p.clone()),
        None => Path::new("wellknown.toml").exists().then(|| PathBuf::from("wellknown.toml")),
    };
    let mut fig = Figment::from(Serialized::defaults(Settings::default()));
    if let Some(f) = file {
        if !f.exists() {
            return Err(Box::new(figment::Error::from(format!("configuration file {} does not exist", f.display()))));
        }
        fig = fig.merge(Toml::file(f));
    }
    let o = Overrides {
        concurrency: args.concurrency,
        per_host: args.per_host,
        rate: args.rate,
        connect_timeout: args.connect_timeout,
        timeout: args.timeout,
        user_agent: args.user_agent.clone(),
        resolve: args.resolve.clone(),
        connect_to: args.connect_to.clone(),
        allow_private: args.allow_private,
        ca_cert: args.ca_cert.clone(),
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
    };
    fig.merge(Env::prefixed("WELLKNOWN_")).merge(Serialized::defaults(o)).extract().map_err(Box::new)
}

/// The store path for the commands that read it: `--db`, else `db` from `WELLKNOWN_DB` or the
/// configuration file, else `wellknown.db` in the working directory.
///
/// Errors: as [`load`].
pub fn store_path(args: &crate::args::StoreArgs) -> Result<PathBuf, Box<figment::Error>> {
    if let Some(p) = &args.db {
        return Ok(p.clone());
    }
    let scan = ScanArgs { config: args.config.clone(), ..ScanArgs::default() };
    Ok(load(&scan)?.db.unwrap_or_else(|| PathBuf::from(DEFAULT_DB)))
}

/// The store file used when none is configured.
pub const DEFAULT_DB: &str = "wellknown.db";
