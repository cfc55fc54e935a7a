//! The graph's analyses as SQL, streamed: `wellknown candidates`, `diff`, `graph` and confidence
//! run in the database, and their rows reach the caller one at a time, so memory does not grow
//! with the graph (only with what one candidate or one relation carries).
//!
//! Every backend runs the same statements ([`Dialect`] spells the few places where SQLite and
//! PostgreSQL differ: parameters, time comparisons, byte-order sorting, JSON as text), and hands
//! rows back as backend-neutral [`SqlRow`]s through [`crate::Store::stream`]. What SQL cannot say
//! portably (the confidence formula's decay, grouping a candidate's relations) is done here in
//! Rust on the streamed rows.

pub mod candidates;
pub mod diff;
pub mod facts;
pub mod graph;
pub mod units;

use wellknown_core::Timestamp;

use crate::StoreError;

/// The SQL dialect of a backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: `?N` parameters; times stored as RFC 3339 text, compared through the `wk_ns`
    /// function the store registers (nanoseconds since the epoch); booleans as 0/1.
    Sqlite,
    /// PostgreSQL: `$N` parameters; `timestamptz`, `boolean` and `json` columns.
    Postgres,
}

impl Dialect {
    /// Parameter `n` (1-based).
    pub fn param(self, n: usize) -> String {
        match self {
            Dialect::Sqlite => format!("?{n}"),
            Dialect::Postgres => format!("${n}"),
        }
    }

    /// A time column as a value that compares, sorts and aggregates (MIN, MAX) as the instant it
    /// names: SQLite `wk_ns(col)` (an integer, [`SqlRow::time`] reads it back), PostgreSQL the
    /// `timestamptz` itself.
    pub fn time(self, col: &str) -> String {
        match self {
            Dialect::Sqlite => format!("wk_ns({col})"),
            Dialect::Postgres => col.to_string(),
        }
    }

    /// A text expression for `ORDER BY` in byte order (Rust's `str` order): SQLite's default
    /// `BINARY` collation, PostgreSQL's `"C"`.
    pub fn sort(self, expr: &str) -> String {
        match self {
            Dialect::Sqlite => expr.to_string(),
            Dialect::Postgres => format!("{expr} COLLATE \"C\""),
        }
    }

    /// A JSON column as its text.
    pub fn json(self, col: &str) -> String {
        match self {
            Dialect::Sqlite => col.to_string(),
            Dialect::Postgres => format!("{col}::text"),
        }
    }

    /// The texts of `expr` in a group joined by the record separator U+001E (which JSON text never
    /// holds raw).
    pub fn join_texts(self, expr: &str) -> String {
        match self {
            Dialect::Sqlite => format!("group_concat({expr}, char(30))"),
            Dialect::Postgres => format!("string_agg({expr}, chr(30))"),
        }
    }
}

/// The separator of [`Dialect::join_texts`].
pub const TEXT_SEPARATOR: char = '\u{1e}';

/// A parameter of a statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    /// An integer (`bigint`).
    Int(i64),
    /// A text.
    Text(String),
}

/// A value of a streamed row, whatever the backend.
#[derive(Debug, Clone, PartialEq)]
pub enum SqlValue {
    /// NULL.
    Null,
    /// An integer (SQLite INTEGER; PostgreSQL smallint, integer, bigint).
    Int(i64),
    /// A float.
    Real(f64),
    /// A text (PostgreSQL text and JSON cast to text).
    Text(String),
    /// A boolean (PostgreSQL; SQLite gives 0/1 integers).
    Bool(bool),
    /// An instant (PostgreSQL `timestamptz`).
    Time(Timestamp),
}

/// One row of a streamed statement: its values in select-list order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SqlRow {
    /// The values.
    pub values: Vec<SqlValue>,
}

impl SqlRow {
    fn get(&self, i: usize) -> &SqlValue {
        self.values.get(i).unwrap_or(&SqlValue::Null)
    }

    fn wrong(&self, i: usize, want: &str) -> StoreError {
        StoreError::new(format!("column {i} of a query: expected {want}, read {:?}", self.get(i)))
    }

