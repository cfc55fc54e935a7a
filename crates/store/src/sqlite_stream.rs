//! The SQLite side of [`crate::query`]: the `wk_ns` function its statements compare times with,
//! and rows streamed out of a prepared statement.

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::{Value, ValueRef};

use crate::StoreError;
use crate::query::{Param, SqlRow, SqlValue, nanoseconds};

/// Registers `wk_ns(text)` on `conn`: the nanoseconds since the epoch of an RFC 3339 time, NULL
/// for NULL or text that is no time. Times are stored as text whose fractional seconds vary in
/// length, so the text does not sort as the instants do.
///
/// Errors: SQLite's.
pub(crate) fn register(conn: &Connection) -> Result<(), StoreError> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC | FunctionFlags::SQLITE_INNOCUOUS;
    conn.create_scalar_function("wk_ns", 1, flags, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Text(t) => std::str::from_utf8(t).ok().and_then(nanoseconds),
            _ => None,
        })
    })?;
    Ok(())
}

/// Runs `sql` with `params` on `conn` and hands each row to `each`.
///
/// Errors: SQLite's; the first error of `each`.
pub(crate) fn stream(
    conn: &Connection,
    sql: &str,
    params: &[Param],
    each: &mut dyn FnMut(&SqlRow) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut stmt = conn.prepare(sql)?;
    let columns = stmt.column_count();
    let bound: Vec<Value> = params
        .iter()
        .map(|p| match p {
            Param::Int(v) => Value::Integer(*v),
            Param::Text(s) => Value::Text(s.clone()),
        })
        .collect();
    let mut rows = stmt.query(rusqlite::params_from_iter(bound.iter()))?;
    let mut row = SqlRow { values: Vec::with_capacity(columns) };
    while let Some(r) = rows.next()? {
        row.values.clear();
        for i in 0..columns {
            row.values.push(match r.get_ref(i)? {
                ValueRef::Null => SqlValue::Null,
                ValueRef::Integer(v) => SqlValue::Int(v),
                ValueRef::Real(v) => SqlValue::Real(v),
                ValueRef::Text(t) | ValueRef::Blob(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
            });
        }
        each(&row)?;
    }
    Ok(())
}
