//! Integration tests of `wellknown`, one test binary (one link) for the crate: each module was a separate file under tests/.

mod cli_commands;
mod cli_output;
mod cli_parse;
mod cli_scope;
mod cli_settings;
mod cli_store;
mod cli_writers;
mod common;
mod e2e_app_association;
mod e2e_exit;
mod e2e_failures;
mod e2e_history;
mod e2e_hostile_budgets;
mod e2e_hostile_peers;
mod e2e_identity;
mod e2e_interrupt;
mod e2e_issuers;
mod e2e_redirect_scope;
mod e2e_registered;
mod e2e_resume;
mod e2e_robots;
mod e2e_scans;
mod e2e_security_txt;
mod e2e_sitemap;
mod e2e_unreachable;
mod e2e_verification;
