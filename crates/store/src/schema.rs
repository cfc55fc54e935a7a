//! The schema (SQL shared in spirit by every backend: the PostgreSQL one would use `bigserial`,
//! `timestamptz` and `jsonb` for the same columns).
//!
//! Timestamps are RFC 3339 UTC text; JSON columns are text. Uniqueness constraints make every write
//! idempotent: a resumed scan re-applying a unit's records changes nothing. Evidence is
//! append-only: no statement of this crate updates or deletes an evidence row.

/// The schema version this crate writes (`PRAGMA user_version`). Version 2 added
/// `documents.not_attempted`; a version 1 store is upgraded in place when opened (`UPGRADES`).
/// The `leases` table came later without a new version: an older `wellknown` reads such a store as
/// it is (it ignores the table), and a version 2 store without it gets it when opened for writing
/// (readers take its absence as no lease).
pub const VERSION: i64 = 2;

/// The statements that bring a store of version `n - 1` to version `n`, for each `n` after 1.
pub const UPGRADES: &[(i64, &str)] =
    &[(2, "ALTER TABLE documents ADD COLUMN not_attempted INTEGER NOT NULL DEFAULT 0;")];

/// Every schema version with what it brought, in order: one row each in `schema_migrations` (the
/// PostgreSQL store numbers its versions the same way).
pub const MIGRATIONS: &[(i64, &str)] = &[(1, "the first tables"), (2, "documents.not_attempted")];

/// The table of applied migrations: version, name, and when this store applied it (null for a
/// version the store had before the table existed).
pub const CREATE_MIGRATIONS: &str =
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT)";

/// Creates every table and index of [`VERSION`].
pub const CREATE: &str = r#"
CREATE TABLE IF NOT EXISTS scans (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    plan        TEXT NOT NULL,
    summary     TEXT
);

CREATE TABLE IF NOT EXISTS units (
    scan_id     INTEGER NOT NULL REFERENCES scans(id),
    kind        TEXT NOT NULL,
    value       TEXT NOT NULL,
    depth       INTEGER NOT NULL,
    revealed_by TEXT,
    state       TEXT NOT NULL,
    in_scope    INTEGER NOT NULL,
    PRIMARY KEY (scan_id, kind, value)
);

CREATE TABLE IF NOT EXISTS documents (
    id              INTEGER PRIMARY KEY,
    scan_id         INTEGER NOT NULL REFERENCES scans(id),
    origin          TEXT NOT NULL,
    probe           TEXT NOT NULL,
    role            TEXT NOT NULL,
    hop             INTEGER NOT NULL,
    requested_url   TEXT NOT NULL,
    url             TEXT NOT NULL,
    status          INTEGER,
    redirect_chain  TEXT NOT NULL,
    content_type    TEXT,
    size            INTEGER NOT NULL,
    sha256          TEXT,
    truncated       INTEGER NOT NULL,
    fetched_at      TEXT NOT NULL,
    failure_class   TEXT,
    failure_message TEXT,
    kind            TEXT,
    valid           INTEGER,
    facts           TEXT NOT NULL,
    via             TEXT NOT NULL DEFAULT '',
    not_attempted   INTEGER NOT NULL DEFAULT 0,
    UNIQUE (scan_id, probe, requested_url, via)
);
CREATE INDEX IF NOT EXISTS documents_by_url ON documents (scan_id, probe, url);

CREATE TABLE IF NOT EXISTS diagnostics (
    id          INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents(id),
    severity    TEXT NOT NULL,
    code        TEXT NOT NULL,
    message     TEXT NOT NULL,
    locator     TEXT NOT NULL DEFAULT '',
    UNIQUE (document_id, code, locator, message)
);

CREATE TABLE IF NOT EXISTS nodes (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    value      TEXT NOT NULL,
    in_scope   INTEGER,
    first_seen TEXT NOT NULL,
    UNIQUE (kind, value)
);

CREATE TABLE IF NOT EXISTS relations (
    id         INTEGER PRIMARY KEY,
    source_id  INTEGER NOT NULL REFERENCES nodes(id),
    relation   TEXT NOT NULL,
    target_id  INTEGER NOT NULL REFERENCES nodes(id),
    first_seen TEXT NOT NULL,
    UNIQUE (source_id, relation, target_id)
);

CREATE TABLE IF NOT EXISTS evidence (
    id          INTEGER PRIMARY KEY,
    relation_id INTEGER NOT NULL REFERENCES relations(id),
    scan_id     INTEGER NOT NULL REFERENCES scans(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    probe       TEXT NOT NULL,
    fetched_at  TEXT NOT NULL,
    status      INTEGER,
    locator     TEXT NOT NULL DEFAULT '',
    hints       TEXT NOT NULL,
    flags       TEXT NOT NULL,
    UNIQUE (relation_id, scan_id, document_id, locator)
);

CREATE TABLE IF NOT EXISTS verifications (
    id              INTEGER PRIMARY KEY,
    node_id         INTEGER NOT NULL REFERENCES nodes(id),
    scan_id         INTEGER NOT NULL REFERENCES scans(id),
    status          TEXT NOT NULL,
    http_status     INTEGER,
    target          TEXT,
    method          TEXT,
    failure_class   TEXT,
    failure_message TEXT,
    source          TEXT NOT NULL,
    verified_at     TEXT NOT NULL,
    UNIQUE (node_id, scan_id)
);

CREATE TABLE IF NOT EXISTS leases (
    scan_id     INTEGER PRIMARY KEY REFERENCES scans(id),
    holder      TEXT NOT NULL,
    pid         INTEGER NOT NULL,
    host        TEXT NOT NULL,
    acquired_at TEXT NOT NULL,
    expires_at  TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS vhosts (
    id            INTEGER PRIMARY KEY,
    scan_id       INTEGER NOT NULL REFERENCES scans(id),
    host          TEXT NOT NULL,
    origin        TEXT NOT NULL,
    revealed_by   TEXT NOT NULL,
    address       TEXT NOT NULL,
    answers       INTEGER NOT NULL,
    status        INTEGER,
    failure_class TEXT,
    checked_at    TEXT NOT NULL,
    UNIQUE (scan_id, host, address)
);
"#;
