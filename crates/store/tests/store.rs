//! The SQLite store: durability settings, idempotent writes, append-only evidence, resume state,
//! confidence over scans, diff, candidate lists and exports.

use std::collections::BTreeMap;

use url::Url;
use wellknown_core::{CandidateKind, Evidence, Locator, Method, Severity, Timestamp};
use wellknown_records::{
    CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, InventoryAction, InventoryRecord, OriginRecord,
    Record, UnitKind, VerificationRecord, VerifySource, VerifyStatus,
};
use wellknown_store::analysis::{CandidateQuery, candidates, diff};
use wellknown_store::confidence::{Declaration, score_all};
use wellknown_store::export::{Format, write};
use wellknown_store::ingest::writes_for;
use wellknown_store::{Acquired, Lease, SqliteStore, Store, UnitRow, UnitState, Write};

fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn doc(url: &str, probe: &str, status: Option<u16>, at: &str) -> Record {
    Record::Document(DocumentRecord {
        probe: probe.into(),
        role: "origin".into(),
        origin: "https://a.example".into(),
        hop: 0,
        requested_url: url.into(),
        url: url.into(),
        status,
        redirect_chain: Vec::new(),
        content_type: Some("text/plain".into()),
        size: 12,
        sha256: Some("ab".into()),
        truncated: false,
        fetched_at: t(at),
        failure: None,
        kind: status.filter(|s| *s == 200).map(|_| probe.to_string()),
        valid: Some(true),
        facts: serde_json::Map::new(),
        via: None,
        not_attempted: false,
        retry_after_secs: None,
        catch_all: false,
    })
}

fn evidence(doc_url: &str, probe: &str, at: &str, line: u32) -> Evidence {
    Evidence {
        document_url: Url::parse(doc_url).unwrap(),
        probe: probe.into(),
        fetched_at: t(at),
        status: Some(200),
        locator: Some(Locator::Line(line)),
    }
}

fn cand(kind: CandidateKind, value: &str, relation: &str, doc_url: &str, probe: &str, at: &str, line: u32) -> Record {
    Record::Candidate(CandidateRecord {
        kind,
        relation: relation.into(),
        value: value.into(),
        in_scope: Some(true),
        hints: BTreeMap::new(),
        flags: Vec::new(),
        evidence: evidence(doc_url, probe, at, line),
    })
}

fn verdict(kind: CandidateKind, value: &str, status: VerifyStatus, http: Option<u16>, at: &str) -> Record {
    Record::Verification(VerificationRecord {
        kind,
        value: value.into(),
        origin: "https://a.example".into(),
        status,
        http_status: http,
        target: None,
        method: Some(Method::Head),
        failure: None,
        source: VerifySource::Request,
        verified_at: t(at),
    })
}

fn done(unit: &str) -> Record {
    Record::Origin(OriginRecord {
        origin: unit.into(),
        unit: UnitKind::Origin,
        depth: 0,
        reachable: true,
        documents: 1,
        documents_elsewhere: 0,
        candidates: 1,
        verified: 0,
        verification_skipped: 0,
        budgets: Default::default(),
        failures: Vec::new(),
    })
}

fn writes(records: &[Record]) -> Vec<Write> {
    records.iter().flat_map(writes_for).collect()
}

fn seed(value: &str) -> UnitRow {
    UnitRow {
        kind: UnitKind::Origin,
        value: value.into(),
        depth: 0,
        revealed_by: None,
        state: UnitState::Pending,
        in_scope: true,
    }
}

const ROBOTS: &str = "https://a.example/robots.txt";
const SEC: &str = "https://a.example/.well-known/security.txt";
const T1: &str = "2026-11-01T00:00:00Z";
const T2: &str = "2026-11-02T00:00:00Z";

