//! Fills an empty PostgreSQL store with a synthetic graph for the query benchmark (`cargo xtask
//! bench-query --postgres URL`): `synthetic_pg_store URL EVIDENCE_ROWS`. The same shape as the SQLite
//! store's example of the same name: 1,000 origins scanned 10 times; each origin's sitemap lists
//! EVIDENCE_ROWS / 10,000 URLs, one evidence row per URL and scan; one URL in 10 out of scope, one
//! in 13 withdrawn in the last scan, one in 7 verified `alive` in the last scan.

use wellknown_store::Store;
use wellknown_store_postgres::PostgresStore;

const ORIGINS: i64 = 1_000;
const SCANS: i64 = 10;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(url), Some(rows)) = (args.next(), args.next()) else {
        return Err("usage: synthetic_pg_store postgres://... EVIDENCE_ROWS".into());
    };
    let rows: i64 = rows.parse()?;
    let urls = (rows / (ORIGINS * SCANS)).max(1);
    let mut store = PostgresStore::connect(&url)?;
    if !store.scans()?.is_empty() {
        return Err("the database holds scans: give an empty one".into());
    }
    let day = |col: &str| format!("(timestamptz '2026-09-22 00:00:00+00' + {col} * interval '1 day')");
    let sql = format!(
        "BEGIN;
        INSERT INTO scans (id, started_at, finished_at, plan, summary)
            SELECT x, {d}, {d} + interval '10 minutes', '{{}}', '{{}}' FROM generate_series(1, {SCANS}) x;
        INSERT INTO documents (id, scan_id, origin, probe, role, hop, requested_url, url, status, redirect_chain,
                               content_type, size, sha256, truncated, fetched_at, kind, valid, facts, via)
            SELECT (s - 1) * {ORIGINS} + o, s, 'https://o' || o || '.example', 'sitemap', 'document', 0,
                   'https://o' || o || '.example/sitemap.xml', 'https://o' || o || '.example/sitemap.xml', 200,
                   '[]', 'application/xml', 1000, NULL, false, {ds} + (o % 600) * interval '1 second', 'urlset', true,
                   '{{}}', ''
            FROM generate_series(1, {SCANS}) s, generate_series(1, {ORIGINS}) o;
        INSERT INTO nodes (id, kind, value, in_scope, first_seen)
            SELECT o, 'document', 'https://o' || o || '.example/sitemap.xml', NULL, timestamptz '2026-09-22 00:00:00+00'
            FROM generate_series(1, {ORIGINS}) o;
        INSERT INTO nodes (id, kind, value, in_scope, first_seen)
            SELECT {ORIGINS} + (o - 1) * {urls} + u, 'url', 'https://o' || o || '.example/p/' || u, u % 10 <> 0,
                   timestamptz '2026-09-22 00:00:00+00'
            FROM generate_series(1, {ORIGINS}) o, generate_series(1, {urls}) u;
        INSERT INTO relations (id, source_id, relation, target_id, first_seen)
            SELECT (o - 1) * {urls} + u, o, 'sitemap_url', {ORIGINS} + (o - 1) * {urls} + u,
                   timestamptz '2026-09-22 00:00:00+00'
            FROM generate_series(1, {ORIGINS}) o, generate_series(1, {urls}) u;
        INSERT INTO evidence (relation_id, scan_id, document_id, probe, fetched_at, status, locator, hints, flags)
            SELECT (o - 1) * {urls} + u, s, (s - 1) * {ORIGINS} + o, 'sitemap',
                   {ds} + (o % 600) * interval '1 second', 200,
                   '{{\"xml_path\":\"/urlset/url[' || u || ']/loc\"}}', '{{}}', '[]'
            FROM generate_series(1, {ORIGINS}) o, generate_series(1, {urls}) u, generate_series(1, {SCANS}) s
            WHERE NOT (s = {SCANS} AND u % 13 = 0);
        INSERT INTO verifications (node_id, scan_id, status, http_status, method, source, verified_at)
            SELECT {ORIGINS} + (o - 1) * {urls} + u, {SCANS}, 'alive', 200, 'HEAD', 'request',
                   {dl} + interval '15 minutes'
            FROM generate_series(1, {ORIGINS}) o, generate_series(1, {urls}) u WHERE u % 7 = 0;
        COMMIT;
        ANALYZE;",
        d = day("x"),
        ds = day("s"),
        dl = day(&SCANS.to_string()),
    );
    store.client().batch_execute(&sql)?;
    let n: i64 = store.client().query_one("SELECT COUNT(*) FROM evidence", &[])?.get(0);
    println!("{n} evidence rows, {} URL nodes, {SCANS} scans", ORIGINS * urls);
    Ok(())
}
