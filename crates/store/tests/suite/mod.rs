//! The store test suite every backend runs unchanged: idempotent writes, append-only evidence,
//! resume state, leases, confidence over scans, diff, candidate lists and exports. A backend's test
//! binary includes this module and names its [`Backend`] in [`store_suite!`]
//! (`crates/store/tests/store.rs` for SQLite, `crates/store-postgres/tests/it/suite.rs` for
//! PostgreSQL).

use std::collections::BTreeMap;

use url::Url;
use wellknown_core::{CandidateKind, Evidence, Locator, Method, Severity, Timestamp};
use wellknown_records::{
    CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, InventoryAction, InventoryRecord, OriginRecord,
    Record, UnitKind, VerificationRecord, VerifySource, VerifyStatus,
};
use wellknown_store::analysis::{CandidateQuery, CandidateRow, Change};
use wellknown_store::confidence::{Declaration, Scored};
use wellknown_store::export::{Format, write};
use wellknown_store::ingest::writes_for;
use wellknown_store::query::graph::GraphFilter;
use wellknown_store::{Acquired, Lease, Store, UnitRow, UnitState, Write};

/// A backend under test: makes empty databases.
pub trait Backend {
    /// A new, empty database (dropped with the value).
    fn create(&self) -> Box<dyn Database>;
}

/// One database of a backend: every `open` is another handle (connection) on it.
pub trait Database {
    /// A new handle on this database.
    fn open(&self) -> Box<dyn Store>;
}

/// One `#[test]` per test of the suite, each given `$backend`: an expression of type
/// `Option<impl Backend>`, `None` when the backend is not available here (the expression has said
/// why and how to make it available; the test then passes without running).
macro_rules! store_suite {
    ($backend:expr) => {
        $crate::suite::store_suite!(@tests $backend;
            writes_are_idempotent_so_a_resumed_unit_adds_nothing,
            unit_states_drive_resume,
            a_batch_is_all_or_nothing,
            a_batch_equals_its_writes_applied_one_by_one,
            history_lowers_confidence_keeps_evidence_and_diffs,
            a_withdrawn_relation_stays_withdrawn_when_its_document_then_fails,
            candidate_lists_filter_by_kind_scope_and_status,
            exports_name_nodes_and_carry_evidence,
            graph_filters_select_relations_and_their_two_ends,
            out_of_scope_values_have_that_status_without_a_verdict,
            candidate_flags_are_those_of_the_latest_sighting,
            the_unfinished_scan_to_resume_is_the_most_recent_unfinished_one_whatever_finished_after_it,
            a_scan_is_leased_to_one_holder_until_it_expires_or_its_holder_is_dead,
            a_second_handle_sees_what_the_first_committed,
        );
    };
    (@tests $backend:expr; $($name:ident,)*) => {
        $(
            #[test]
            fn $name() {
                if let Some(backend) = $backend {
                    suite::$name(&backend);
                }
            }
        )*
    };
}
pub(crate) use store_suite;

pub fn t(s: &str) -> Timestamp {
    s.parse().unwrap()
}