/// Scan 1: robots.txt lists a sitemap and a disallowed URL, security.txt a contact; verified.
fn first_scan() -> Vec<Record> {
    vec![
        doc(ROBOTS, "robots", Some(200), T1),
        cand(CandidateKind::Sitemap, "https://a.example/sitemap.xml", "robots_sitemap", ROBOTS, "robots", T1, 3),
        cand(CandidateKind::Url, "https://a.example/admin/", "robots_disallow", ROBOTS, "robots", T1, 2),
        doc(SEC, "security.txt", Some(200), T1),
        cand(CandidateKind::Contact, "mailto:sec@a.example", "contact", SEC, "security.txt", T1, 1),
        Record::Diagnostic(DiagnosticRecord {
            document: SEC.into(),
            probe: "security.txt".into(),
            severity: Severity::Warning,
            code: "not_signed".into(),
            message: "not signed".into(),
            locator: None,
        }),
        verdict(CandidateKind::Sitemap, "https://a.example/sitemap.xml", VerifyStatus::Alive, Some(200), T1),
        verdict(CandidateKind::Url, "https://a.example/admin/", VerifyStatus::AuthRequired, Some(403), T1),
        done("https://a.example"),
    ]
}

/// Scan 2: robots.txt no longer lists the sitemap; security.txt is gone (404).
fn second_scan() -> Vec<Record> {
    vec![
        doc(ROBOTS, "robots", Some(200), T2),
        cand(CandidateKind::Url, "https://a.example/admin/", "robots_disallow", ROBOTS, "robots", T2, 2),
        doc(SEC, "security.txt", Some(404), T2),
        verdict(CandidateKind::Url, "https://a.example/admin/", VerifyStatus::AuthRequired, Some(403), T2),
        done("https://a.example"),
    ]
}

fn count(path: &std::path::Path) -> (usize, usize, usize, usize) {
    let g = SqliteStore::open_existing(path).unwrap().load().unwrap();
    (g.documents.len(), g.nodes.len(), g.relations.len(), g.evidence.len())
}

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
fn writes_are_idempotent_so_a_resumed_unit_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db");
    let mut s = SqliteStore::open(&path).unwrap();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    let before = count(&path);
    s.write(id, &writes(&first_scan())).unwrap();
    assert_eq!(count(&path), before);
    assert_eq!(before, (2, 5, 3, 3), "documents, nodes (2 documents + 3 values), relations, evidence");
}

#[test]
fn unit_states_drive_resume() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let id =
        s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example"), seed("https://b.example")]).unwrap();
    let revealed = Record::Inventory(InventoryRecord {
        unit: UnitKind::Origin,
        value: "https://api.a.example".into(),
        depth: 1,
        revealed_by: "https://a.example".into(),
        candidate_kind: CandidateKind::Endpoint,
        candidate_value: "https://api.a.example/token".into(),
        in_scope: true,
        action: InventoryAction::Queued,
    });
    s.write(id, &writes(&[revealed, done("https://a.example")])).unwrap();
    assert_eq!(s.last_unfinished_scan().unwrap().map(|r| r.id), Some(id));
    let units = s.units(id).unwrap();
    let state = |v: &str| units.iter().find(|u| u.value == v).map(|u| (u.state, u.depth, u.revealed_by.clone()));
    assert_eq!(state("https://a.example"), Some((UnitState::Done, 0, None)));
    assert_eq!(state("https://b.example"), Some((UnitState::Pending, 0, None)));
    assert_eq!(state("https://api.a.example"), Some((UnitState::Pending, 1, Some("https://a.example".into()))));
    // A done unit stays done even if a later write says pending.
    s.write(id, &[Write::Unit(seed("https://a.example"))]).unwrap();
    assert_eq!(s.units(id).unwrap()[0].state, UnitState::Done);
    s.finish_scan(id, t(T2), &serde_json::json!({"targets": 2})).unwrap();
    assert_eq!(s.last_unfinished_scan().unwrap(), None);
}

