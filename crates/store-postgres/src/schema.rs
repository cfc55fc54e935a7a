//! The PostgreSQL schema and its versioned migrations.
//!
//! Same tables, columns and unique keys as the SQLite store (`wellknown_store`'s `schema.rs`), in
//! PostgreSQL's types: `bigserial` ids, `timestamptz` times (microseconds), `boolean` flags, `json`
//! for the JSON columns (`json`, not `jsonb`: it keeps the text as written, so hints and facts read
//! back byte for byte as SQLite returns them; queries may still cast to `jsonb`). Long text keys
//! (URLs, node values, locators, messages) are unique through `md5()` expression indexes: a B-tree
//! entry holds at most about 2.7 kB, and a sitemap URL may be longer.
//!
//! Schema versions are numbered as the SQLite store's (`wellknown_store::SCHEMA_VERSION`): a
//! PostgreSQL database starts at version 2, the tables of SQLite's version 2; version 3 adds what
//! only a shared database has (the groups of units that workers lease, [`crate::work`]). The table
//! `schema_migrations` holds one row per migration applied (version, name, time); migrations run in
//! one transaction under an advisory lock, so workers started together migrate once.

/// One migration: the version it brings the database to, its name, its SQL.
pub struct Migration {
    /// Version after it.
    pub version: i64,
    /// What it does.
    pub name: &'static str,
    /// Statements.
    pub sql: &'static str,
}

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration { version: 2, name: "the tables of schema version 2", sql: CREATE_V2 },
    Migration { version: 3, name: "shared scans: unit groups and their leases", sql: SHARED_V3 },
    Migration { version: 4, name: "open unit groups: leases find work without reading finished groups", sql: OPEN_V4 },
    Migration { version: 5, name: "unit groups leave room on their pages for leases", sql: ROOM_V5 },
];

/// The version the last migration brings a database to.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// The advisory lock key migrations hold (`pg_advisory_xact_lock`): "wkmigr" in ASCII.
pub const MIGRATION_LOCK: i64 = 0x776b_6d69_6772;

/// Creates the migrations table (the only DDL run before taking the lock; idempotent).
pub const CREATE_MIGRATIONS: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version    bigint PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)";

const CREATE_V2: &str = r#"
CREATE TABLE scans (
    id          bigserial PRIMARY KEY,
    started_at  timestamptz NOT NULL,
    finished_at timestamptz,
    plan        json NOT NULL,
    summary     json
);

CREATE TABLE units (
    id          bigserial UNIQUE,
    scan_id     bigint NOT NULL REFERENCES scans(id),
    kind        text NOT NULL,
    value       text NOT NULL,
    depth       integer NOT NULL,
    revealed_by text,
    state       text NOT NULL,
    in_scope    boolean NOT NULL,
    PRIMARY KEY (scan_id, kind, value)
);

