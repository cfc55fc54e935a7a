//! The probe against an in-memory ProbeContext: locations, legacy fallback, the signing-key
//! follow-up (verified, out of scope), and registration.

use std::collections::HashMap;
use std::sync::Mutex;

use wellknown_core::{
    FailureClass, FetchFailure, FetchMeta, FetchRequest, FetchResult, Origin, ProbeContext, Target, Timestamp,
    WellKnownProbe, async_trait::async_trait,
};
use wellknown_security_txt::SecurityTxtProbe;

const NOW: &str = "2026-12-01T12:00:00Z";

enum Answer {
    Ok(&'static str, Vec<u8>),
    Status(u16),
    Fail(FailureClass),
}

struct FakeContext {
    answers: HashMap<String, Answer>,
    requested: Mutex<Vec<String>>,
}

impl FakeContext {
    fn new(answers: Vec<(&str, Answer)>) -> Self {
        FakeContext {
            answers: answers.into_iter().map(|(u, a)| (u.to_string(), a)).collect(),
            requested: Mutex::new(Vec::new()),
        }
    }

    fn requested(&self) -> Vec<String> {
        self.requested.lock().map(|v| v.clone()).unwrap_or_default()
    }
}

#[async_trait]
impl ProbeContext for FakeContext {
    async fn fetch(&self, request: FetchRequest) -> FetchResult {
        let url = request.url.to_string();
        if let Ok(mut v) = self.requested.lock() {
            v.push(url.clone());
        }
        let mut meta = FetchMeta::synthetic(request.url.clone(), None, self.now());
        let mut body = Vec::new();
        match self.answers.get(&url) {
            Some(Answer::Ok(ct, b)) => {
                meta.content_type = Some((*ct).to_string());
                body = b.clone();
            }
            Some(Answer::Status(s)) => meta.status = Some(*s),
            Some(Answer::Fail(class)) => {
                meta.status = None;
                meta.failure = Some(FetchFailure { class: *class, message: "refused by the fake".into() });
            }
            None => meta.status = Some(404),
        }
        meta.size = body.len() as u64;
        FetchResult { meta, body }
    }

    fn now(&self) -> Timestamp {
        NOW.parse().expect("now")
    }
}

fn target() -> Target {
    Target::origin(Origin::parse_target("https://example.com").expect("origin"))
}

fn case(name: &str) -> (Vec<u8>, String) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/wellknown");
    let body = std::fs::read(dir.join(format!("{name}.input"))).expect("input");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.meta.json"))).expect("meta"))
            .expect("json");
    (body, meta["pgp_public_key"].as_str().unwrap_or_default().to_string())
}

const PLAIN: &str = "text/plain; charset=utf-8";
const GOOD: &[u8] = b"Contact: https://example.com/security\nExpires: 2027-06-30T23:00:00Z\n";

#[tokio::test]
async fn canonical_location_first_and_only() {
    let cx = FakeContext::new(vec![("https://example.com/.well-known/security.txt", Answer::Ok(PLAIN, GOOD.to_vec()))]);
    let docs = SecurityTxtProbe.run(&target(), &cx).await;
    assert_eq!(cx.requested(), vec!["https://example.com/.well-known/security.txt"]);
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].role, "origin");
    let r = docs[0].report.as_ref().expect("report");
    assert!(r.valid());
    assert!(!r.has_code("legacy_location"));
}

#[tokio::test]
async fn legacy_fallback_only_when_canonical_is_not_200() {
    let cx = FakeContext::new(vec![
        ("https://example.com/.well-known/security.txt", Answer::Status(404)),
        ("https://example.com/security.txt", Answer::Ok(PLAIN, GOOD.to_vec())),
    ]);
    let docs = SecurityTxtProbe.run(&target(), &cx).await;
    assert_eq!(
        cx.requested(),
        vec!["https://example.com/.well-known/security.txt", "https://example.com/security.txt"]
    );
    assert_eq!(docs.iter().map(|d| d.role.as_str()).collect::<Vec<_>>(), vec!["origin", "legacy_location"]);
    assert!(docs[0].report.is_none());
    let r = docs[1].report.as_ref().expect("legacy report");
    assert!(r.has_code("legacy_location"));
    assert!(r.valid());
}

#[tokio::test]
async fn nothing_anywhere() {
    let cx = FakeContext::new(vec![("https://example.com/security.txt", Answer::Fail(FailureClass::Timeout))]);
    let docs = SecurityTxtProbe.run(&target(), &cx).await;
    assert_eq!(docs.len(), 2);
    assert!(docs.iter().all(|d| d.report.is_none()));
    assert_eq!(docs[1].meta.failure.as_ref().map(|f| f.class), Some(FailureClass::Timeout));
}

