//! The probe end to end: the fixture server (`tests/fixtures/sites`) over HTTPS, the real fetcher
//! (`wellknown-http`), and `ChangePasswordProbe::run` on three synthetic hosts: an HTTP redirect, a
//! meta refresh, and a catch-all server that answers 200 for everything.

use async_trait::async_trait;
use wellknown_change_password::ChangePasswordProbe;
use wellknown_core::{
    CandidateKind, Document, FetchRequest, FetchResult, Origin, ProbeContext, Target, Timestamp, WellKnownProbe,
};
use wellknown_http::{Fetcher, FetcherConfig};
use wellknown_tests::{FixtureServer, fixture_sites};

struct Cx(Fetcher);

#[async_trait]
impl ProbeContext for Cx {
    async fn fetch(&self, request: FetchRequest) -> FetchResult {
        self.0.fetch(&request, &|_| true).await
    }

    fn now(&self) -> Timestamp {
        Timestamp::UNIX_EPOCH
    }
}

/// Runs the probe on `https://<host>` against the fixture server; returns the documents and the
/// paths the server was asked for.
fn scan(host: &str) -> (Vec<Document>, Vec<(String, u16)>) {
    let server = FixtureServer::start(fixture_sites(), true).expect("fixture server");
    let ca = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(ca.path(), server.ca_pem.as_deref().expect("tls")).expect("write CA");
    let port = server.https_addr.expect("https").port();
    let cfg = FetcherConfig {
        connect_to: vec![format!(":443:127.0.0.1:{port}").parse().expect("connect-to")],
        allow_private: true,
        max_rate_per_host: 0.0,
        extra_root_certs_pem: vec![ca.path().to_path_buf()],
        ..FetcherConfig::default()
    };
    let cx = Cx(Fetcher::new(cfg).expect("fetcher"));
    let target = Target::origin(Origin::parse_target(&format!("https://{host}")).expect("origin"));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let docs = rt.block_on(ChangePasswordProbe.run(&target, &cx));
    let served = server.requests().into_iter().filter(|s| s.host == host).map(|s| (s.path, s.status)).collect();
    (docs, served)
}

const CHECK: &str = "/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200";

#[test]
fn http_redirect_to_the_change_password_page() {
    let (docs, served) = scan("change-password.test");
    assert_eq!(
        served,
        [
            ("/.well-known/change-password".to_string(), 302),
            ("/account/security/password".to_string(), 200),
            (CHECK.to_string(), 404)
        ]
    );
    assert_eq!(docs.len(), 2);
    let r = docs[0].report.as_ref().expect("interpreted");
    assert_eq!((r.kind.as_str(), r.valid(), r.warnings.len()), ("redirect", true, 0));
    assert_eq!(
        r.values(CandidateKind::Url).collect::<Vec<_>>(),
        ["https://change-password.test/account/security/password"]
    );
    assert_eq!(r.candidates.get(0).unwrap().hint("redirect_status").unwrap(), "302");
    assert_eq!(r.facts["status_codes_reliable"], true);
    assert_eq!(docs[1].role, "status_check");
    assert_eq!(docs[1].meta.status, Some(404));
}

#[test]
fn meta_refresh_page() {
    let (docs, served) = scan("change-password-refresh.test");
    assert_eq!(served, [("/.well-known/change-password".to_string(), 200), (CHECK.to_string(), 404)]);
    let r = docs[0].report.as_ref().expect("interpreted");
    assert_eq!(r.kind, "meta_refresh");
    assert!(r.warnings.is_empty() && r.errors.is_empty());
    let c = &r.candidates.get(0).unwrap();
    assert_eq!(c.value(), "https://change-password-refresh.test/settings/security?tab=password&from=well-known");
    assert_eq!(c.locator(), Some(wellknown_core::Locator::Line(5)));
}

#[test]
fn catch_all_server_is_flagged_unreliable() {
    let (docs, served) = scan("change-password-soft200.test");
    assert_eq!(served, [("/.well-known/change-password".to_string(), 200), (CHECK.to_string(), 200)]);
    let r = docs[0].report.as_ref().expect("interpreted");
    let codes: Vec<&str> = r.warnings.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["served_at_well_known", "unreliable_status_codes"]);
    assert_eq!(r.facts["status_codes_reliable"], false);
    assert_eq!(
        r.candidates.get(0).unwrap().value(),
        "https://change-password-soft200.test/.well-known/change-password"
    );
    assert!(r.candidates.get(0).unwrap().has_flag("unreliable_status"));
    assert_eq!(docs[1].report.as_ref().map(|r| r.facts["status_codes_reliable"].clone()), Some(false.into()));
}

#[test]
fn absent_document_costs_one_request() {
    let (docs, served) = scan("en.wikipedia.org");
    assert_eq!(served, [("/.well-known/change-password".to_string(), 404)]);
    assert_eq!(docs.len(), 1);
    assert!(docs[0].report.is_none());
}
