//! `/.well-known/matrix/client` (client-server API, "Server discovery", "Well-known URIs"): the
//! homeserver's client-server base URL (`m.homeserver.base_url`, required) and an identity server
//! (`m.identity_server.base_url`), plus the widely deployed unstable extensions for a sliding-sync
//! proxy (MSC3575) and the homeserver's OpenID Connect issuer (MSC2965).

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, merge_alternate, pointer};
use wellknown_core::json_document::read_object_into;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Origin, Report};

use crate::codes;

/// Fetch cap of `/.well-known/matrix/client` (bytes after decoding).
pub const MAX_CLIENT_BODY_BYTES: u64 = 256 * 1024;

/// Relation of the candidates of `m.homeserver.base_url`.
pub const HOMESERVER_RELATION: &str = "matrix_homeserver";
/// Relation of the candidates of `m.identity_server.base_url`.
pub const IDENTITY_SERVER_RELATION: &str = "matrix_identity_server";
/// Relation of the candidates of `org.matrix.msc3575.proxy.url` (a sliding-sync proxy).
pub const SLIDING_SYNC_RELATION: &str = "matrix_sliding_sync_proxy";
/// Relation of the `issuer` of `org.matrix.msc2965.authentication.issuer` (the homeserver's OpenID
/// Connect provider).
pub const OIDC_ISSUER_RELATION: &str = "matrix_oidc_issuer";
/// Relation of the `url` of `org.matrix.msc2965.authentication.account` (the account page).
pub const OIDC_ACCOUNT_RELATION: &str = "matrix_oidc_account";

/// Interprets a `/.well-known/matrix/client` body.
///
/// Report kind `matrix_client` (`invalid` when the body is not a JSON object), facts
/// `homeserver_base_url`, `identity_server_base_url`. Candidates, located by JSON pointer:
/// * `m.homeserver.base_url` -> an `origin` (relation [`HOMESERVER_RELATION`]) and, when the base
///   URL has a path (`https://example.org/matrix`), the `url` itself (same relation);
/// * `m.identity_server.base_url` -> the same, relation [`IDENTITY_SERVER_RELATION`];
/// * `org.matrix.msc3575.proxy.url` -> the same, relation [`SLIDING_SYNC_RELATION`];
/// * `org.matrix.msc2965.authentication.issuer` -> an `issuer` (relation [`OIDC_ISSUER_RELATION`],
///   handed to the identity probes), `.account` -> a `url` ([`OIDC_ACCOUNT_RELATION`]).
///
/// A base URL that is not an absolute http(s) URL is `invalid_base_url` and gives no candidate.
pub fn interpret_client(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::CLIENT_PROBE_ID, &meta.url, "matrix_client");
    report.too_large_if_truncated(meta, MAX_CLIENT_BODY_BYTES);
    let Some((object, alternates)) = read_object_into(&mut report, body, meta, &crate::JSON_RULES) else {
        return report;
    };
    read(&object, &mut report);
    for alternate in alternates {
        let Value::Object(object) = alternate else { continue };
        let mut scratch = Report::new(crate::CLIENT_PROBE_ID, &meta.url, "matrix_client");
        read(&object, &mut scratch);
        merge_alternate(&mut report, scratch);
    }
    report
}

fn read(object: &Map<String, Value>, report: &mut Report) {
    match object.get("m.homeserver").and_then(Value::as_object) {
        Some(hs) => {
            if let Some(url) = base_url(hs, "/m.homeserver", HOMESERVER_RELATION, report) {
                report.fact("homeserver_base_url", url);
            }
        }
        None => report.error(
            codes::MISSING_HOMESERVER,
            "no `m.homeserver` object: clients stop with FAIL_PROMPT (client-server API, server discovery)",
            at(if object.contains_key("m.homeserver") { "/m.homeserver" } else { "" }),
        ),
    }
    if let Some(is) = object.get("m.identity_server") {
        match is.as_object() {
            Some(is) => {
                if let Some(url) = base_url(is, "/m.identity_server", IDENTITY_SERVER_RELATION, report) {
                    report.fact("identity_server_base_url", url);
                }
            }
            None => report.error(
                codes::MISSING_BASE_URL,
                "`m.identity_server` is not an object with a `base_url`: clients stop with FAIL_ERROR",
                at("/m.identity_server"),
            ),
        }
    }
    if object.contains_key("m.server") {
        report.warn(
            codes::MISPLACED_SERVER_DELEGATION,
            "`m.server` is the server-server delegation key of /.well-known/matrix/server; nothing reads it here",
            at("/m.server"),
        );
    }
    if let Some(proxy) = object.get("org.matrix.msc3575.proxy").and_then(Value::as_object) {
        let p = pointer("", "org.matrix.msc3575.proxy");
        if let Some(url) = proxy.get("url").and_then(Value::as_str).and_then(http_url) {
            located(report, &url, SLIDING_SYNC_RELATION, &pointer(&p, "url"));
        }
    }
    if let Some(auth) = object.get("org.matrix.msc2965.authentication").and_then(Value::as_object) {
        let p = pointer("", "org.matrix.msc2965.authentication");
        if let Some(issuer) = auth.get("issuer").and_then(Value::as_str).and_then(http_url) {
            report.candidate(Candidate::new(
                CandidateKind::Issuer,
                OIDC_ISSUER_RELATION,
                issuer.as_str(),
                at(pointer(&p, "issuer")),
            ));
        }
        if let Some(account) = auth.get("account").and_then(Value::as_str).and_then(http_url) {
            report.candidate(Candidate::new(
                CandidateKind::Url,
                OIDC_ACCOUNT_RELATION,
                account.as_str(),
                at(pointer(&p, "account")),
            ));
        }
    }
}

