//! Command-line definitions (clap derive). `wellknown --help` is generated from here, and so are
//! the man page and completions (`cargo xtask dist`).

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand};

/// Scan what origins publish at well-known locations into a graph of verifiable candidates.
#[derive(Debug, Parser)]
#[command(name = "wellknown", version, about, long_about = None, propagate_version = true, args_override_self = true)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Fetch every registered document of each target origin and stream JSON Lines records.
    Scan(Box<ScanArgs>),
    /// Interpret one local file as if it had been fetched from --url; print one JSON report. The file
    /// is read up to the probe's fetch cap, as a scan would fetch it (the rest flagged too_large).
    /// Exit 0 when the document is valid by its specification, 1 when its report has errors.
    Parse(ParseArgs),
    /// robots.txt tools.
    #[command(subcommand)]
    Robots(RobotsCommand),
    /// List the registered probes with their well-known suffix and IANA registry status.
    Plugins(PluginsArgs),
    /// The scans of the store: id, start, finished or not (or running), targets, units done and
    /// pending; what `scan --resume SCAN_ID` and `diff` take.
    Scans(ScansArgs),
    /// What appeared, disappeared or changed status between two scans of the store.
    Diff(DiffArgs),
    /// Candidate values from the store, one per line (or JSON Lines), to pipe into other tools.
    Candidates(CandidatesArgs),
    /// The whole graph with its evidence, for Graphviz (dot), Gephi (graphml), a notebook (jsonl) or a
    /// browser (html).
    Graph(GraphArgs),
    /// Run the units of the shared scans of a PostgreSQL store (`scan --db postgres://… --workers-only`
    /// records one) with the stored plan and this machine's network settings, until none is left;
    /// any number of workers on any number of machines share the work.
    Work(Box<ScanArgs>),
}