#[tokio::test]
async fn signed_file_is_verified_with_its_encryption_key() {
    let (body, key) = case("sectxt_signed_valid");
    let cx = FakeContext::new(vec![
        ("https://example.com/.well-known/security.txt", Answer::Ok(PLAIN, body)),
        ("https://example.com/pgp-key.txt", Answer::Ok("application/pgp-keys", key.into_bytes())),
    ]);
    let docs = SecurityTxtProbe.run(&target(), &cx).await;
    assert_eq!(docs.iter().map(|d| d.role.as_str()).collect::<Vec<_>>(), vec!["origin", "encryption_key"]);
    let r = docs[0].report.as_ref().expect("report");
    assert_eq!(r.facts["signature"], "verified");
    assert_eq!(r.facts["signature_detail"], "FE97DFC2056251B106166645E4C6D44B1BB2DC1D");
    assert!(r.valid());
    assert!(r.candidates.iter().all(|c| c.flags().len() == 0));
}

#[tokio::test]
async fn tampered_file_fails_verification() {
    let (body, key) = case("sectxt_signed_valid");
    let body = String::from_utf8(body).expect("utf8").replace("security-policy.html", "evil-policy.html");
    let cx = FakeContext::new(vec![
        ("https://example.com/.well-known/security.txt", Answer::Ok(PLAIN, body.into_bytes())),
        ("https://example.com/pgp-key.txt", Answer::Ok("application/pgp-keys", key.into_bytes())),
    ]);
    let docs = SecurityTxtProbe.run(&target(), &cx).await;
    let r = docs[0].report.as_ref().expect("report");
    assert_eq!(r.facts["signature"], "failed");
    assert_eq!(r.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), vec!["invalid_signature"]);
    // Every candidate read from the altered file carries the flag, the altered one included.
    let policy = r.candidates.iter().find(|c| c.relation() == "policy").expect("policy candidate");
    assert_eq!(policy.value(), "https://example.com/evil-policy.html");
    assert!(!r.candidates.is_empty());
    for c in r.candidates.iter() {
        assert_eq!(c.flags().collect::<Vec<_>>(), vec![wellknown_security_txt::SIGNATURE_FAILED], "{}", c.value());
    }
    // The flag as the output carries it (the name `docs/plugins/security-txt.md` publishes).
    let json = serde_json::to_value(&r.candidates).expect("serialisable");
    let flags: Vec<&serde_json::Value> = json.as_array().expect("a list").iter().map(|c| &c["flags"]).collect();
    assert_eq!(flags, vec![&serde_json::json!(["signature_failed"]); r.candidates.len()]);
}

#[tokio::test]
async fn out_of_scope_key_leaves_the_signature_not_checked() {
    let (body, _) = case("sectxt_signed_valid");
    let cx = FakeContext::new(vec![
        ("https://example.com/.well-known/security.txt", Answer::Ok(PLAIN, body)),
        ("https://example.com/pgp-key.txt", Answer::Fail(FailureClass::OutOfScope)),
    ]);
    let docs = SecurityTxtProbe.run(&target(), &cx).await;
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[1].meta.failure.as_ref().map(|f| f.class), Some(FailureClass::OutOfScope));
    let r = docs[0].report.as_ref().expect("report");
    assert_eq!(r.facts["signature"], "not_checked");
    assert!(r.facts["signature_detail"].as_str().unwrap_or_default().contains("out_of_scope"));
    assert!(r.valid());
}

#[test]
fn registered_with_its_suffix() {
    let p = wellknown_core::probe_by_id("security.txt").expect("registered");
    assert_eq!(p.id(), "security.txt");
    assert_eq!(p.suffix(), Some("security.txt"));
    assert_eq!(p.spec(), "RFC 9116");
    assert!(wellknown_core::probe_by_id("security-txt").is_some());
    let locations = p.locations(&target());
    assert_eq!(
        locations.iter().map(url::Url::as_str).collect::<Vec<_>>(),
        vec!["https://example.com/.well-known/security.txt", "https://example.com/security.txt"]
    );
    let url_target = Target::Url {
        url: url::Url::parse("https://a.example/.well-known/security.txt").expect("url"),
        role: "declared".into(),
        declared_by: vec![],
    };
    assert_eq!(p.locations(&url_target).len(), 1);
    assert_eq!(wellknown_core::iana::lookup("security.txt").map(|e| e.status.as_str()), Some("permanent"));
}
