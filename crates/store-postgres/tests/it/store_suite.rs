//! The store suite of `crates/store/tests/suite`, unchanged, on PostgreSQL (as the worker role when
//! `WELLKNOWN_TEST_PG_WORKER` names one).

use crate::pg;
use crate::suite;

suite::store_suite!(pg::server());
