//! The `wellknown` binary. See `wellknown --help` and docs/user-guide.md.

use clap::Parser;
use wellknown::args::{Cli, Command};
use wellknown::{commands, exit, plugins_linked};

fn main() {
    plugins_linked::link_all();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { exit::ERROR } else { exit::FOUND };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let result = match &cli.command {
        Command::Scan(a) => commands::scan::run(a),
        Command::Parse(a) => commands::parse::run(a),
        Command::Robots(c) => commands::robots::run(c),
        Command::Plugins(a) => commands::plugins::run(a),
        Command::Scans(a) => commands::scans::run(a),
        Command::Diff(a) => commands::diff::run(a),
        Command::Candidates(a) => commands::candidates::run(a),
        Command::Graph(a) => commands::graph::run(a),
        Command::Work(a) => commands::work::run(a),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(msg) => {
            wellknown::note!("wellknown: error: {msg}");
            std::process::exit(exit::ERROR);
        }
    }
}