/// Reads `base_url` of an `m.*` object at `p`; emits its candidates and returns it as written.
fn base_url(object: &Map<String, Value>, p: &str, relation: &str, report: &mut Report) -> Option<String> {
    let bp = pointer(p, "base_url");
    let Some(text) = object.get("base_url").and_then(Value::as_str) else {
        report.error(
            codes::MISSING_BASE_URL,
            format!("{p} has no `base_url` string (client-server API, server discovery)"),
            at(p),
        );
        return None;
    };
    let Some(url) = http_url(text) else {
        report.error(
            codes::INVALID_BASE_URL,
            format!("base_url {text:?} is not an absolute http(s) URL: clients stop with FAIL_ERROR"),
            at(bp),
        );
        return None;
    };
    if url.scheme() == "http" {
        report.warn(codes::INSECURE_BASE_URL, format!("base_url {text:?} is plain http"), at(bp.clone()));
    }
    located(report, &url, relation, &bp);
    Some(text.to_string())
}

/// The `origin` of `url`, and `url` itself when it has a path.
fn located(report: &mut Report, url: &Url, relation: &str, p: &str) {
    if let Ok(origin) = Origin::from_url(url) {
        report.candidate(Candidate::new(CandidateKind::Origin, relation, origin.ascii(), at(p)));
    }
    if !url.path().trim_end_matches('/').is_empty() || url.query().is_some() {
        report.candidate(Candidate::new(CandidateKind::Url, relation, url.as_str(), at(p)));
    }
}

fn http_url(text: &str) -> Option<Url> {
    Url::parse(text.trim()).ok().filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn parse(body: &str) -> Report {
        let url = Url::parse("https://example.org/.well-known/matrix/client").unwrap();
        interpret_client(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
    }

    fn cands(r: &Report) -> Vec<(String, String, String)> {
        r.candidates.iter().map(|c| (c.kind().to_string(), c.relation().to_string(), c.value().to_string())).collect()
    }

    #[test]
    fn homeserver_identity_server_and_paths() {
        let r = parse(
            r#"{"m.homeserver": {"base_url": "https://matrix.example.org/hs/"}, "m.identity_server": {"base_url": "https://id.example.org"}}"#,
        );
        assert!(r.valid() && r.warnings.is_empty(), "{:?} {:?}", r.errors, r.warnings);
        assert_eq!(
            cands(&r),
            [
                ("origin".into(), "matrix_homeserver".into(), "https://matrix.example.org".into()),
                ("url".into(), "matrix_homeserver".into(), "https://matrix.example.org/hs/".into()),
                ("origin".into(), "matrix_identity_server".into(), "https://id.example.org".into()),
            ]
        );
        assert_eq!(r.candidates.iter().next().unwrap().locator(), at("/m.homeserver/base_url"));
    }

    #[test]
    fn failures_clients_would_stop_at() {
        let codes = |b: &str| parse(b).errors.iter().map(|d| (d.code.clone(), d.locator.clone())).collect::<Vec<_>>();
        assert_eq!(codes("{}"), [("missing_homeserver".to_string(), at(""))]);
        assert_eq!(codes(r#"{"m.homeserver": {}}"#), [("missing_base_url".to_string(), at("/m.homeserver"))]);
        assert_eq!(
            codes(r#"{"m.homeserver": {"base_url": "matrix.example.org"}}"#),
            [("invalid_base_url".to_string(), at("/m.homeserver/base_url"))]
        );
        assert_eq!(
            codes(r#"{"m.homeserver": {"base_url": "https://a.example"}, "m.identity_server": "https://id.example"}"#),
            [("missing_base_url".to_string(), at("/m.identity_server"))]
        );
        let r = parse(r#"{"m.homeserver": {"base_url": "http://a.example"}, "m.server": "a.example:443"}"#);
        let warns: Vec<&str> = r.warnings.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(warns, ["insecure_base_url", "misplaced_server_delegation"]);
    }
}