    /// Column `i` as an integer, None when NULL.
    ///
    /// Errors: another type.
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.get(i) {
            SqlValue::Null => Ok(None),
            SqlValue::Int(v) => Ok(Some(*v)),
            SqlValue::Bool(b) => Ok(Some(i64::from(*b))),
            _ => Err(self.wrong(i, "an integer")),
        }
    }

    /// Column `i` as an integer.
    ///
    /// Errors: NULL or another type.
    pub fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.opt_int(i)?.ok_or_else(|| self.wrong(i, "an integer"))
    }

    /// Column `i` as text, None when NULL.
    ///
    /// Errors: another type.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.get(i) {
            SqlValue::Null => Ok(None),
            SqlValue::Text(s) => Ok(Some(s.clone())),
            _ => Err(self.wrong(i, "a text")),
        }
    }

    /// Column `i` as text.
    ///
    /// Errors: NULL or another type.
    pub fn text(&self, i: usize) -> Result<String, StoreError> {
        self.opt_text(i)?.ok_or_else(|| self.wrong(i, "a text"))
    }

    /// Column `i` as a boolean (SQLite 0/1), None when NULL.
    ///
    /// Errors: another type.
    pub fn opt_bool(&self, i: usize) -> Result<Option<bool>, StoreError> {
        match self.get(i) {
            SqlValue::Null => Ok(None),
            SqlValue::Bool(b) => Ok(Some(*b)),
            SqlValue::Int(v) => Ok(Some(*v != 0)),
            _ => Err(self.wrong(i, "a boolean")),
        }
    }

    /// Column `i` as an HTTP status (an integer in 0..=65535), None when NULL or out of range.
    ///
    /// Errors: another type.
    pub fn opt_status(&self, i: usize) -> Result<Option<u16>, StoreError> {
        Ok(self.opt_int(i)?.and_then(|v| u16::try_from(v).ok()))
    }

    /// Column `i` as an instant, None when NULL: PostgreSQL `timestamptz`, SQLite RFC 3339 text
    /// or the nanoseconds of [`Dialect::time`].
    ///
    /// Errors: another type; a text that is no RFC 3339 time; nanoseconds out of range.
    pub fn opt_time(&self, i: usize) -> Result<Option<Timestamp>, StoreError> {
        match self.get(i) {
            SqlValue::Null => Ok(None),
            SqlValue::Time(t) => Ok(Some(*t)),
            SqlValue::Int(ns) => Timestamp::from_nanosecond(i128::from(*ns))
                .map(Some)
                .map_err(|e| StoreError::new(format!("stored time of {ns} ns: {e}"))),
            SqlValue::Text(s) => {
                s.parse().map(Some).map_err(|e| StoreError::new(format!("stored timestamp {s:?}: {e}")))
            }
            _ => Err(self.wrong(i, "a time")),
        }
    }

    /// Column `i` as an instant.
    ///
    /// Errors: NULL, or as [`SqlRow::opt_time`].
    pub fn time(&self, i: usize) -> Result<Timestamp, StoreError> {
        self.opt_time(i)?.ok_or_else(|| self.wrong(i, "a time"))
    }

    /// Column `i` as the texts of [`Dialect::join_texts`] (none when NULL).
    ///
    /// Errors: another type.
    pub fn joined(&self, i: usize) -> Result<Vec<String>, StoreError> {
        Ok(self.opt_text(i)?.map(|s| s.split(TEXT_SEPARATOR).map(str::to_string).collect()).unwrap_or_default())
    }
}

/// Where the caller of a streamed query stops it: the callback's error ends the query and is
/// returned as it is.
pub type Each<'a, T> = &'a mut dyn FnMut(T) -> Result<(), StoreError>;

/// Streams `sql` and folds its consecutive rows with the same id (an integer in column 0, which the
/// statement sorts by) into one item: `start` makes it from its first row, `add` adds every row to
/// it (the first included), and `each` gets it once its last row has passed. Memory holds one item.
///
/// Errors: the store's; the first error of `start`, `add` or `each`.
pub(crate) fn fold_rows<T>(
    store: &mut dyn crate::Store,
    sql: &str,
    params: &[Param],
    start: &mut dyn FnMut(&SqlRow) -> Result<T, StoreError>,
    add: &mut dyn FnMut(&mut T, &SqlRow) -> Result<(), StoreError>,
    each: &mut dyn FnMut(T) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut current: Option<(i64, T)> = None;
    store.stream(sql, params, &mut |r: &SqlRow| {
        let id = r.int(0)?;
        if current.as_ref().is_some_and(|(at, _)| *at != id)
            && let Some((_, done)) = current.take()
        {
            each(done)?;
        }
        let item = match current.as_mut() {
            Some((_, item)) => item,
            None => &mut current.insert((id, start(r)?)).1,
        };
        add(item, r)
    })?;
    match current {
        Some((_, done)) => each(done),
        None => Ok(()),
    }
}

/// The nanoseconds since the epoch of an RFC 3339 time (SQLite's `wk_ns`; None for text that is
/// no time, which then sorts as NULL).
pub fn nanoseconds(text: &str) -> Option<i64> {
    let t: Timestamp = text.parse().ok()?;
    i64::try_from(t.as_nanosecond()).ok()
}
