//! Writes a synthetic store of a given size for the query benchmark (`cargo xtask bench-query`):
//! `synthetic_store PATH EVIDENCE_ROWS`.
//!
//! Shape: 1,000 origins scanned 10 times; each origin's sitemap (one document per scan) lists
//! EVIDENCE_ROWS / 10,000 URLs, one evidence row per URL and scan; one URL in 10 is out of scope;
//! one in 13 is no longer listed in the last scan (withdrawn); one in 7 was verified `alive` in
//! the last scan. Rows are inserted with set-based SQL (the store's schema, written by
//! `SqliteStore::open`), not through the scan's writer, so a 10 M-row store takes a minute or two.

use std::path::PathBuf;

use wellknown_store::SqliteStore;

const ORIGINS: i64 = 1_000;
const SCANS: i64 = 10;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(rows)) = (args.next(), args.next()) else {
        return Err("usage: synthetic_store PATH EVIDENCE_ROWS".into());
    };
    let path = PathBuf::from(path);
    let rows: i64 = rows.parse()?;
    let urls = (rows / (ORIGINS * SCANS)).max(1);
    if path.exists() {
        return Err(format!("{} exists: give a new path", path.display()).into());
    }
    drop(SqliteStore::open(&path)?);
    let conn = rusqlite::Connection::open(&path)?;
    conn.pragma_update(None, "synchronous", "OFF")?;
    conn.pragma_update(None, "cache_size", -262_144)?;
    let sql = format!(
        "BEGIN;
        CREATE TEMP TABLE o AS WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < {ORIGINS}) SELECT x FROM s;
        CREATE TEMP TABLE sc AS WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < {SCANS}) SELECT x FROM s;
        CREATE TEMP TABLE u AS WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < {urls}) SELECT x FROM s;
        INSERT INTO scans (id, started_at, finished_at, plan, summary)
            SELECT x, strftime('%Y-%m-%dT%H:%M:%SZ', 1790000000 + x * 86400, 'unixepoch'),
                   strftime('%Y-%m-%dT%H:%M:%SZ', 1790000000 + x * 86400 + 600, 'unixepoch'), '{{}}', '{{}}' FROM sc;
        INSERT INTO documents (id, scan_id, origin, probe, role, hop, requested_url, url, status, redirect_chain,
                               content_type, size, sha256, truncated, fetched_at, kind, valid, facts, via)
            SELECT (sc.x - 1) * {ORIGINS} + o.x, sc.x, 'https://o' || o.x || '.example', 'sitemap', 'document', 0,
                   'https://o' || o.x || '.example/sitemap.xml', 'https://o' || o.x || '.example/sitemap.xml', 200,
                   '[]', 'application/xml', 1000, NULL, 0,
                   strftime('%Y-%m-%dT%H:%M:%SZ', 1790000000 + sc.x * 86400 + o.x % 600, 'unixepoch'),
                   'urlset', 1, '{{}}', ''
            FROM sc, o;
        INSERT INTO nodes (id, kind, value, in_scope, first_seen)
            SELECT o.x, 'document', 'https://o' || o.x || '.example/sitemap.xml', NULL, '2026-09-22T00:00:00Z' FROM o;
        INSERT INTO nodes (id, kind, value, in_scope, first_seen)
            SELECT {ORIGINS} + (o.x - 1) * {urls} + u.x, 'url', 'https://o' || o.x || '.example/p/' || u.x,
                   CASE WHEN u.x % 10 = 0 THEN 0 ELSE 1 END, '2026-09-22T00:00:00Z'
            FROM o, u;
        INSERT INTO relations (id, source_id, relation, target_id, first_seen)
            SELECT (o.x - 1) * {urls} + u.x, o.x, 'sitemap_url', {ORIGINS} + (o.x - 1) * {urls} + u.x, '2026-09-22T00:00:00Z'
            FROM o, u;
        INSERT INTO evidence (relation_id, scan_id, document_id, probe, fetched_at, status, locator, hints, flags)
            SELECT (o.x - 1) * {urls} + u.x, sc.x, (sc.x - 1) * {ORIGINS} + o.x, 'sitemap',
                   strftime('%Y-%m-%dT%H:%M:%SZ', 1790000000 + sc.x * 86400 + o.x % 600, 'unixepoch'), 200,
                   '{{\"xml_path\":\"/urlset/url[' || u.x || ']/loc\"}}', '{{}}', '[]'
            FROM o, u, sc WHERE NOT (sc.x = {SCANS} AND u.x % 13 = 0)
            ORDER BY 1, 2;
        INSERT INTO verifications (node_id, scan_id, status, http_status, method, source, verified_at)
            SELECT {ORIGINS} + (o.x - 1) * {urls} + u.x, {SCANS}, 'alive', 200, 'HEAD', 'request',
                   strftime('%Y-%m-%dT%H:%M:%SZ', 1790000000 + {SCANS} * 86400 + 900, 'unixepoch')
            FROM o, u WHERE u.x % 7 = 0;
        COMMIT;"
    );
    conn.execute_batch(&sql)?;
    let n: i64 = conn.query_row("SELECT COUNT(*) FROM evidence", [], |r| r.get(0))?;
    println!("{}: {n} evidence rows, {} URL nodes, {SCANS} scans", path.display(), ORIGINS * urls);
    Ok(())
}