CREATE TABLE documents (
    id              bigserial PRIMARY KEY,
    scan_id         bigint NOT NULL REFERENCES scans(id),
    origin          text NOT NULL,
    probe           text NOT NULL,
    role            text NOT NULL,
    hop             integer NOT NULL,
    requested_url   text NOT NULL,
    url             text NOT NULL,
    status          integer,
    redirect_chain  json NOT NULL,
    content_type    text,
    size            bigint NOT NULL,
    sha256          text,
    truncated       boolean NOT NULL,
    fetched_at      timestamptz NOT NULL,
    failure_class   text,
    failure_message text,
    kind            text,
    valid           boolean,
    facts           json NOT NULL,
    via             text NOT NULL DEFAULT '',
    not_attempted   boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX documents_key ON documents (scan_id, probe, md5(requested_url), via);
CREATE INDEX documents_by_url ON documents (scan_id, probe, md5(url));

CREATE TABLE diagnostics (
    id          bigserial PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES documents(id),
    severity    text NOT NULL,
    code        text NOT NULL,
    message     text NOT NULL,
    locator     text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX diagnostics_key ON diagnostics (document_id, code, md5(locator), md5(message));

CREATE TABLE nodes (
    id         bigserial PRIMARY KEY,
    kind       text NOT NULL,
    value      text NOT NULL,
    in_scope   boolean,
    first_seen timestamptz NOT NULL
);
CREATE UNIQUE INDEX nodes_key ON nodes (kind, md5(value));

CREATE TABLE relations (
    id         bigserial PRIMARY KEY,
    source_id  bigint NOT NULL REFERENCES nodes(id),
    relation   text NOT NULL,
    target_id  bigint NOT NULL REFERENCES nodes(id),
    first_seen timestamptz NOT NULL,
    UNIQUE (source_id, relation, target_id)
);
CREATE INDEX relations_by_target ON relations (target_id);

CREATE TABLE evidence (
    id          bigserial PRIMARY KEY,
    relation_id bigint NOT NULL REFERENCES relations(id),
    scan_id     bigint NOT NULL REFERENCES scans(id),
    document_id bigint NOT NULL REFERENCES documents(id),
    probe       text NOT NULL,
    fetched_at  timestamptz NOT NULL,
    status      integer,
    locator     text NOT NULL DEFAULT '',
    hints       json NOT NULL,
    flags       json NOT NULL
);
CREATE UNIQUE INDEX evidence_key ON evidence (relation_id, scan_id, document_id, md5(locator));

CREATE TABLE verifications (
    id              bigserial PRIMARY KEY,
    node_id         bigint NOT NULL REFERENCES nodes(id),
    scan_id         bigint NOT NULL REFERENCES scans(id),
    status          text NOT NULL,
    http_status     integer,
    target          text,
    method          text,
    failure_class   text,
    failure_message text,
    source          text NOT NULL,
    verified_at     timestamptz NOT NULL,
    UNIQUE (node_id, scan_id)
);

CREATE TABLE leases (
    scan_id     bigint PRIMARY KEY REFERENCES scans(id),
    holder      text NOT NULL,
    pid         bigint NOT NULL,
    host        text NOT NULL,
    acquired_at timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL
);

CREATE TABLE vhosts (
    id            bigserial PRIMARY KEY,
    scan_id       bigint NOT NULL REFERENCES scans(id),
    host          text NOT NULL,
    origin        text NOT NULL,
    revealed_by   text NOT NULL,
    address       text NOT NULL,
    answers       boolean NOT NULL,
    status        integer,
    failure_class text,
    checked_at    timestamptz NOT NULL,
    UNIQUE (scan_id, host, address)
);
"#;

/// Shared scans: each unit belongs to a group (`units.grp`: the registrable domain of its host, or
/// the host itself when it has none; [`crate::work::group_of`]), and a worker leases a whole group
/// (`unit_groups`), so no two workers ask one host at once. `units.done_at` times completions (the
/// rate `wellknown scans` shows). Units stored before this version are each a group of their own.
const SHARED_V3: &str = r#"
ALTER TABLE units ADD COLUMN grp text;
ALTER TABLE units ADD COLUMN done_at timestamptz;
UPDATE units SET grp = kind || ' ' || value WHERE grp IS NULL;
ALTER TABLE units ALTER COLUMN grp SET NOT NULL;
CREATE INDEX units_pending_by_group ON units (scan_id, grp) WHERE state = 'pending';
CREATE TABLE unit_groups (
    id            bigserial UNIQUE,
    scan_id       bigint NOT NULL REFERENCES scans(id),
    grp           text NOT NULL,
    leased_by     text,
    leased_at     timestamptz,
    lease_expires timestamptz,
    attempts      integer NOT NULL DEFAULT 0,
    PRIMARY KEY (scan_id, grp)
);
INSERT INTO unit_groups (scan_id, grp) SELECT DISTINCT scan_id, grp FROM units ON CONFLICT DO NOTHING;
"#;

/// Version 4: `unit_groups.open`, true while a group may hold pending units (false once a release
/// found none; set again, under the group's row lock, by any write that adds a pending unit to it),
/// and a partial index of the open groups, so a lease reads the groups with work left, not every
/// group of the scan (without it, leasing cost grew with the groups already done: 119 units/s for
/// 5,000 units and 32 workers).
const OPEN_V4: &str = r#"
ALTER TABLE unit_groups ADD COLUMN open boolean NOT NULL DEFAULT true;
UPDATE unit_groups g SET open = EXISTS (
    SELECT 1 FROM units u WHERE u.scan_id = g.scan_id AND u.grp = g.grp AND u.state = 'pending');
CREATE INDEX unit_groups_open ON unit_groups (scan_id, id) WHERE open;
"#;

/// Version 5: `unit_groups` pages are filled to half, so that a lease and its renewals (which change
/// no indexed column) update a group's row in place (a heap-only tuple: no new index entries, no
/// dead ones for the next lease to step over); 40 % of the group updates of a `lease_rate` run were
/// heap-only, against 22 % at the default fill. Pages written before keep their fill.
const ROOM_V5: &str = r#"
ALTER TABLE unit_groups SET (fillfactor = 50);
"#;

/// The grants of the worker role of `docs/store.md` ("Least privilege") on a database at the latest
/// version: it may read, insert and update the scan tables and use their sequences, and delete
/// lease rows (a scan's lease is released by deleting it); it may not alter the schema nor delete
/// any data. Run by the schema's owner; `role` must exist.
pub fn worker_grants(role: &str) -> String {
    WORKER_GRANTS.replace("{role}", &quote_ident(role))
}

/// The grants of the read-only analyst role of `docs/store.md`: `SELECT` on every table, nothing else.
pub fn analyst_grants(role: &str) -> String {
    ANALYST_GRANTS.replace("{role}", &quote_ident(role))
}

const WORKER_GRANTS: &str = "
GRANT USAGE ON SCHEMA public TO {role};
GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role};
GRANT INSERT, UPDATE ON scans, units, unit_groups, documents, diagnostics, nodes, relations, evidence, verifications, vhosts, leases TO {role};
GRANT DELETE ON leases TO {role};
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role};
";

const ANALYST_GRANTS: &str = "
GRANT USAGE ON SCHEMA public TO {role};
GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role};
";

/// `name` as a quoted SQL identifier.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
