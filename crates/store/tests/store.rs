//! The SQLite store: the backend-neutral suite (`suite/mod.rs`), then what only a SQLite file has:
//! WAL durability settings, schema upgrades of an old file, read-only and checked opens.

mod suite;

use suite::{Backend, Database, ROBOTS, T1, T2, doc, first_scan, seed, t, verdict, writes};
use wellknown_core::{CandidateKind, Method, Severity};
use wellknown_records::{
    DiagnosticRecord, InventoryAction, InventoryRecord, Record, UnitKind, VerificationRecord, VerifySource,
    VerifyStatus,
};
use wellknown_store::{SqliteStore, Store, UnitState};

/// SQLite databases: a file in a temporary folder each (so two handles share it).
struct Sqlite;

struct SqliteFile(tempfile::TempDir);

impl Backend for Sqlite {
    fn create(&self) -> Box<dyn Database> {
        Box::new(SqliteFile(tempfile::tempdir().unwrap()))
    }
}

impl Database for SqliteFile {
    fn open(&self) -> Box<dyn Store> {
        Box::new(SqliteStore::open(&self.0.path().join("wellknown.db")).unwrap())
    }
}

suite::store_suite!(Some(Sqlite));

#[test]
fn a_file_store_is_in_wal_mode_and_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wellknown.db");
    {
        let mut s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.journal_mode().unwrap(), "wal");
        let id = s
            .begin_scan(t(T1), &serde_json::json!({"targets": ["https://a.example"]}), &[seed("https://a.example")])
            .unwrap();
        s.write(id, &writes(&first_scan())).unwrap();
    }
    let mut s = SqliteStore::open_existing(&path).unwrap();
    let scans = s.scans().unwrap();
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0].plan["targets"][0], "https://a.example");
    assert_eq!(scans[0].finished_at, None);
    let g = s.load().unwrap();
    assert_eq!(g.documents.len(), 2);
    assert_eq!(g.evidence.len(), 3);
    assert_eq!(g.verifications.len(), 2);
    assert!(
        SqliteStore::open_existing(&dir.path().join("missing.db"))
            .unwrap_err()
            .to_string()
            .contains("run `wellknown scan` first")
    );
}

#[test]
fn a_version_1_store_is_upgraded_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    {
        // A store as version 1 wrote it: no `documents.not_attempted`.
        let mut s = SqliteStore::open(&path).unwrap();
        let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
        s.write(id, &writes(&first_scan())).unwrap();
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(
            "ALTER TABLE documents DROP COLUMN not_attempted; DROP TABLE schema_migrations; PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let mut s = SqliteStore::open(&path).unwrap();
    let version: i64 =
        rusqlite::Connection::open(&path).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, wellknown_store::SCHEMA_VERSION);
    // The migrations table: version 1 was there before it (no time), version 2 applied now.
    let c = rusqlite::Connection::open(&path).unwrap();
    let mut stmt =
        c.prepare("SELECT version, name, applied_at IS NOT NULL FROM schema_migrations ORDER BY version").unwrap();
    let applied: Vec<(i64, String, bool)> =
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect();
    assert_eq!(applied, [(1, "the first tables".to_string(), false), (2, "documents.not_attempted".to_string(), true)]);
    let g = s.load().unwrap();
    assert_eq!(g.documents.len(), 2, "the version 1 rows are kept");
    assert!(g.documents.iter().all(|d| !d.not_attempted));
    // The upgraded store records documents that were not attempted.
    let Record::Document(mut d) = doc("https://a.example/.well-known/security.txt", "security.txt", None, T1) else {
        unreachable!()
    };
    d.not_attempted = true;
    let id = s.scans().unwrap()[0].id;
    s.write(id, &writes(&[Record::Document(d)])).unwrap();
    let g = s.load().unwrap();
    let skipped: Vec<&str> = g.documents.iter().filter(|d| d.not_attempted).map(|d| d.probe.as_str()).collect();
    assert_eq!(skipped, ["security.txt"]);
}

/// A read-only store answers and is left as it was: same bytes, no lease table needed.
#[test]
fn a_store_opened_read_only_is_read_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db");
    {
        let mut s = SqliteStore::open(&path).unwrap();
        let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
        s.write(id, &writes(&first_scan())).unwrap();
    }
    // As a store written before leases existed.
    rusqlite_drop_leases(&path);
    let before = std::fs::read(&path).unwrap();
    let mut s = SqliteStore::open_read_only(&path).unwrap();
    let g = s.load().unwrap();
    assert_eq!((g.scans.len(), g.documents.len(), g.evidence.len()), (1, 2, 3));
    assert_eq!(s.leases().unwrap(), []);
    assert!(s.begin_scan(t(T2), &serde_json::json!({}), &[]).is_err(), "read-only");
    drop(s);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let err = SqliteStore::open_read_only(&dir.path().join("missing.db")).unwrap_err().to_string();
    assert!(err.contains("missing.db") && err.contains("run `wellknown scan` first"), "{err}");
}

/// Drops the `leases` table with a plain connection (the store as an older wellknown left it).
fn rusqlite_drop_leases(path: &std::path::Path) {
    let s = SqliteStore::open(path).unwrap();
    drop(s);
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch("DROP TABLE leases;").unwrap();
}

