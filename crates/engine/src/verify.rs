//! Verification of candidate URLs: does the URL a document declares answer?
//!
//! Kinds verified: `url`, `sitemap`, `endpoint` (fetchable URLs). Procedure for one URL:
//!
//! 1. out of scope: nothing requested and no verdict (the candidate record's `in_scope: false` says
//!    it; `wellknown candidates` shows such values with the status `out_of_scope`);
//! 2. already fetched as a document in this scan (a sitemap the robots.txt declared, a JWKS): that
//!    fetch is the verdict (`source: document`), nothing requested again;
//! 3. otherwise a HEAD (redirects followed, each hop scope-checked, at most five), then a GET with a
//!    tiny body cap when the server answers 405 or 501 to HEAD. The request goes through the same
//!    context as documents: scope, `--obey-robots`, per-host politeness.
//!
//! Verdicts ([`VerifyStatus`]): 2xx `alive`; 404/410 `gone`; 401/403 `auth_required`; a redirect
//! followed `redirect` (with the first hop's target; the final status is kept in `http_status`, or
//! the redirect's own status when it was not followed: out of scope, a loop, too many hops);
//! any other status `error`; no response: `dns`, `connect`, `tls`, `timeout` or `failure` (the
//! exact fetcher class is in `failure`). Refused before anything was sent: `private_address` (the
//! host resolves only to loopback, private, link-local or metadata addresses and `--allow-private`
//! is off), `disallowed_by_robots`; these records have `method: null` and `source: none`. So do the
//! verdicts of URLs whose origin this unit already found unreachable or too slow (`reach.rs`): the
//! failure class of the request that found it and a message `not attempted: …`, nothing sent.

use url::Url;
use wellknown_core::{CandidateKind, FailureClass, FetchMeta, FetchPolicy, FetchRequest, Method, Timestamp};

use crate::context::ScanContext;
use wellknown_records::{VerificationRecord, VerifySource, VerifyStatus};

/// True for candidate kinds whose value is a URL the scan verifies.
pub fn verifiable(kind: CandidateKind) -> bool {
    matches!(kind, CandidateKind::Url | CandidateKind::Sitemap | CandidateKind::Endpoint)
}

/// The verdict a fetch outcome gives: (status, first redirect target).
pub fn classify(meta: &FetchMeta) -> (VerifyStatus, Option<String>) {
    let target = meta
        .redirect_chain
        .get(1)
        .map(|h| h.url.to_string())
        .or_else(|| (!meta.redirect_chain.is_empty()).then(|| meta.url.to_string()));
    if let Some(f) = &meta.failure {
        let status = match f.class {
            FailureClass::DnsNxdomain | FailureClass::DnsNoAnswer | FailureClass::DnsFailure => VerifyStatus::Dns,
            FailureClass::ConnectRefused | FailureClass::ConnectTimeout | FailureClass::Connect => {
                VerifyStatus::Connect
            }
            // Redirected into a refused address: the URL itself redirects (to `meta.url`).
            FailureClass::PrivateAddress if !meta.redirect_chain.is_empty() => VerifyStatus::Redirect,
            FailureClass::PrivateAddress => VerifyStatus::PrivateAddress,
            FailureClass::Tls => VerifyStatus::Tls,
            FailureClass::Timeout | FailureClass::SlowTransfer => VerifyStatus::Timeout,
            // The 429/503 that set the limit is a status like any other; a request refused because
            // of an earlier one got no answer.
            FailureClass::RateLimited if meta.status.is_some() => return (by_status(meta), target),
            FailureClass::RateLimited => VerifyStatus::Failure,
            FailureClass::TooManyRedirects | FailureClass::RedirectLoop | FailureClass::InvalidRedirect => {
                VerifyStatus::Redirect
            }
            // A redirect to a URL outside the scope was not followed: the URL itself redirects.
            FailureClass::OutOfScope if !meta.redirect_chain.is_empty() => VerifyStatus::Redirect,
            FailureClass::OutOfScope => VerifyStatus::OutOfScope,
            FailureClass::RobotsDisallowed => VerifyStatus::DisallowedByRobots,
            FailureClass::BodyTooLarge if meta.status.is_some() => return (by_status(meta), target),
            FailureClass::BodyTooLarge | FailureClass::Protocol | FailureClass::UnsupportedUrl => VerifyStatus::Failure,
        };
        let target = match f.class {
            // Not followed because it cannot be: `url` is the response that redirected, and its
            // target (when it is a URL at all) is kept apart.
            FailureClass::InvalidRedirect => target.or_else(|| meta.unfollowed_location.as_ref().map(Url::to_string)),
            _ if status == VerifyStatus::Redirect => target.or_else(|| Some(meta.url.to_string())),
            _ => target,
        };
        return (status, target);
    }
    (by_status(meta), target)
}

