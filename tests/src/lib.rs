//! Loopback fixture server for end-to-end tests.