#[test]
fn a_damaged_store_is_refused_by_the_checked_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db");
    {
        let mut s = SqliteStore::open(&path).unwrap();
        let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
        s.write(id, &writes(&first_scan())).unwrap();
    }
    assert!(wellknown_store::is_sqlite_database(&path));
    SqliteStore::open_checked(&path).unwrap();
    // Every page after the first (the schema) overwritten: the header still says SQLite.
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 8192, "{}", bytes.len());
    for b in &mut bytes[4096..] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();
    assert!(wellknown_store::is_sqlite_database(&path));
    let err = SqliteStore::open_checked(&path).unwrap_err().to_string();
    assert!(err.contains("damaged") || err.contains("malformed"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing written to it");
    assert!(!wellknown_store::is_sqlite_database(&dir.path().join("missing")));
}

/// The layering invariants (docs/ARCHITECTURE.md, "Layering invariants"): the store consumes the
/// records crate and links neither the engine nor tokio, so a reader of the graph or another backend
/// builds without a scan; the records and core link no runtime either. Asked of cargo itself
/// (offline, from the lock file), normal dependencies only.
#[test]
fn the_store_links_neither_the_engine_nor_tokio() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let tree = |package: &str| -> Vec<String> {
        let out = std::process::Command::new(&cargo)
            .args(["tree", "-p", package, "-e", "normal", "--prefix", "none", "--offline", "--locked"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(out.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect()
    };
    let store = tree("wellknown-store");
    assert!(store.iter().any(|c| c == "wellknown-records"), "{store:?}");
    for (package, crates) in [("wellknown-store", store), ("wellknown-records", tree("wellknown-records"))] {
        for banned in ["wellknown-engine", "wellknown-http", "tokio"] {
            assert!(!crates.iter().any(|c| c == banned), "{package} links {banned}: {crates:?}");
        }
    }
    let core = tree("wellknown-core");
    for banned in ["tokio", "hyper", "rusqlite"] {
        assert!(!core.iter().any(|c| c == banned), "wellknown-core links {banned}: {core:?}");
    }
}

/// The typed rows store the records' own names: the columns hold exactly the strings the JSON Lines
/// output has (`issuer`, `beyond_depth`, `warning`, `HEAD`, `none`, `disallowed_by_robots`), and
/// read back as the same values.
#[test]
fn stored_names_are_the_records_names() {
    use wellknown_core::{FailureClass, FetchFailure};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db");
    let mut s = SqliteStore::open(&path).unwrap();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    let diagnostic = Record::Diagnostic(DiagnosticRecord {
        document: ROBOTS.into(),
        probe: "robots".into(),
        severity: Severity::Warning,
        code: "w".into(),
        message: "m".into(),
        locator: None,
    });
    let revealed = Record::Inventory(InventoryRecord {
        unit: UnitKind::Issuer,
        value: "https://login.a.example/t".into(),
        depth: 2,
        revealed_by: "https://a.example".into(),
        candidate_kind: CandidateKind::Issuer,
        candidate_value: "https://login.a.example/t".into(),
        in_scope: true,
        action: InventoryAction::BeyondDepth,
    });
    let refused = Record::Verification(VerificationRecord {
        kind: CandidateKind::Endpoint,
        value: "https://a.example/private/x".into(),
        origin: "https://a.example".into(),
        status: VerifyStatus::DisallowedByRobots,
        http_status: None,
        target: None,
        method: None,
        failure: Some(FetchFailure { class: FailureClass::RobotsDisallowed, message: "m".into() }),
        source: VerifySource::NotRequested,
        verified_at: t(T1),
    });
    let head = verdict(CandidateKind::Url, "https://a.example/x", VerifyStatus::Alive, Some(200), T1);
    s.write(id, &writes(&[doc(ROBOTS, "robots", Some(200), T1), diagnostic, revealed, refused, head])).unwrap();

    let c = rusqlite::Connection::open(&path).unwrap();
    let one = |sql: &str| -> Vec<String> {
        let mut stmt = c.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| r.get::<_, Option<String>>(0)).unwrap();
        rows.map(|r| r.unwrap().unwrap_or_else(|| "NULL".into())).collect()
    };
    assert_eq!(one("SELECT severity FROM diagnostics"), ["warning"]);
    assert_eq!(one("SELECT kind || ' ' || state FROM units"), ["issuer beyond_depth"]);
    assert_eq!(
        one("SELECT status || ' ' || COALESCE(method, 'NULL') || ' ' || source FROM verifications ORDER BY id"),
        ["disallowed_by_robots NULL none", "alive HEAD request"]
    );
    assert_eq!(one("SELECT kind FROM nodes ORDER BY id"), ["endpoint", "url"]);

    let units = s.units(id).unwrap();
    assert_eq!((units[0].kind, units[0].state), (UnitKind::Issuer, UnitState::BeyondDepth));
    let g = s.load().unwrap();
    let v: Vec<_> = g.verifications.iter().map(|v| (v.row.kind, v.row.status, v.row.method, v.row.source)).collect();
    assert_eq!(
        v,
        [
            (CandidateKind::Endpoint, VerifyStatus::DisallowedByRobots, None, VerifySource::NotRequested),
            (CandidateKind::Url, VerifyStatus::Alive, Some(Method::Head), VerifySource::Request),
        ]
    );
}
