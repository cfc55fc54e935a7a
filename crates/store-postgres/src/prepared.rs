//! Statements prepared once per connection.
//!
//! The driver's `query("SQL", …)` prepares an unnamed statement at every call: a round trip
//! (Parse, Describe) before the one that runs it (Bind, Execute), and a parse and plan on the
//! server each time. The statements a scan and a worker run over and over (unit writes, leases,
//! releases, every table's upsert) are prepared once per connection instead and run by name, one
//! round trip each (PostgreSQL protocol, "Extended Query", section 55.2.3).
//!
//! Invariant: a [`Cache`] belongs to one connection. Its statements are named on that session only,
//! so a store that dials again empties it ([`Cache::clear`]). A schema change made by another
//! session while this one runs is seen as PostgreSQL sees it: the server re-plans a prepared
//! statement whose tables changed.

use std::collections::HashMap;

use postgres::types::ToSql;
use postgres::{GenericClient, Row, Statement};

/// Prepared statements of one connection, by their SQL text.
#[derive(Default)]
pub(crate) struct Cache {
    by_sql: HashMap<&'static str, Statement>,
}

impl Cache {
    /// Forgets every statement (the connection they were prepared on is gone).
    pub(crate) fn clear(&mut self) {
        self.by_sql.clear();
    }
}

/// A client (a connection or one of its transactions) with its connection's cache: runs fixed SQL
/// texts as prepared statements.
pub(crate) struct Prepared<'a, C: GenericClient> {
    client: &'a mut C,
    cache: &'a mut Cache,
}

impl<'a, C: GenericClient> Prepared<'a, C> {
    /// `client` with the cache of its connection.
    pub(crate) fn new(client: &'a mut C, cache: &'a mut Cache) -> Self {
        Prepared { client, cache }
    }

    /// The statement of `sql`, prepared now when this connection has not prepared it yet.
    ///
    /// Errors: the server's (a syntax error, an unknown table).
    fn statement(&mut self, sql: &'static str) -> Result<Statement, postgres::Error> {
        if let Some(s) = self.cache.by_sql.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(sql)?;
        self.cache.by_sql.insert(sql, s.clone());
        Ok(s)
    }

    /// Runs `sql`; returns the number of rows it changed.
    ///
    /// Errors: the server's.
    pub(crate) fn execute(
        &mut self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, postgres::Error> {
        let s = self.statement(sql)?;
        self.client.execute(&s, params)
    }

    /// Runs `sql`; returns its rows.
    ///
    /// Errors: the server's.
    pub(crate) fn query(
        &mut self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, postgres::Error> {
        let s = self.statement(sql)?;
        self.client.query(&s, params)
    }
}