#[test]
fn a_batch_is_all_or_nothing() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    // Evidence naming a document the scan never recorded: refused, and the document before it in
    // the same batch is rolled back too.
    let batch = writes(&[
        doc(ROBOTS, "robots", Some(200), T1),
        cand(CandidateKind::Url, "https://a.example/x", "robots_disallow", SEC, "security.txt", T1, 1),
    ]);
    let err = s.write(id, &batch).unwrap_err();
    assert!(err.to_string().contains("has not recorded"), "{err}");
    assert!(s.load().unwrap().documents.is_empty());
}

#[test]
fn history_lowers_confidence_keeps_evidence_and_diffs() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let one = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(one, &writes(&first_scan())).unwrap();
    s.finish_scan(one, t(T1), &serde_json::json!({})).unwrap();
    let g1 = s.load().unwrap();
    let now = t("2026-11-03T00:00:00Z");
    let rel_score = |g: &wellknown_store::GraphData, value: &str| {
        let node = g.nodes.iter().find(|n| n.value == value).unwrap().id;
        let rel = g.relations.iter().find(|r| r.target == node).unwrap().id;
        score_all(g, now).remove(&rel).unwrap()
    };
    let sitemap1 = rel_score(&g1, "https://a.example/sitemap.xml");
    let contact1 = rel_score(&g1, "mailto:sec@a.example");
    assert_eq!((sitemap1.state, contact1.state), (Declaration::Listed, Declaration::Listed));

    let two = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(two, &writes(&second_scan())).unwrap();
    s.finish_scan(two, t(T2), &serde_json::json!({})).unwrap();
    let g2 = s.load().unwrap();
    let sitemap2 = rel_score(&g2, "https://a.example/sitemap.xml");
    let contact2 = rel_score(&g2, "mailto:sec@a.example");
    let admin2 = rel_score(&g2, "https://a.example/admin/");
    assert_eq!(sitemap2.state, Declaration::Withdrawn, "robots.txt answered without the Sitemap line");
    assert_eq!(contact2.state, Declaration::Unanswered, "security.txt answered 404");
    assert!(sitemap2.confidence < sitemap1.confidence, "{} < {}", sitemap2.confidence, sitemap1.confidence);
    assert!(contact2.confidence < contact1.confidence);
    assert_eq!((admin2.state, admin2.scans.clone()), (Declaration::Listed, vec![one, two]));
    // The first scan's evidence is all still there, with its dates.
    let first_evidence: Vec<_> = g2.evidence.iter().filter(|e| e.scan == one).collect();
    assert_eq!(first_evidence.len(), 3);
    assert!(first_evidence.iter().all(|e| e.fetched_at == t(T1)));

    let changes = diff(&g2, one, two).unwrap();
    let text: Vec<String> = changes.iter().map(|c| c.text()).collect();
    assert!(
        text.contains(&"~ document security.txt https://a.example/.well-known/security.txt: 200 -> 404".to_string()),
        "{text:#?}"
    );
    assert!(
        text.contains(&"- relation sitemap https://a.example/sitemap.xml (robots_sitemap in https://a.example/robots.txt) [withdrawn]".to_string()),
        "{text:#?}"
    );
    assert!(
        text.contains(&"- relation contact mailto:sec@a.example (contact in https://a.example/.well-known/security.txt) [unanswered]".to_string()),
        "{text:#?}"
    );
    assert_eq!(changes.len(), 3, "{text:#?}");
    assert!(diff(&g2, one, 99).is_err());
}