/// `wellknown scan`.
#[derive(Debug, Args, Default)]
pub struct ScanArgs {
    /// Targets: origins (https://a.example:8443), URLs (their origin is scanned) or bare host names
    /// (https). `-` reads targets from standard input, one per line, to its end before the scan
    /// starts (Ctrl-C while it is read keeps the targets read as an unfinished scan for --resume).
    pub targets: Vec<String>,
    /// Read targets from FILE, one per line (`#` comments and blank lines ignored).
    #[arg(long, value_name = "FILE")]
    pub list: Option<PathBuf>,
    /// Write JSON Lines to FILE instead of standard output (`-`: standard output); never over the
    /// store or another SQLite database [default: standard output].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Configuration file [default: ./wellknown.toml, if present].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Scope rule: host, *.domain, IP or CIDR; prefix ! to exclude. Repeatable [default: the
    /// registrable domains of the targets].
    #[arg(long, value_name = "RULE")]
    pub scope: Vec<String>,
    /// Run only this probe (repeatable; see `wellknown plugins`) [default: every registered probe].
    #[arg(long = "probe", value_name = "ID")]
    pub probes: Vec<String>,
    /// Also probe this OAuth/OpenID issuer identifier (repeatable).
    #[arg(long, value_name = "URL")]
    pub issuer: Vec<String>,
    /// Units (origins, issuers) scanned in parallel (1 to 10000) [default: 128]. One unit's own
    /// documents are fetched concurrently too, each request waiting for its host's politeness
    /// budget (requests in flight and starts per second to one host).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = concurrency_value)]
    pub concurrency: Option<usize>,
    /// Maximum concurrent requests to one host (1 to 100) [default: 2].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = per_host_value)]
    pub per_host: Option<usize>,
    /// Maximum request starts per second to one host: 0 (no spacing) or 0.001 to 1000000 [default: 5].
    #[arg(long, value_name = "RATE", allow_negative_numbers = true, value_parser = rate_value)]
    pub rate: Option<f64>,
    /// Connect timeout in seconds (0.001 to 3600) [default: 10].
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = seconds_value)]
    pub connect_timeout: Option<f64>,
    /// Total timeout per request in seconds (0.001 to 3600) [default: 30].
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = seconds_value)]
    pub timeout: Option<f64>,
    /// Minimum transfer rate in bytes per second, judged from --slow-grace after a request starts
    /// over the last half of that time: slower ends the request as slow_transfer, or as timeout when
    /// nothing arrives at all (0 turns the rule off) [default: 1024].
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true, value_parser = u64_value)]
    pub min_rate: Option<u64>,
    /// Seconds after a request starts before --min-rate is judged (0.001 to 3600) [default: 10].
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = seconds_value)]
    pub slow_grace: Option<f64>,
    /// User-Agent header [default: `wellknown/VERSION (+https://github.com/wellknown-scanner/wellknown)`].
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,
    /// Resolve HOST:PORT to ADDR without DNS, as curl does (repeatable).
    #[arg(long, value_name = "HOST:PORT:ADDR")]
    pub resolve: Vec<String>,
    /// Connect to CONNECT_HOST:CONNECT_PORT instead of HOST:PORT, as curl does; an empty HOST
    /// matches every host (`:443:127.0.0.1:8443`). The Host header and TLS name stay those of the URL.
    #[arg(long, value_name = "HOST:PORT:CONNECT_HOST:CONNECT_PORT")]
    pub connect_to: Vec<String>,
    /// Allow requests to loopback, private and link-local addresses (refused by default).
    #[arg(long)]
    pub allow_private: bool,
    /// Trust this extra CA certificate (PEM) in addition to the built-in web roots (repeatable).
    #[arg(long, value_name = "PEM")]
    pub ca_cert: Vec<PathBuf>,
    /// Send requests through this proxy: `http://` (CONNECT for https sites), `https://`,
    /// `socks5://` (names resolved here) or `socks5h://` (names resolved by the proxy), with an
    /// optional `USER:PASSWORD@`. Without it, HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY (or
    /// their lower-case forms) are read. Credentials are never printed or stored.
    #[arg(long, value_name = "URL", conflicts_with = "no_proxy")]
    pub proxy: Option<String>,
    /// Read the proxy's USER:PASSWORD from the first line of this file (instead of the URL, where
    /// other users may see it in the process list).
    #[arg(long, value_name = "FILE")]
    pub proxy_auth_file: Option<PathBuf>,
    /// Trust this CA certificate (PEM) for an https:// proxy and for sites reached through the
    /// proxy (an intercepting proxy's CA), not for direct requests (repeatable).
    #[arg(long, value_name = "PEM")]
    pub proxy_ca: Vec<PathBuf>,
    /// Connect directly: no proxy, whatever the proxy environment variables or the `proxy` key say.
    #[arg(long)]
    pub no_proxy: bool,
    /// Maximum follow-up hops from an origin's documents (robots.txt -> sitemap index -> ...)
    /// [default: 8].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = u32_value)]
    pub max_hops: Option<u32>,
    /// Also request every IANA-registered well-known suffix on each origin.
    #[arg(long)]
    pub all_registered: bool,
    /// No progress bar and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// The store: a SQLite file, or a PostgreSQL database as postgres://USER@HOST/DB (optionally :PORT, ?sslmode=...)
    /// (password from PGPASSWORD or ~/.pgpass, never here); also `db` in the configuration file
    /// and WELLKNOWN_DB [default: ./wellknown.db].
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<PathBuf>,
    /// Do not keep the graph in the store (JSON Lines output only).
    #[arg(long)]
    pub no_store: bool,
    /// With --db postgres://…: record the scan and its units for `wellknown work` processes and
    /// return without scanning.
    #[arg(long)]
    pub workers_only: bool,
    /// Finish an unfinished scan of the store (after a kill, crash or Ctrl-C) without repeating the
    /// origins it had finished: SCAN_ID (see `wellknown scans`), by default the most recent
    /// unfinished scan that no running wellknown holds, whatever finished after it. A scan is run by
    /// one process at a time (refused while another runs it). The scan's own plan is used: targets
    /// and the options that shape the plan (--scope, --probe, --issuer, --depth, --max-hops,
    /// --max-verify, --obey-robots, --all-registered, --no-verify, --verify) are refused with it
    /// rather than silently ignored, and so are those keys in the configuration file or WELLKNOWN_*
    /// variables when their value differs from the stored plan's.
    #[arg(long, value_name = "SCAN_ID", num_args = 0..=1, value_parser = clap::value_parser!(i64).range(1..),
        conflicts_with_all = [
        "targets", "list", "scope", "probes", "issuer", "depth", "max_hops", "max_verify", "obey_robots",
        "all_registered", "no_verify", "verify",
    ])]
    pub resume: Option<Option<i64>>,
    /// Do not verify candidate URLs (by default each in-scope url, sitemap and endpoint candidate
    /// gets a HEAD, or a GET when HEAD answers 405/501).
    #[arg(long, overrides_with = "verify")]
    pub no_verify: bool,
    /// Verify candidate URLs (the default; overrides an earlier --no-verify or the configuration).
    #[arg(long, overrides_with = "no_verify")]
    pub verify: bool,
    /// Verification requests per origin at most (later candidate URLs are counted in a `budget`
    /// record and the summary's `verifications_skipped`, not verified) [default: 1000].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = usize_value)]
    pub max_verify: Option<usize>,
    /// Obey robots.txt for this scanner's own product token (from --user-agent), honouring
    /// Crawl-delay up to 60 s. Default: robots.txt is read as a document, not obeyed.
    #[arg(long)]
    pub obey_robots: bool,
    /// Feedback depth: hosts, origins and issuers revealed by documents are scanned in the same run
    /// when in scope and at most N hops from the targets (0 = the targets only) [default: 1].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = u32_value)]
    pub depth: Option<u32>,
    /// Do not try revealed names that do not resolve as virtual hosts of the origin that revealed them.
    #[arg(long)]
    pub no_vhosts: bool,
    /// Wall-clock budget of one origin (or issuer) in seconds, 0.001 to 3600 [default: 300]: past it,
    /// its requests in flight are abandoned and the rest skipped, counted in a `budget` record.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = seconds_value)]
    pub origin_budget: Option<f64>,
    /// Follow-up documents (child sitemaps, JWK Sets, includes) fetched per origin at most
    /// [default: 10000]; the rest are counted in a `budget` record.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = usize_value)]
    pub max_follow_ups: Option<usize>,
    /// Candidate sightings recorded per origin at most [default: 200000]; past it, its documents'
    /// further candidates are counted, not recorded, and its follow-ups not fetched.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = usize_value)]
    pub max_candidates: Option<usize>,
    /// Hosts, origins and issuers one document may queue for scanning [default: 100]; further ones
    /// are recorded (inventory action `over_budget`), not scanned.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = usize_value)]
    pub max_revealed_per_document: Option<usize>,
    /// Hosts, origins and issuers one origin's documents may queue in all [default: 1000].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = usize_value)]
    pub max_revealed: Option<usize>,
    /// Names that do not resolve tried as virtual hosts of one revealing origin [default: 20].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = usize_value)]
    pub max_vhost_tries: Option<usize>,
    /// Do not compare an origin's 2xx documents with its answer for a random path (by default a
    /// document answered like a random path is `catch_all`, not found).
    #[arg(long)]
    pub no_catch_all_check: bool,
    /// Ask again, at the end of the scan once the delay has passed, the documents a server refused
    /// with a Retry-After longer than the fetcher waits (recorded `rate_limited` first).
    #[arg(long)]
    pub retry_rate_limited: bool,
}

