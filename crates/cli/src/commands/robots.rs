//! `wellknown robots check FILE --agent TOKEN [--robots-url URL] URL...`.

use url::Url;
use wellknown_robots::{RobotsTxt, check_url};

use crate::args::{RobotsCheckArgs, RobotsCommand};
use crate::exit;

/// Runs a robots subcommand. `check` prints one JSON line per URL: `{"url","agent","applies",
/// "allowed","rule"}`. Exit 0 when every URL is allowed, 1 when at least one is disallowed.
pub fn run(cmd: &RobotsCommand) -> Result<i32, String> {
    match cmd {
        RobotsCommand::Check(a) => check(a),
    }
}

fn check(args: &RobotsCheckArgs) -> Result<i32, String> {
    let body = super::read_input(&args.file)?;
    let robots_url = match &args.robots_url {
        Some(u) => Some(Url::parse(u).map_err(|e| format!("--robots-url {u:?}: {e}"))?),
        None => None,
    };
    let robots = RobotsTxt::parse(&body);
    let mut all_allowed = true;
    for u in &args.urls {
        let outcome = check_url(&robots, robots_url.as_ref(), &args.agent, u);
        all_allowed &= outcome.allowed;
        super::print_line(&serde_json::to_string(&outcome).map_err(|e| e.to_string())?)?;
    }
    Ok(if all_allowed { exit::FOUND } else { exit::NOTHING })
}