#[test]
fn a_withdrawn_relation_stays_withdrawn_when_its_document_then_fails() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let one = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(one, &writes(&first_scan())).unwrap();
    let two = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(two, &writes(&second_scan())).unwrap();
    // Scan 3: robots.txt does not answer (connection refused).
    let t3 = "2026-11-03T00:00:00Z";
    let three = s.begin_scan(t(t3), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(three, &writes(&[doc(ROBOTS, "robots", None, t3), done("https://a.example")])).unwrap();
    let now = t("2026-11-03T00:00:00Z");
    let score_of = |g: &wellknown_store::GraphData, value: &str| {
        let node = g.nodes.iter().find(|n| n.value == value).unwrap().id;
        let rel = g.relations.iter().find(|r| r.target == node).unwrap().id;
        score_all(g, now).remove(&rel).unwrap()
    };
    let g = s.load().unwrap();
    let sitemap = score_of(&g, "https://a.example/sitemap.xml");
    // Withdrawn in scan 2 (0.15 decayed by two days, + 0.3 for its `alive` verdict); the outage of
    // scan 3 does not make it `unanswered` (0.25), which would raise it.
    assert_eq!(sitemap.state, Declaration::Withdrawn);
    assert_eq!(sitemap.confidence, 0.449);
    // A relation listed in scan 2 whose document then failed is unanswered: 0.25 decayed by a
    // day + 0.25 for `auth_required`.
    let admin = score_of(&g, "https://a.example/admin/");
    assert_eq!((admin.state, admin.confidence), (Declaration::Unanswered, 0.499));
    // A later fetch that answered 200 but was cut at the size cap or was not the expected document
    // (a soft-404 page: kind `invalid`) says nothing of what the document declares: the relation
    // listed in scan 2 stays `unanswered`, it is not withdrawn.
    let t35 = "2026-11-03T12:00:00Z";
    let mut cut = doc(ROBOTS, "robots", Some(200), t35);
    let mut soft = doc(SEC, "security.txt", Some(200), t35);
    if let (Record::Document(c), Record::Document(sp)) = (&mut cut, &mut soft) {
        c.truncated = true;
        sp.kind = Some("invalid".into());
    }
    let later = s.begin_scan(t(t35), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(later, &writes(&[cut, soft, done("https://a.example")])).unwrap();
    let g = s.load().unwrap();
    assert_eq!(score_of(&g, "https://a.example/admin/").state, Declaration::Unanswered);
    assert_eq!(score_of(&g, "mailto:sec@a.example").state, Declaration::Unanswered);
    assert_eq!(score_of(&g, "https://a.example/sitemap.xml").state, Declaration::Withdrawn);
    // Listed again in scan 4: listed.
    let t4 = "2026-11-04T00:00:00Z";
    let four = s.begin_scan(t(t4), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let sitemap_again =
        cand(CandidateKind::Sitemap, "https://a.example/sitemap.xml", "robots_sitemap", ROBOTS, "robots", t4, 3);
    s.write(four, &writes(&[doc(ROBOTS, "robots", Some(200), t4), sitemap_again])).unwrap();
    let g = s.load().unwrap();
    assert_eq!(score_of(&g, "https://a.example/sitemap.xml").state, Declaration::Listed);
}

#[test]
fn candidate_lists_filter_by_kind_scope_and_status() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    let mut records = first_scan();
    records.push(Record::Evidence(EvidenceRecord {
        kind: CandidateKind::Url,
        relation: "contact".into(),
        value: "https://a.example/admin/".into(),
        hints: [("note".to_string(), "second sighting".to_string())].into(),
        flags: vec!["outside_group".into()],
        evidence: evidence(SEC, "security.txt", T1, 4),
    }));
    s.write(id, &writes(&records)).unwrap();
    let g = s.load().unwrap();
    // A further sighting keeps its own hints and flags.
    let row = g.evidence.iter().find(|e| e.hints.contains("second sighting")).expect("the evidence row");
    assert_eq!((row.hints.as_str(), row.flags.as_str()), (r#"{"note":"second sighting"}"#, r#"["outside_group"]"#));
    let now = t(T2);
    let all = candidates(&g, &CandidateQuery::default(), now);
    let values: Vec<(&str, &str)> = all.iter().map(|c| (c.kind.as_str(), c.value.as_str())).collect();
    assert_eq!(
        values,
        [
            ("contact", "mailto:sec@a.example"),
            ("sitemap", "https://a.example/sitemap.xml"),
            ("url", "https://a.example/admin/"),
        ]
    );
    let admin = &all[2];
    assert_eq!(admin.status, "auth_required");
    assert_eq!(admin.http_status, Some(403));
    assert_eq!(admin.documents, [SEC, ROBOTS]);
    assert_eq!(admin.relations, ["contact", "robots_disallow"]);
    // The flags of the latest sightings are listed (the further sighting at the same fetch).
    assert_eq!(admin.flags, ["outside_group"]);
    assert!(all[0].flags.is_empty());
    assert_eq!(all[0].status, "unverified");
    let alive = candidates(&g, &CandidateQuery { status: Some("alive".into()), ..Default::default() }, now);
    assert_eq!(alive.len(), 1);
    assert_eq!(alive[0].value, "https://a.example/sitemap.xml");
    let urls =
        candidates(&g, &CandidateQuery { kind: Some("url".into()), in_scope_only: true, ..Default::default() }, now);
    assert_eq!(urls.len(), 1);
}

#[test]
fn exports_name_nodes_and_carry_evidence() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    let g = s.load().unwrap();
    let render = |f| {
        let mut buf = Vec::new();
        write(&g, f, t(T1), &mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    };
    let jsonl = render(Format::Jsonl);
    let lines: Vec<serde_json::Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.iter().filter(|l| l["type"] == "scan").count(), 1);
    assert_eq!(lines.iter().filter(|l| l["type"] == "node").count(), 5);
    let rel =
        lines.iter().find(|l| l["type"] == "relation" && l["relation"] == "robots_sitemap").expect("sitemap relation");
    assert_eq!(rel["source"]["kind"], "document");
    assert_eq!(rel["source"]["value"], ROBOTS);
    assert_eq!(rel["target"]["value"], "https://a.example/sitemap.xml");
    assert_eq!(rel["evidence"][0]["locator"]["line"], 3);
    assert_eq!(rel["evidence"][0]["document_url"], ROBOTS);
    assert_eq!(rel["state"], "listed");
    assert_eq!(rel["confidence"], 0.8);
    let dot = render(Format::Dot);
    assert!(dot.starts_with("digraph wellknown {"));
    assert!(dot.contains("robots_sitemap 0.80"));
    let graphml = render(Format::GraphMl);
    assert!(graphml.contains(r#"<key id="relation" for="edge""#));
    assert_eq!(graphml.matches("<node ").count(), 5);
    assert_eq!(graphml.matches("<edge ").count(), 3);
}

#[test]
fn out_of_scope_values_have_that_status_without_a_verdict() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    let mut outside =
        cand(CandidateKind::Sitemap, "https://other.example/s.xml", "robots_sitemap", ROBOTS, "robots", T1, 9);
    if let Record::Candidate(c) = &mut outside {
        c.in_scope = Some(false);
    }
    s.write(id, &writes(&[doc(ROBOTS, "robots", Some(200), T1), outside])).unwrap();
    let g = s.load().unwrap();
    let rows = candidates(&g, &CandidateQuery { status: Some("out_of_scope".into()), ..Default::default() }, t(T1));
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].value.as_str(), rows[0].in_scope), ("https://other.example/s.xml", Some(false)));
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
        c.execute_batch("ALTER TABLE documents DROP COLUMN not_attempted; PRAGMA user_version = 1;").unwrap();
    }
    let mut s = SqliteStore::open(&path).unwrap();
    let version: i64 =
        rusqlite::Connection::open(&path).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, wellknown_store::SCHEMA_VERSION);
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

