//! Integration tests of `wellknown-tests`, one test binary for the package.

mod fixture_server_cli;
