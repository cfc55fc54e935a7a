//! The test server (`wellknown_store_postgres::testing`) as a backend of the store suite.

use wellknown_store::Store;
pub use wellknown_store_postgres::testing::{Server, TestDb, server};

use crate::suite::{Backend, Database};

impl Backend for Server {
    fn create(&self) -> Box<dyn Database> {
        Box::new(self.migrated_db())
    }
}

impl Database for TestDb {
    fn open(&self) -> Box<dyn Store> {
        Box::new(self.worker_store())
    }
}