#[test]
fn candidate_flags_are_those_of_the_latest_sighting() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let contact = |at: &str, flags: Vec<String>| {
        Record::Candidate(CandidateRecord {
            kind: CandidateKind::Contact,
            relation: "contact".into(),
            value: "mailto:evil@a.example".into(),
            in_scope: None,
            hints: BTreeMap::new(),
            flags,
            evidence: evidence(SEC, "security.txt", at, 2),
        })
    };
    // Scan 1: the security.txt signature fails, so its candidate is flagged.
    let one = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    s.write(one, &writes(&[doc(SEC, "security.txt", Some(200), T1), contact(T1, vec!["signature_failed".into()])]))
        .unwrap();
    let g = s.load().unwrap();
    let rows = candidates(&g, &CandidateQuery { kind: Some("contact".into()), ..Default::default() }, t(T2));
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].value.as_str(), rows[0].flags.clone()),
        ("mailto:evil@a.example", vec!["signature_failed".into()])
    );
    let line = serde_json::to_value(&rows[0]).unwrap();
    assert_eq!(line["flags"], serde_json::json!(["signature_failed"]));
    // Scan 2: the file verifies again; the latest sighting has no flag, so the value has none.
    let two = s.begin_scan(t(T2), &serde_json::json!({}), &[]).unwrap();
    s.write(two, &writes(&[doc(SEC, "security.txt", Some(200), T2), contact(T2, Vec::new())])).unwrap();
    let g = s.load().unwrap();
    let rows = candidates(&g, &CandidateQuery { kind: Some("contact".into()), ..Default::default() }, t(T2));
    assert_eq!(rows[0].flags, Vec::<String>::new());
}

