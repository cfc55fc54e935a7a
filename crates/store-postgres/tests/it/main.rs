//! The PostgreSQL store against a real server: the store suite every backend runs (`suite.rs`),
//! TLS modes (`tls.rs`), migrations and roles (`migrate.rs`). The server comes from
//! `WELLKNOWN_TEST_PG` (`pg.rs` says how to start one); each test makes a database of its own and
//! drops it.

#[path = "../../../store/tests/suite/mod.rs"]
mod suite;

mod migrate;
mod pg;
mod reconnect;
mod store_suite;
mod tls;
mod work;
