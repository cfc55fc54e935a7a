//! `wellknown robots check FILE --agent TOKEN [--robots-url URL] URL...`.

use url::Url;
use wellknown_core::origin::is_robots_location;
use wellknown_robots::{RobotsTxt, check_url};

use crate::args::{RobotsCheckArgs, RobotsCommand};
use crate::exit;

/// Runs a robots subcommand. `check` prints one JSON line per URL: `{"url","agent","applies",
/// "allowed","rule","token"}` (plus `"reason"` when the file does not govern the URL). Exit 0 when
/// every URL is allowed, 1 when at least one is disallowed, 2 when a URL could not be read (its line
/// still printed, with `allowed: null` and an `error`). A `--robots-url` other than the top-level
/// `/robots.txt` of its origin (RFC 9309 section 2.3) governs nothing: every URL gets
/// `applies: false, allowed: true` with the reason, exit 0, and one warning on standard error.
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
    if let Some(u) = robots_url.as_ref().filter(|u| !is_robots_location(u)) {
        crate::note!(
            "wellknown: warning: --robots-url {u} is not the top-level /robots.txt of its origin (RFC 9309 2.3): the \
             file governs nothing, every URL is reported applies: false"
        );
    }
    let robots = RobotsTxt::parse(&body);
    let (mut all_allowed, mut unreadable) = (true, 0usize);
    for u in &args.urls {
        let outcome = check_url(&robots, robots_url.as_ref(), &args.agent, u);
        match outcome.allowed {
            Some(a) => all_allowed &= a,
            None => unreadable += 1,
        }
        super::print_line(&serde_json::to_string(&outcome).map_err(|e| e.to_string())?)?;
    }
    if unreadable > 0 {
        // Every readable URL still got its line; the unreadable ones make the run an error.
        return Err(format!("{unreadable} URL(s) could not be read (see the \"error\" field)"));
    }
    Ok(if all_allowed { exit::FOUND } else { exit::NOTHING })
}