/// The HTTP status of a verdict: the final response's, or, for a redirect that was not followed
/// (out of scope, a loop, too many hops), the redirect's own status (the last response received).
pub fn http_status(meta: &FetchMeta, verdict: VerifyStatus) -> Option<u16> {
    meta.status
        .or_else(|| (verdict == VerifyStatus::Redirect).then(|| meta.redirect_chain.last().map(|h| h.status)).flatten())
}

fn by_status(meta: &FetchMeta) -> VerifyStatus {
    if !meta.redirect_chain.is_empty() {
        return VerifyStatus::Redirect;
    }
    match meta.status {
        Some(200..=299) => VerifyStatus::Alive,
        Some(404 | 410) => VerifyStatus::Gone,
        Some(401 | 403) => VerifyStatus::AuthRequired,
        Some(300..=399) => VerifyStatus::Redirect,
        Some(_) => VerifyStatus::Error,
        None => VerifyStatus::Failure,
    }
}

/// What a document fetch of a URL found, kept for the URL's verification (small: one per document).
#[derive(Debug, Clone)]
pub(crate) struct Fetched {
    status: VerifyStatus,
    http_status: Option<u16>,
    target: Option<String>,
    failure: Option<wellknown_core::FetchFailure>,
    at: Timestamp,
}

impl Fetched {
    pub(crate) fn new(meta: &FetchMeta) -> Fetched {
        let (status, target) = classify(meta);
        let http_status = http_status(meta, status);
        Fetched { status, http_status, target, failure: meta.failure.clone(), at: meta.fetched_at }
    }
}

/// The verdict of a document fetch of the same URL made earlier in this scan.
pub(crate) fn from_document(kind: CandidateKind, value: &str, unit: &str, f: &Fetched) -> VerificationRecord {
    VerificationRecord {
        kind,
        value: value.to_string(),
        origin: unit.to_string(),
        status: f.status,
        http_status: f.http_status,
        target: f.target.clone(),
        method: Some(Method::Get),
        failure: f.failure.clone(),
        source: VerifySource::Document,
        verified_at: f.at,
    }
}

/// Body cap of the GET fallback: enough to complete a small response, nothing more is read.
const GET_FALLBACK_MAX_BODY: u64 = 1024;

/// Verifies one in-scope URL with HEAD (GET on 405/501). Returns the record and the number of
/// requests sent (0 when refused before sending, e.g. by robots.txt).
pub(crate) async fn request(
    cx: &ScanContext,
    kind: CandidateKind,
    value: &str,
    url: Url,
    unit: &str,
) -> (VerificationRecord, usize) {
    let policy = FetchPolicy { max_body_bytes: 0, decode_content_encoding: false, ..FetchPolicy::default() };
    let head = FetchRequest { url: url.clone(), method: Method::Head, policy, headers: Vec::new() };
    let mut method = Method::Head;
    let mut sent = 0;
    let result = if let Some(skipped) = cx.reach.skip_verification(&url, cx.net.clock.now()) {
        skipped
    } else {
        let mut result = cx.request(head).await;
        cx.reach.learn_verification(&url, &result.meta);
        sent += usize::from(sent_something(&result.meta));
        if matches!(result.meta.status, Some(405 | 501)) && result.meta.failure.is_none() {
            let policy = FetchPolicy {
                max_body_bytes: GET_FALLBACK_MAX_BODY,
                decode_content_encoding: false,
                ..FetchPolicy::default()
            };
            result = cx.request(FetchRequest::get(url.clone(), policy)).await;
            cx.reach.learn_verification(&url, &result.meta);
            method = Method::Get;
            sent += usize::from(sent_something(&result.meta));
        }
        result
    };
    let meta = &result.meta;
    let (status, target) = classify(meta);
    let record = VerificationRecord {
        kind,
        value: value.to_string(),
        origin: unit.to_string(),
        status,
        http_status: http_status(meta, status),
        target,
        method: (sent > 0).then_some(method),
        failure: meta.failure.clone(),
        source: if sent > 0 { VerifySource::Request } else { VerifySource::NotRequested },
        verified_at: meta.fetched_at,
    };
    (record, sent)
}

