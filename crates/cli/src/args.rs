//! Command-line definitions (clap derive). `wellknown --help` is generated from here, and so are
//! the man page and completions (`cargo xtask dist`).

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand};

/// Scan what origins publish at well-known locations into a graph of verifiable candidates.
#[derive(Debug, Parser)]
#[command(name = "wellknown", version, about, long_about = None, propagate_version = true)]
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
    /// Interpret one local file as if it had been fetched from --url; print one JSON report.
    Parse(ParseArgs),
    /// robots.txt tools.
    #[command(subcommand)]
    Robots(RobotsCommand),
    /// List the registered probes with their well-known suffix and IANA registry status.
    Plugins(PluginsArgs),
}

/// `wellknown scan`.
#[derive(Debug, Args, Default)]
pub struct ScanArgs {
    /// Targets: origins (https://a.example:8443), URLs (their origin is scanned) or bare host names
    /// (https). `-` reads targets from standard input, one per line.
    pub targets: Vec<String>,
    /// Read targets from FILE, one per line (`#` comments and blank lines ignored).
    #[arg(long, value_name = "FILE")]
    pub list: Option<PathBuf>,
    /// Write JSON Lines to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Configuration file (default: ./wellknown.toml if present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Scope rule: host, *.domain, IP or CIDR; prefix ! to exclude. Repeatable. Default: the
    /// registrable domains of the targets.
    #[arg(long, value_name = "RULE")]
    pub scope: Vec<String>,
    /// Run only this probe (repeatable; see `wellknown plugins`).
    #[arg(long = "probe", value_name = "ID")]
    pub probes: Vec<String>,
    /// Also probe this OAuth/OpenID issuer identifier (repeatable).
    #[arg(long, value_name = "URL")]
    pub issuer: Vec<String>,
    /// Origins scanned in parallel.
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Maximum concurrent requests to one host.
    #[arg(long, value_name = "N")]
    pub per_host: Option<usize>,
    /// Maximum requests per second to one host.
    #[arg(long, value_name = "RATE")]
    pub rate: Option<f64>,
    /// Connect timeout in seconds.
    #[arg(long, value_name = "SECS")]
    pub connect_timeout: Option<f64>,
    /// Total timeout per request in seconds.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// User-Agent header.
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
    /// Maximum follow-up hops from an origin's documents (robots.txt -> sitemap index -> ...).
    #[arg(long, value_name = "N")]
    pub max_hops: Option<u32>,
    /// Also request every IANA-registered well-known suffix on each origin.
    #[arg(long)]
    pub all_registered: bool,
    /// No progress bar and no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
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
    /// The Content-Type it was served with.
    #[arg(long, value_name = "TYPE")]
    pub content_type: Option<String>,
    /// The HTTP status it was served with.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub status: u16,
    /// Judge expiry at this instant (RFC 3339) instead of now.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// A URL requested before --url (redirect chain, in order; repeatable).
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
