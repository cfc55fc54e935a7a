//! Integration tests of `wellknown-tests`, one test binary for the package.

mod delay_proxy;
mod fixture_server_cli;
mod plain_fetch;
mod plain_fetch_cli;
