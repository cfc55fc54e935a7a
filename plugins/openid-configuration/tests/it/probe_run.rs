//! The probe's fetch logic against an in-memory context: the appended location first, the RFC 8414
//! inserted form only when that fails.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use url::Url;
use wellknown_core::{FetchMeta, FetchRequest, FetchResult, ProbeContext, Target, Timestamp, WellKnownProbe};
use wellknown_openid_configuration::OpenIdConfigurationProbe;

struct Fake {
    pages: HashMap<String, Vec<u8>>,
    requested: Mutex<Vec<String>>,
}

#[async_trait]
impl ProbeContext for Fake {
    async fn fetch(&self, request: FetchRequest) -> FetchResult {
        self.requested.lock().unwrap().push(request.url.to_string());
        let mut meta = FetchMeta::synthetic(request.url.clone(), Some("application/json"), self.now());
        match self.pages.get(request.url.as_str()) {
            Some(body) => FetchResult { meta, body: body.clone() },
            None => {
                meta.status = Some(404);
                meta.content_type = Some("text/html".into());
                FetchResult { meta, body: b"<html>not found</html>".to_vec() }
            }
        }
    }

    fn now(&self) -> Timestamp {
        "2026-12-01T12:00:00Z".parse().unwrap()
    }
}

const DOC: &str = r#"{"issuer":"https://id.example/tenant1","authorization_endpoint":"https://id.example/tenant1/a",
"token_endpoint":"https://id.example/tenant1/t","jwks_uri":"https://id.example/tenant1/k",
"response_types_supported":["code"],"subject_types_supported":["public"],
"id_token_signing_alg_values_supported":["RS256"],"userinfo_endpoint":"https://id.example/tenant1/u",
"scopes_supported":["openid"],"claims_supported":["sub"]}"#;

fn issuer_target(url: &str) -> Target {
    Target::Url { url: Url::parse(url).unwrap(), role: "issuer".into(), declared_by: vec![] }
}

fn fake(pages: &[(&str, &str)]) -> Fake {
    Fake {
        pages: pages.iter().map(|(u, b)| (u.to_string(), b.as_bytes().to_vec())).collect(),
        requested: Mutex::new(Vec::new()),
    }
}

#[tokio::test]
async fn falls_back_to_the_inserted_form_after_a_404() {
    let cx = fake(&[("https://id.example/.well-known/openid-configuration/tenant1", DOC)]);
    let docs = OpenIdConfigurationProbe.run(&issuer_target("https://id.example/tenant1"), &cx).await;
    assert_eq!(
        *cx.requested.lock().unwrap(),
        vec![
            "https://id.example/tenant1/.well-known/openid-configuration",
            "https://id.example/.well-known/openid-configuration/tenant1"
        ]
    );
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].meta.status, Some(404));
    assert!(docs[0].report.is_none());
    assert_eq!(docs[1].role, "rfc8414_style_location");
    let report = docs[1].report.as_ref().unwrap();
    assert!(report.valid(), "{:?}", report.errors);
    assert_eq!(report.warnings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), vec!["rfc8414_style_location"]);
    assert_eq!(report.facts["appended_status"], 404);
}

#[tokio::test]
async fn appended_location_found_first() {
    let cx = fake(&[("https://id.example/tenant1/.well-known/openid-configuration", DOC)]);
    let docs = OpenIdConfigurationProbe.run(&issuer_target("https://id.example/tenant1/"), &cx).await;
    assert_eq!(cx.requested.lock().unwrap().len(), 1);
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0].role, "issuer");
    let report = docs[0].report.as_ref().unwrap();
    assert!(report.valid() && report.warnings.is_empty(), "{report:?}");
    assert_eq!(report.facts["construction"], "appended");
}

#[tokio::test]
async fn origin_targets_fetch_once() {
    let cx = fake(&[]);
    let origin = Target::origin(wellknown_core::Origin::parse_target("https://id.example").unwrap());
    let docs = OpenIdConfigurationProbe.run(&origin, &cx).await;
    assert_eq!(*cx.requested.lock().unwrap(), vec!["https://id.example/.well-known/openid-configuration"]);
    assert_eq!(docs.len(), 1);
}

/// The probe is registered as declared (the RFC 8414 and JWK Set probes are another crate's, tested
/// there: this crate does not link them).
#[test]
fn registry_holds_the_openid_probe() {
    let oidc = wellknown_core::probe_by_id("openid-configuration").expect("registered");
    assert_eq!(
        (oidc.suffix(), oidc.spec(), oidc.runs_on_origin(), oidc.takes_issuer()),
        (Some("openid-configuration"), "OpenID Connect Discovery 1.0", true, true)
    );
    assert!(wellknown_core::probe_by_id("oauth-authorization-server").is_none());
}
