//! The PostgreSQL side of `wellknown_store::query`: a statement's rows streamed off the
//! connection (`query_raw`: rows are read from the socket as the caller takes them, not collected
//! first) as backend-neutral rows.

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{Client, Row};
use wellknown_core::Timestamp;
use wellknown_store::StoreError;
use wellknown_store::query::{Param, SqlRow, SqlValue};

use crate::pg_error;

/// Column `i` of `row` as a neutral value.
fn value(row: &Row, i: usize) -> Result<SqlValue, StoreError> {
    let ty = row.columns().get(i).map(|c| c.type_().clone()).unwrap_or(Type::TEXT);
    let read = |e: postgres::Error| pg_error(&format!("reading column {i} of a query"), &e);
    Ok(match ty {
        Type::INT2 => {
            row.try_get::<_, Option<i16>>(i).map_err(read)?.map_or(SqlValue::Null, |v| SqlValue::Int(v.into()))
        }
        Type::INT4 => {
            row.try_get::<_, Option<i32>>(i).map_err(read)?.map_or(SqlValue::Null, |v| SqlValue::Int(v.into()))
        }
        Type::INT8 => row.try_get::<_, Option<i64>>(i).map_err(read)?.map_or(SqlValue::Null, SqlValue::Int),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i).map_err(read)?.map_or(SqlValue::Null, SqlValue::Real),
        Type::BOOL => row.try_get::<_, Option<bool>>(i).map_err(read)?.map_or(SqlValue::Null, SqlValue::Bool),
        Type::TIMESTAMPTZ => {
            row.try_get::<_, Option<Timestamp>>(i).map_err(read)?.map_or(SqlValue::Null, SqlValue::Time)
        }
        Type::TEXT | Type::VARCHAR | Type::NAME | Type::BPCHAR | Type::UNKNOWN => {
            row.try_get::<_, Option<String>>(i).map_err(read)?.map_or(SqlValue::Null, SqlValue::Text)
        }
        other => {
            return Err(StoreError::new(format!(
                "postgres: column {i} of a query has type {other}, which the store does not read (cast it to text)"
            )));
        }
    })
}

/// Runs `sql` with `params` and hands each row to `each`.
///
/// Errors: the server's; a column of a type [`SqlValue`] cannot hold; the first error of `each`.
pub(crate) fn stream(
    client: &mut Client,
    sql: &str,
    params: &[Param],
    each: &mut dyn FnMut(&SqlRow) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let bound: Vec<&(dyn ToSql + Sync)> = params
        .iter()
        .map(|p| match p {
            Param::Int(v) => v as &(dyn ToSql + Sync),
            Param::Text(s) => s as &(dyn ToSql + Sync),
        })
        .collect();
    let mut rows = client.query_raw(sql, bound).map_err(|e| pg_error("running a query", &e))?;
    let mut out = SqlRow::default();
    while let Some(row) = rows.next().map_err(|e| pg_error("reading a query's rows", &e))? {
        out.values.clear();
        for i in 0..row.len() {
            out.values.push(value(&row, i)?);
        }
        each(&out)?;
    }
    Ok(())
}