/// False when the request was refused before anything was sent (scope, robots.txt, scheme, the
/// private-address rule, or a host rate-limited by an earlier answer, on the first hop).
pub(crate) fn sent_something(meta: &FetchMeta) -> bool {
    !meta.failure.as_ref().is_some_and(|f| {
        let refused = matches!(
            f.class,
            FailureClass::OutOfScope
                | FailureClass::RobotsDisallowed
                | FailureClass::UnsupportedUrl
                | FailureClass::PrivateAddress
        ) || (f.class == FailureClass::RateLimited && meta.status.is_none());
        refused && meta.redirect_chain.is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::{FetchFailure, RedirectHop};

    fn meta(status: Option<u16>) -> FetchMeta {
        let mut m = FetchMeta::synthetic(Url::parse("https://a.example/x").unwrap(), None, Timestamp::UNIX_EPOCH);
        m.status = status;
        m
    }

    #[test]
    fn statuses_map_to_verdicts() {
        assert_eq!(classify(&meta(Some(200))).0, VerifyStatus::Alive);
        assert_eq!(classify(&meta(Some(204))).0, VerifyStatus::Alive);
        assert_eq!(classify(&meta(Some(404))).0, VerifyStatus::Gone);
        assert_eq!(classify(&meta(Some(410))).0, VerifyStatus::Gone);
        assert_eq!(classify(&meta(Some(401))).0, VerifyStatus::AuthRequired);
        assert_eq!(classify(&meta(Some(403))).0, VerifyStatus::AuthRequired);
        assert_eq!(classify(&meta(Some(500))).0, VerifyStatus::Error);
        assert_eq!(classify(&meta(Some(304))).0, VerifyStatus::Redirect);
    }

    #[test]
    fn redirects_keep_the_first_target() {
        let mut m = meta(Some(200));
        m.redirect_chain = vec![
            RedirectHop { url: Url::parse("https://a.example/x").unwrap(), status: 301 },
            RedirectHop { url: Url::parse("https://a.example/y").unwrap(), status: 302 },
        ];
        m.url = Url::parse("https://a.example/z").unwrap();
        assert_eq!(classify(&m), (VerifyStatus::Redirect, Some("https://a.example/y".into())));
        m.redirect_chain.truncate(1);
        assert_eq!(classify(&m), (VerifyStatus::Redirect, Some("https://a.example/z".into())));
        // A redirect out of scope was refused: still a redirect, to the refused URL.
        m.status = None;
        m.url = Url::parse("https://elsewhere.example/").unwrap();
        m.failure = Some(FetchFailure { class: FailureClass::OutOfScope, message: String::new() });
        assert_eq!(classify(&m), (VerifyStatus::Redirect, Some("https://elsewhere.example/".into())));
        assert_eq!(http_status(&m, VerifyStatus::Redirect), Some(301), "the redirect's own status");
        assert_eq!(http_status(&m, VerifyStatus::Dns), None, "no response at the end of the chain");
    }

    #[test]
    fn failures_map_to_classes() {
        for (class, want) in [
            (FailureClass::DnsNxdomain, VerifyStatus::Dns),
            (FailureClass::ConnectRefused, VerifyStatus::Connect),
            (FailureClass::Tls, VerifyStatus::Tls),
            (FailureClass::Timeout, VerifyStatus::Timeout),
            (FailureClass::SlowTransfer, VerifyStatus::Timeout),
            (FailureClass::RateLimited, VerifyStatus::Failure),
            (FailureClass::Protocol, VerifyStatus::Failure),
            (FailureClass::OutOfScope, VerifyStatus::OutOfScope),
            (FailureClass::RobotsDisallowed, VerifyStatus::DisallowedByRobots),
            (FailureClass::PrivateAddress, VerifyStatus::PrivateAddress),
        ] {
            let mut m = meta(None);
            m.failure = Some(FetchFailure { class, message: String::new() });
            assert_eq!(classify(&m).0, want, "{class}");
        }
        let mut m = meta(Some(429));
        m.failure = Some(FetchFailure { class: FailureClass::RateLimited, message: String::new() });
        assert_eq!(classify(&m).0, VerifyStatus::Error, "the 429 that set the limit is a status");
    }

    #[test]
    fn a_private_address_refusal_sent_nothing_unless_it_came_after_a_redirect() {
        let mut m = meta(None);
        m.failure = Some(FetchFailure { class: FailureClass::PrivateAddress, message: String::new() });
        assert_eq!(classify(&m), (VerifyStatus::PrivateAddress, None));
        assert!(!sent_something(&m));
        m.redirect_chain = vec![RedirectHop { url: Url::parse("https://a.example/x").unwrap(), status: 302 }];
        m.url = Url::parse("http://169.254.169.254/latest/").unwrap();
        assert_eq!(classify(&m), (VerifyStatus::Redirect, Some("http://169.254.169.254/latest/".into())));
        assert_eq!(http_status(&m, VerifyStatus::Redirect), Some(302));
        assert!(sent_something(&m), "the first hop was requested");
    }

    #[test]
    fn names_round_trip() {
        for s in VerifyStatus::ALL {
            assert_eq!(VerifyStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(serde_json::to_value(VerifyStatus::AuthRequired).unwrap(), "auth_required");
    }
}