pub fn doc(url: &str, probe: &str, status: Option<u16>, at: &str) -> Record {
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

pub fn evidence(doc_url: &str, probe: &str, at: &str, line: u32) -> Evidence {
    Evidence {
        document_url: Url::parse(doc_url).unwrap(),
        probe: probe.into(),
        fetched_at: t(at),
        status: Some(200),
        locator: Some(Locator::Line(line)),
    }
}

pub fn cand(
    kind: CandidateKind,
    value: &str,
    relation: &str,
    doc_url: &str,
    probe: &str,
    at: &str,
    line: u32,
) -> Record {
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

pub fn verdict(kind: CandidateKind, value: &str, status: VerifyStatus, http: Option<u16>, at: &str) -> Record {
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

pub fn done(unit: &str) -> Record {
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

pub fn writes(records: &[Record]) -> Vec<Write> {
    records.iter().flat_map(writes_for).collect()
}

pub fn seed(value: &str) -> UnitRow {
    UnitRow {
        kind: UnitKind::Origin,
        value: value.into(),
        depth: 0,
        revealed_by: None,
        state: UnitState::Pending,
        in_scope: true,
    }
}

pub const ROBOTS: &str = "https://a.example/robots.txt";
pub const SEC: &str = "https://a.example/.well-known/security.txt";
pub const T1: &str = "2026-11-01T00:00:00Z";
pub const T2: &str = "2026-11-02T00:00:00Z";

/// Scan 1: robots.txt lists a sitemap and a disallowed URL, security.txt a contact; verified.
pub fn first_scan() -> Vec<Record> {
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
pub fn second_scan() -> Vec<Record> {
    vec![
        doc(ROBOTS, "robots", Some(200), T2),
        cand(CandidateKind::Url, "https://a.example/admin/", "robots_disallow", ROBOTS, "robots", T2, 2),
        doc(SEC, "security.txt", Some(404), T2),
        verdict(CandidateKind::Url, "https://a.example/admin/", VerifyStatus::AuthRequired, Some(403), T2),
        done("https://a.example"),
    ]
}

pub fn count(s: &mut dyn Store) -> (usize, usize, usize, usize) {
    let g = s.load().unwrap();
    (g.documents.len(), g.nodes.len(), g.relations.len(), g.evidence.len())
}
pub fn writes_are_idempotent_so_a_resumed_unit_adds_nothing(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    let before = count(&mut *db.open());
    s.write(id, &writes(&first_scan())).unwrap();
    assert_eq!(count(&mut *db.open()), before);
    assert_eq!(before, (2, 5, 3, 3), "documents, nodes (2 documents + 3 values), relations, evidence");
}

pub fn unit_states_drive_resume(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
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

pub fn a_batch_is_all_or_nothing(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
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

pub fn history_lowers_confidence_keeps_evidence_and_diffs(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let one = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(one, &writes(&first_scan())).unwrap();
    s.finish_scan(one, t(T1), &serde_json::json!({})).unwrap();
    let now = t("2026-11-03T00:00:00Z");
    let sitemap1 = score_of(&mut *s, "https://a.example/sitemap.xml", now);
    let contact1 = score_of(&mut *s, "mailto:sec@a.example", now);
    assert_eq!((sitemap1.state, contact1.state), (Declaration::Listed, Declaration::Listed));

    let two = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(two, &writes(&second_scan())).unwrap();
    s.finish_scan(two, t(T2), &serde_json::json!({})).unwrap();
    let g2 = s.load().unwrap();
    let sitemap2 = score_of(&mut *s, "https://a.example/sitemap.xml", now);
    let contact2 = score_of(&mut *s, "mailto:sec@a.example", now);
    let admin2 = score_of(&mut *s, "https://a.example/admin/", now);
    assert_eq!(sitemap2.state, Declaration::Withdrawn, "robots.txt answered without the Sitemap line");
    assert_eq!(contact2.state, Declaration::Unanswered, "security.txt answered 404");
    assert!(sitemap2.confidence < sitemap1.confidence, "{} < {}", sitemap2.confidence, sitemap1.confidence);
    assert!(contact2.confidence < contact1.confidence);
    // Seen in both scans: two sightings, first in the first and last in the second.
    assert_eq!((admin2.state, admin2.evidence), (Declaration::Listed, 2));
    assert_eq!((admin2.first_seen, admin2.last_seen), (t(T1), t(T2)));
    // The first scan's evidence is all still there, with its dates.
    let first_evidence: Vec<_> = g2.evidence.iter().filter(|e| e.scan == one).collect();
    assert_eq!(first_evidence.len(), 3);
    assert!(first_evidence.iter().all(|e| e.fetched_at == t(T1)));

    let changes = diff(&mut *s, one, two).unwrap();
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
    assert!(diff(&mut *s, one, 99).is_err());
}

pub fn a_withdrawn_relation_stays_withdrawn_when_its_document_then_fails(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let one = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(one, &writes(&first_scan())).unwrap();
    let two = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(two, &writes(&second_scan())).unwrap();
    // Scan 3: robots.txt does not answer (connection refused).
    let t3 = "2026-11-03T00:00:00Z";
    let three = s.begin_scan(t(t3), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(three, &writes(&[doc(ROBOTS, "robots", None, t3), done("https://a.example")])).unwrap();
    let now = t("2026-11-03T00:00:00Z");
    let sitemap = score_of(&mut *s, "https://a.example/sitemap.xml", now);
    // Withdrawn in scan 2 (0.15 decayed by two days, + 0.3 for its `alive` verdict); the outage of
    // scan 3 does not make it `unanswered` (0.25), which would raise it.
    assert_eq!(sitemap.state, Declaration::Withdrawn);
    assert_eq!(sitemap.confidence, 0.449);
    // A relation listed in scan 2 whose document then failed is unanswered: 0.25 decayed by a
    // day + 0.25 for `auth_required`.
    let admin = score_of(&mut *s, "https://a.example/admin/", now);
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
    assert_eq!(score_of(&mut *s, "https://a.example/admin/", now).state, Declaration::Unanswered);
    assert_eq!(score_of(&mut *s, "mailto:sec@a.example", now).state, Declaration::Unanswered);
    assert_eq!(score_of(&mut *s, "https://a.example/sitemap.xml", now).state, Declaration::Withdrawn);
    // Listed again in scan 4: listed.
    let t4 = "2026-11-04T00:00:00Z";
    let four = s.begin_scan(t(t4), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let sitemap_again =
        cand(CandidateKind::Sitemap, "https://a.example/sitemap.xml", "robots_sitemap", ROBOTS, "robots", t4, 3);
    s.write(four, &writes(&[doc(ROBOTS, "robots", Some(200), t4), sitemap_again])).unwrap();
    assert_eq!(score_of(&mut *s, "https://a.example/sitemap.xml", now).state, Declaration::Listed);
}

pub fn candidate_lists_filter_by_kind_scope_and_status(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
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
    let all = candidates(&mut *s, &CandidateQuery::default(), now);
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
    let alive = candidates(&mut *s, &CandidateQuery { status: Some("alive".into()), ..Default::default() }, now);
    assert_eq!(alive.len(), 1);
    assert_eq!(alive[0].value, "https://a.example/sitemap.xml");
    let urls = candidates(
        &mut *s,
        &CandidateQuery { kind: Some("url".into()), in_scope_only: true, ..Default::default() },
        now,
    );
    assert_eq!(urls.len(), 1);
}

pub fn exports_name_nodes_and_carry_evidence(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    let mut render = |f| {
        let mut buf = Vec::new();
        write(&mut *s, &GraphFilter::default(), f, t(T1), &mut buf).unwrap();
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

pub fn out_of_scope_values_have_that_status_without_a_verdict(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[]).unwrap();
    let mut outside =
        cand(CandidateKind::Sitemap, "https://other.example/s.xml", "robots_sitemap", ROBOTS, "robots", T1, 9);
    if let Record::Candidate(c) = &mut outside {
        c.in_scope = Some(false);
    }
    s.write(id, &writes(&[doc(ROBOTS, "robots", Some(200), T1), outside])).unwrap();
    let rows =
        candidates(&mut *s, &CandidateQuery { status: Some("out_of_scope".into()), ..Default::default() }, t(T1));
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].value.as_str(), rows[0].in_scope), ("https://other.example/s.xml", Some(false)));
}

pub fn candidate_flags_are_those_of_the_latest_sighting(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
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
    let rows = candidates(&mut *s, &CandidateQuery { kind: Some("contact".into()), ..Default::default() }, t(T2));
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
    let rows = candidates(&mut *s, &CandidateQuery { kind: Some("contact".into()), ..Default::default() }, t(T2));
    assert_eq!(rows[0].flags, Vec::<String>::new());
}

pub fn the_unfinished_scan_to_resume_is_the_most_recent_unfinished_one_whatever_finished_after_it(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let killed = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let later = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.finish_scan(later, t(T2), &serde_json::json!({})).unwrap();
    assert_eq!(s.last_unfinished_scan().unwrap().map(|r| r.id), Some(killed));
    s.finish_scan(killed, t(T2), &serde_json::json!({})).unwrap();
    assert_eq!(s.last_unfinished_scan().unwrap(), None);
}

pub fn lease(holder: &str, pid: u32, expires: &str) -> Lease {
    Lease { holder: holder.into(), pid, host: "h".into(), acquired_at: t(T1), expires_at: t(expires) }
}

pub fn a_scan_is_leased_to_one_holder_until_it_expires_or_its_holder_is_dead(b: &dyn Backend) {
    let db = b.create();
    let mut a = db.open();
    let mut b = db.open();
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
    let holders: Vec<String> = a.leases().unwrap().into_iter().map(|(_, l)| l.holder).collect();
    assert_eq!(holders, ["b"], "a's release leaves b's lease");
    // Expired: taken although its holder looks alive.
    assert_eq!(a.acquire_lease(scan, &lease("a", 1, T2), t(T2), &alive).unwrap(), Acquired::Held);
    a.release_lease(scan, "a").unwrap();
    assert_eq!(b.leases().unwrap(), []);
}

/// Normalised rows of a graph: every id replaced by the natural key it stands for, so two graphs
/// written differently (one batch, or one write at a time) compare equal when they hold the same.
fn normalised(g: &wellknown_store::GraphData) -> Vec<String> {
    let node = |id: i64| g.nodes.iter().find(|n| n.id == id).map(|n| format!("{}:{}", n.kind, n.value));
    let relation = |id: i64| {
        g.relations
            .iter()
            .find(|r| r.id == id)
            .map(|r| format!("{:?}-{}->{:?}", node(r.source), r.relation, node(r.target)))
    };
    let document =
        |id: i64| g.documents.iter().find(|d| d.id == id).map(|d| format!("{} {}", d.probe, d.requested_url));
    let mut out = Vec::new();
    for n in &g.nodes {
        out.push(format!("node {}:{} {:?} {}", n.kind, n.value, n.in_scope, n.first_seen));
    }
    for r in &g.relations {
        out.push(format!("relation {:?} {}", relation(r.id), r.first_seen));
    }
    for e in &g.evidence {
        out.push(format!(
            "evidence {:?} {:?} {} {} {:?} {:?} {} {}",
            relation(e.relation),
            document(e.document),
            e.probe,
            e.fetched_at,
            e.status,
            e.locator,
            e.hints,
            e.flags
        ));
    }
    for d in &g.documents {
        let mut d = d.clone();
        d.id = 0;
        out.push(format!("document {d:?}"));
    }
    for v in &g.verifications {
        out.push(format!("verification {:?} {:?}", node(v.node), v.row));
    }
    for v in &g.vhosts {
        out.push(format!("vhost {v:?}"));
    }
    out.sort();
    out
}

/// A batch repeating documents, nodes and units (a re-fetched document, a value seen twice, a unit
/// revealed then done) stores exactly what its writes applied one at a time store.
pub fn a_batch_equals_its_writes_applied_one_by_one(b: &dyn Backend) {
    let mut records = first_scan();
    records.extend(second_scan());
    records.push(cand(CandidateKind::Url, "https://a.example/admin/", "robots_disallow", ROBOTS, "robots", T2, 7));
    let all = writes(&records);
    let batched = b.create();
    let mut s = batched.open();
    let id = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(id, &all).unwrap();
    let one_by_one = b.create();
    let mut s2 = one_by_one.open();
    let id2 = s2.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    for w in &all {
        s2.write(id2, std::slice::from_ref(w)).unwrap();
    }
    let (g, g2) = (s.load().unwrap(), s2.load().unwrap());
    assert_eq!(normalised(&g), normalised(&g2));
    assert_eq!(s.units(id).unwrap(), s2.units(id2).unwrap());
    assert_eq!((g.documents.len(), g.evidence.len()), (2, 4), "documents re-fetched in one scan are one row each");
}

/// What one handle committed, another handle of the same database reads.
pub fn a_second_handle_sees_what_the_first_committed(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let id = s
        .begin_scan(t(T1), &serde_json::json!({"targets": ["https://a.example"]}), &[seed("https://a.example")])
        .unwrap();
    s.write(id, &writes(&first_scan())).unwrap();
    let mut other = db.open();
    let scans = other.scans().unwrap();
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0].plan["targets"][0], "https://a.example");
    assert_eq!(scans[0].finished_at, None);
    let g = other.load().unwrap();
    assert_eq!((g.documents.len(), g.evidence.len(), g.verifications.len()), (2, 3, 2));
    let sec = g.documents.iter().find(|d| d.probe == "security.txt").unwrap();
    assert_eq!((sec.status, sec.fetched_at, sec.size), (Some(200), t(T1), 12));
    s.finish_scan(id, t(T2), &serde_json::json!({"documents": 2})).unwrap();
    let scans = other.scans().unwrap();
    assert_eq!((scans[0].finished_at, scans[0].summary["documents"].as_i64()), (Some(t(T2)), Some(2)));
    assert!(other.finish_scan(id + 100, t(T2), &serde_json::json!({})).is_err(), "no such scan");
}

/// The candidates `q` selects, collected from the stream.
fn candidates(s: &mut dyn Store, q: &CandidateQuery, now: Timestamp) -> Vec<CandidateRow> {
    let mut out = Vec::new();
    wellknown_store::analysis::candidates(s, q, now, &mut |c| {
        out.push(c);
        Ok(())
    })
    .unwrap();
    out
}

/// The changes from scan `a` to `b`, collected from the stream.
fn diff(s: &mut dyn Store, a: i64, b: i64) -> Result<Vec<Change>, wellknown_store::StoreError> {
    let mut out = Vec::new();
    wellknown_store::analysis::diff(s, a, b, &mut |c| {
        out.push(c);
        Ok(())
    })?;
    Ok(out)
}

/// The score of the (only) relation declaring `value`, at `now`.
fn score_of(s: &mut dyn Store, value: &str, now: Timestamp) -> Scored {
    let mut found = None;
    wellknown_store::query::graph::relations(s, &GraphFilter::default(), now, &mut |r| {
        if r.target.2 == value {
            found = r.score;
        }
        Ok(())
    })
    .unwrap();
    found.expect("a scored relation declaring the value")
}

pub fn graph_filters_select_relations_and_their_two_ends(b: &dyn Backend) {
    let db = b.create();
    let mut s = db.open();
    let one = s.begin_scan(t(T1), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    let mut outside =
        cand(CandidateKind::Sitemap, "https://other.example/s.xml", "robots_sitemap", ROBOTS, "robots", T1, 9);
    if let Record::Candidate(c) = &mut outside {
        c.in_scope = Some(false);
    }
    let mut records = first_scan();
    records.push(outside);
    s.write(one, &writes(&records)).unwrap();
    let two = s.begin_scan(t(T2), &serde_json::json!({}), &[seed("https://a.example")]).unwrap();
    s.write(two, &writes(&second_scan())).unwrap();
    let mut export = |f: GraphFilter| -> Vec<serde_json::Value> {
        let mut buf = Vec::new();
        write(&mut *s, &f, Format::Jsonl, t(T2), &mut buf).unwrap();
        String::from_utf8(buf).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let of = |lines: &[serde_json::Value], ty: &str| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l["type"] == ty)
            .map(|l| match ty {
                "node" => format!("{} {}", l["kind"].as_str().unwrap(), l["value"].as_str().unwrap()),
                "relation" => format!("{} {}", l["relation"].as_str().unwrap(), l["target"]["value"].as_str().unwrap()),
                _ => l["id"].to_string(),
            })
            .collect()
    };
    // No filter: every node (two documents, four values), relation and scan.
    let all = export(GraphFilter::default());
    assert_eq!(of(&all, "node").len(), 6);
    assert_eq!(of(&all, "relation").len(), 4);
    assert_eq!(of(&all, "scan"), [one.to_string(), two.to_string()]);
    // A kind: its relations and their two ends, with all their evidence.
    let urls = export(GraphFilter { kind: Some("url".into()), ..Default::default() });
    assert_eq!(of(&urls, "node"), [format!("document {ROBOTS}"), "url https://a.example/admin/".to_string()]);
    assert_eq!(of(&urls, "relation"), ["robots_disallow https://a.example/admin/"]);
    let rel = urls.iter().find(|l| l["type"] == "relation").unwrap();
    assert_eq!(rel["evidence"].as_array().unwrap().len(), 2, "seen in both scans");
    // A scan: the relations seen in it, with its evidence only, and its own record.
    let second = export(GraphFilter { scan: Some(two), ..Default::default() });
    assert_eq!(of(&second, "relation"), ["robots_disallow https://a.example/admin/"]);
    assert_eq!(of(&second, "scan"), [two.to_string()]);
    let rel = second.iter().find(|l| l["type"] == "relation").unwrap();
    assert_eq!(rel["evidence"].as_array().unwrap().len(), 1);
    assert_eq!(rel["evidence"][0]["scan"], two);
    // The relation's score stays the store's (listed in both scans), whatever the filter.
    assert_eq!(rel["state"], "listed");
    // In scope: the other site's sitemap is left out, and so is nothing else.
    let scoped = export(GraphFilter { in_scope_only: true, ..Default::default() });
    assert_eq!(
        of(&scoped, "relation"),
        [
            "contact mailto:sec@a.example",
            "robots_disallow https://a.example/admin/",
            "robots_sitemap https://a.example/sitemap.xml"
        ]
    );
    // Filters combine; nothing selected is an empty graph.
    let none = export(GraphFilter { scan: Some(two), kind: Some("contact".into()), in_scope_only: false });
    assert!(of(&none, "node").is_empty() && of(&none, "relation").is_empty());
}