#[test]
fn the_unfinished_scan_to_resume_is_the_most_recent_unfinished_one_whatever_finished_after_it() {
    let mut s = SqliteStore::open_in_memory().unwrap();
    let killed = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let later = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.finish_scan(later, t(T2), &serde_json::json!({})).unwrap();
    assert_eq!(s.last_unfinished_scan().unwrap().map(|r| r.id), Some(killed));
    s.finish_scan(killed, t(T2), &serde_json::json!({})).unwrap();
    assert_eq!(s.last_unfinished_scan().unwrap(), None);
}

fn lease(holder: &str, pid: u32, expires: &str) -> Lease {
    Lease { holder: holder.into(), pid, host: "h".into(), acquired_at: t(T1), expires_at: t(expires) }
}

#[test]
fn a_scan_is_leased_to_one_holder_until_it_expires_or_its_holder_is_dead() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.db");
    let mut a = SqliteStore::open(&path).unwrap();
    let mut b = SqliteStore::open(&path).unwrap();
    let first = lease("a", 1, T2);
    let scan = a.begin_scan_with_lease(t(T1), &serde_json::json!({}), &[seed("https://a.example")], &first).unwrap();
    assert_eq!(b.leases().unwrap(), [(scan, first.clone())]);
    let alive = |_: &Lease| false;
    // Live (expires at T2, now T1) and not known dead: refused, with the holder.
    assert_eq!(b.acquire_lease(scan, &lease("b", 2, T2), t(T1), &alive).unwrap(), Acquired::Refused(first.clone()));
    // Its own holder takes it again (and moves it on).
    assert_eq!(a.acquire_lease(scan, &lease("a", 1, T2), t(T1), &alive).unwrap(), Acquired::Held);
    assert!(a.renew_lease(scan, "a", t("2026-06-01T00:00:00Z")).unwrap());
    // Known dead: taken at once.
    let dead = |l: &Lease| l.pid == 1;
    assert_eq!(b.acquire_lease(scan, &lease("b", 2, T2), t(T1), &dead).unwrap(), Acquired::Held);
    assert!(!a.renew_lease(scan, "a", t(T2)).unwrap(), "a lost it");
    a.release_lease(scan, "a").unwrap();
    assert_eq!(a.lease(scan).unwrap().map(|l| l.holder), Some("b".into()), "a's release leaves b's lease");
    // Expired: taken although its holder looks alive.
    assert_eq!(a.acquire_lease(scan, &lease("a", 1, T2), t(T2), &alive).unwrap(), Acquired::Held);
    a.release_lease(scan, "a").unwrap();
    assert_eq!(b.leases().unwrap(), []);
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