/// A whole number within `range`. Negative numbers reach this parser as values
/// (`allow_negative_numbers`), so `--per-host -1` is told the accepted range rather than taken for
/// a flag.
///
/// Errors: not a whole number, or outside `range` (`must be from 1 to 100, got -1`).
pub(crate) fn whole_in(text: &str, range: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    let t = text.trim();
    match t.parse::<i128>().ok().and_then(|v| u64::try_from(v).ok()) {
        Some(v) if range.contains(&v) => Ok(v),
        _ if *range.start() == 0 => {
            Err(format!("must be a whole number, 0 or more (at most {}), got {t}", range.end()))
        }
        _ => Err(format!("must be from {} to {}, got {t}", range.start(), range.end())),
    }
}

/// `--rate`, judged as written by [`crate::values::rate`] (so `1e309` is named as given, not as
/// `inf`).
fn rate_value(text: &str) -> Result<f64, String> {
    crate::values::rate(&crate::values::Given::Text(text.to_string()))
}

/// `--connect-timeout`, `--timeout`, `--slow-grace`, judged as written by [`crate::values::seconds`].
fn seconds_value(text: &str) -> Result<f64, String> {
    crate::values::seconds(&crate::values::Given::Text(text.to_string()))
}

/// `--per-host`: [`crate::config::limits::PER_HOST`].
fn per_host_value(text: &str) -> Result<usize, String> {
    usize_in(text, crate::config::limits::PER_HOST)
}

/// `--concurrency`: [`crate::config::limits::CONCURRENCY`].
fn concurrency_value(text: &str) -> Result<usize, String> {
    usize_in(text, crate::config::limits::CONCURRENCY)
}

/// A count of 0 or more (`--max-verify`).
fn usize_value(text: &str) -> Result<usize, String> {
    usize_in(text, 0..=usize::MAX)
}

/// A count of 0 or more that fits 64 bits (`--min-rate`).
fn u64_value(text: &str) -> Result<u64, String> {
    whole_in(text, 0..=u64::MAX)
}

/// A count of 0 or more that fits 32 bits (`--depth`, `--max-hops`).
fn u32_value(text: &str) -> Result<u32, String> {
    let v = whole_in(text, 0..=u64::from(u32::MAX))?;
    u32::try_from(v).map_err(|e| e.to_string())
}

fn usize_in(text: &str, range: std::ops::RangeInclusive<usize>) -> Result<usize, String> {
    let wide = |v: usize| u64::try_from(v).unwrap_or(u64::MAX);
    let v = whole_in(text, wide(*range.start())..=wide(*range.end()))?;
    usize::try_from(v).map_err(|e| e.to_string())
}

/// Where the store is, for the commands that read it.
#[derive(Debug, Args, Default, Clone)]
pub struct StoreArgs {
    /// The store: a SQLite file, or a PostgreSQL database as postgres://USER@HOST/DB (optionally :PORT, ?sslmode=...)
    /// (password from PGPASSWORD or ~/.pgpass, never here); also `db` in the configuration file
    /// and WELLKNOWN_DB [default: ./wellknown.db].
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<PathBuf>,
    /// Configuration file [default: ./wellknown.toml, if present].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `wellknown scans`.
#[derive(Debug, Args)]
pub struct ScansArgs {
    /// Output: `text` (a table) or `jsonl` (one object per scan).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: String,
    /// The store.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// `wellknown diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier scan's id [default: the finished scan before SCAN_B]. An unfinished scan may be
    /// named; it is marked as such on standard error.
    pub scan_a: Option<i64>,
    /// The later scan's id [default: the most recent finished scan].
    pub scan_b: Option<i64>,
    /// Output: `text` (one `+`/`-`/`~` line per change) or `jsonl`.
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub format: String,
    /// Write to FILE instead of standard output (`-`: standard output); never over the store or
    /// another SQLite database.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The store.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// `wellknown candidates`.
#[derive(Debug, Args)]
pub struct CandidatesArgs {
    /// Only this kind: url, host, origin, path, sitemap, issuer, endpoint, contact, app, key.
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Only values in scope.
    #[arg(long)]
    pub in_scope: bool,
    /// Only values whose latest verification verdict is STATUS (alive, gone, auth_required,
    /// redirect, error, dns, connect, tls, timeout, failure, out_of_scope, disallowed_by_robots,
    /// private_address, skipped, unverified).
    #[arg(long, value_name = "STATUS")]
    pub status: Option<String>,
    /// Output: `lines` (one value per line) or `jsonl` (one object per value, with status,
    /// confidence and declaring documents).
    #[arg(long, value_name = "FORMAT", default_value = "lines")]
    pub format: String,
    /// Write to FILE instead of standard output (`-`: standard output); never over the store or
    /// another SQLite database.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The store.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// `wellknown graph`.
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Output: `dot`, `graphml`, `jsonl` or `html` (one self-contained page to look at: the graph
    /// drawn with its evidence, nothing fetched when opened; large groups collapsed, its caps said on
    /// standard error).
    #[arg(long, value_name = "FORMAT", default_value = "jsonl")]
    pub format: String,
    /// Only the relations seen in scan SCAN_ID, with that scan's evidence (and the scan's record
    /// and virtual-host attempts).
    #[arg(long, value_name = "SCAN_ID")]
    pub scan: Option<i64>,
    /// Only the relations declaring a value of this kind: url, host, origin, path, sitemap, issuer,
    /// endpoint, contact, app, key.
    #[arg(long, value_name = "KIND")]
    pub kind: Option<String>,
    /// Only the relations declaring a value in scope.
    #[arg(long)]
    pub in_scope: bool,
    /// Write to FILE instead of standard output (`-`: standard output); never over the store or
    /// another SQLite database.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The store.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// `wellknown parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// Probe id (see `wellknown plugins`), e.g. robots, sitemap, security.txt.
    pub probe: String,
    /// The file to interpret (`-` for standard input).
    pub file: PathBuf,
    /// The URL the file is taken to have been fetched from (final URL after redirects).
    #[arg(long)]
    pub url: String,
    /// The Content-Type it was served with. Default: the media type the probe asks for (its Accept,
    /// e.g. application/json), since a local file has none; give it to have the served type judged.
    #[arg(long, value_name = "TYPE")]
    pub content_type: Option<String>,
    /// The HTTP status it was served with (100 to 599).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u16).range(100..=599))]
    pub status: u16,
    /// Judge expiry at this instant (RFC 3339) instead of now.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// A URL requested before --url (redirect chain, in order; repeatable). Each hop is recorded as
    /// a 301 answer, since a local file carries no status.
    #[arg(long, value_name = "URL")]
    pub redirected_from: Vec<String>,
    /// Pretty-print the JSON.
    #[arg(long)]
    pub pretty: bool,
}

/// `wellknown robots ...`.
#[derive(Debug, Subcommand)]
pub enum RobotsCommand {
    /// Check URLs against a local robots.txt for one product token; one JSON line per URL.
    Check(RobotsCheckArgs),
}

/// `wellknown robots check`.
#[derive(Debug, Args)]
pub struct RobotsCheckArgs {
    /// The robots.txt file (`-` for standard input).
    pub file: PathBuf,
    /// The crawler's product token (or a full User-Agent; its product token is used).
    #[arg(long)]
    pub agent: String,
    /// Where the robots.txt was fetched from; URLs on another scheme, host or port get applies=false.
    #[arg(long, value_name = "URL")]
    pub robots_url: Option<String>,
    /// URLs to check.
    #[arg(required = true)]
    pub urls: Vec<String>,
}

/// `wellknown plugins`.
#[derive(Debug, Args)]
pub struct PluginsArgs {
    /// Print JSON Lines instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The clap command, for man pages and completions.
pub fn command() -> clap::Command {
    Cli::command()
}
