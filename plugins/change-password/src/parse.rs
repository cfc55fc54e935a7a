//! The pure interpreters: the change password URL's response ([`interpret`] for 2xx,
//! [`interpret_unavailable`] otherwise) and the status-reliability check ([`apply_status_check`]).
//!
//! No I/O, no clock, no panics. Every candidate has relation [`RELATION`] and kind `url`, and the
//! hint `via`: `http_redirect`, `meta_refresh` or `served_directly`.

use url::Url;
use wellknown_core::diag::codes as shared;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Locator, Report};

use crate::{codes, refresh};

/// Body cap (bytes after content decoding): the body is only searched for a meta refresh, which
/// sits in the `<head>`, so a truncated page loses nothing that matters.
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

/// Relation of the change password page candidate.
pub const RELATION: &str = "change_password";

/// Interprets a 2xx answer to `/.well-known/change-password` (after any redirects).
///
/// Report kind: `redirect` (HTTP redirects were followed), `meta_refresh` (the body redirects), or
/// `page` (served directly). Candidates: `url` [`RELATION`] = the first redirect target, the meta
/// refresh URL resolved against the final URL, or the final URL itself, with hints `via`,
/// `redirect_status` (first hop), `final_url` and `final_status` when the chain went on; plus `host`
/// [`RELATION`] when that page is on another host. Facts: `redirected`, `change_password_url`.
/// Diagnostics: `insecure_transport` (error, the origin is not https), `served_at_well_known`,
/// `invalid_refresh`, `insecure_target` (warnings).
pub fn interpret(body: &[u8], meta: &FetchMeta) -> Report {
    let kind = if meta.was_redirected() { "redirect" } else { "page" };
    let mut report = Report::new(crate::PROBE_ID, &meta.url, kind);
    let expected = format!("/.well-known/{}", crate::SUFFIX);
    if meta.requested_url.path() != expected {
        report.kind = "invalid".to_string();
        report.warn(
            codes::WRONG_LOCATION,
            format!(
                "requested at {}; only {expected} of an origin is its change password URL, so this declares none",
                meta.requested_url
            ),
            None,
        );
        return report;
    }
    check_origin(&mut report, meta);
    if meta.was_redirected() {
        redirect_candidate(&mut report, meta);
        return report;
    }
    if let Some(r) = refresh::find(body) {
        let resolved = r.url.as_deref().and_then(|u| meta.url.join(u).ok()).filter(is_http);
        match resolved {
            Some(target) => {
                report.kind = "meta_refresh".to_string();
                push_target(&mut report, meta, &target, "meta_refresh", Some(Locator::Line(r.line)));
                return report;
            }
            None => report.warn(
                codes::INVALID_REFRESH,
                format!("the meta refresh names no usable http(s) URL ({:?})", r.url.unwrap_or_default()),
                Some(Locator::Line(r.line)),
            ),
        }
    }
    report.warn(
        codes::SERVED_AT_WELL_KNOWN,
        "the page is served at the change password URL itself; servers should redirect to the actual page",
        None,
    );
    push_target(&mut report, meta, &meta.url, "served_directly", None);
    report
}

/// Interprets a non-2xx or failed answer. A redirect still declares where the change password page
/// is, whether it was followed or not (out of scope, or to a non-http(s) URL the fetcher keeps in
/// `unfollowed_location`), so a report with that candidate is returned (kind `redirect`, hint
/// `final_status` or `failure`; `target_not_found` when the page answered 404 or 410). Without a
/// redirect there is no change password URL: None.
pub fn interpret_unavailable(meta: &FetchMeta) -> Option<Report> {
    if !meta.was_redirected() && meta.unfollowed_location.is_none() {
        return None;
    }
    let mut report = Report::new(crate::PROBE_ID, &meta.url, "redirect");
    check_origin(&mut report, meta);
    redirect_candidate(&mut report, meta);
    if let Some(f) = &meta.failure {
        report.candidates.set_hint(0, "failure", f.class.as_str());
    } else if let Some(status @ (404 | 410)) = meta.status {
        report.warn(codes::TARGET_NOT_FOUND, format!("the change password page answered {status}"), None);
    }
    Some(report)
}

/// Records the status-reliability check (`check` = the fetch of the resource that should not exist)
/// in the change password URL's `report`: fact `status_codes_reliable` (true for a non-2xx answer,
/// false for 2xx, absent when the check failed), fact `status_check_status`, and for 2xx the warning
/// `unreliable_status_codes` and the flag `unreliable_status` on every candidate.
pub fn apply_status_check(report: &mut Report, check: &FetchMeta) {
    if check.failure.is_some() || check.status.is_none() {
        report.fact("status_check", "failed");
        return;
    }
    report.fact("status_check_status", check.status.unwrap_or_default());
    let ok = check.is_success();
    report.fact("status_codes_reliable", !ok);
    if ok {
        report.warn(
            codes::UNRELIABLE_STATUS_CODES,
            format!(
                "{} answered {}, so a 2xx from this origin proves nothing",
                check.requested_url,
                check.status.unwrap_or_default()
            ),
            None,
        );
        for i in 0..report.candidates.len() {
            report.candidates.add_flag(i, "unreliable_status");
        }
    }
}

/// The report of the status-check document itself: kind `status_check`, fact
/// `status_codes_reliable` (absent when the fetch failed), no candidates.
pub fn status_check_report(check: &FetchMeta) -> Report {
    let mut r = Report::new(crate::PROBE_ID, &check.url, "status_check");
    if check.failure.is_none() && check.status.is_some() {
        r.fact("status_codes_reliable", !check.is_success());
    }
    r
}

/// `insecure_transport`: "Only origins whose scheme is https may have a change password url."
fn check_origin(report: &mut Report, meta: &FetchMeta) {
    if meta.requested_url.scheme() != "https" {
        report.error(
            shared::INSECURE_TRANSPORT,
            "only https origins may have a change password URL (spec section 2)",
            None,
        );
    }
}

/// The candidate for a redirect: the first hop's target, from the `Location` header of the first
/// response (locator `{"redirect": 0}`). When that very response's redirect could not be followed
/// (not an http(s) URL: `redirect_chain` is empty and `url` is the well-known URL), its target is
/// `unfollowed_location` and there is no final URL or status beyond it.
/// Flag of a candidate whose URL came from a `Location` that carried a user name or password (dropped
/// from the value), as the engine flags its `redirect_location` candidates.
pub const CREDENTIALS_FLAG: &str = wellknown_core::candidate::flags::CREDENTIALS_IN_URL;

fn redirect_candidate(report: &mut Report, meta: &FetchMeta) {
    let unfollowed_first = meta.redirect_chain.is_empty().then_some(meta.unfollowed_location.as_ref()).flatten();
    let target = match unfollowed_first {
        Some(location) => location,
        None => meta.redirect_chain.get(1).map_or(&meta.url, |hop| &hop.url),
    }
    .clone();
    push_target(report, meta, &target, "http_redirect", Some(Locator::Redirect(0)));
    let list = &mut report.candidates;
    if meta.location_credentials.contains(&0) {
        // The fetcher dropped a user name or password from the Location that named the page.
        for i in 0..list.len() {
            list.add_flag(i, CREDENTIALS_FLAG);
        }
    }
    let first_status = meta.redirect_chain.first().map(|hop| hop.status).or(unfollowed_first.and(meta.status));
    if let Some(status) = first_status {
        list.set_hint(0, "redirect_status", &status.to_string());
    }
    if unfollowed_first.is_some() {
        return;
    }
    if target != meta.url {
        list.set_hint(0, "final_url", meta.url.as_str());
    }
    if let Some(s) = meta.status {
        list.set_hint(0, "final_status", &s.to_string());
    }
}

/// Adds the `url` candidate (and the `host` one when it is on another host), its facts and the
/// `insecure_target` warning.
fn push_target(report: &mut Report, meta: &FetchMeta, target: &Url, via: &str, locator: Option<Locator>) {
    report.candidate(
        Candidate::new(CandidateKind::Url, RELATION, target.as_str(), locator.clone()).with_hint("via", via),
    );
    if let Some(host) = target.host_str().filter(|h| Some(*h) != meta.requested_url.host_str()) {
        report.candidate(Candidate::new(CandidateKind::Host, RELATION, host, locator));
    }
    report.fact("redirected", via != "served_directly");
    report.fact("change_password_url", target.as_str());
    if target.scheme() == "http" && meta.requested_url.scheme() == "https" {
        report.warn(codes::INSECURE_TARGET, format!("the change password page {target} is not https"), None);
    }
}

fn is_http(u: &Url) -> bool {
    matches!(u.scheme(), "http" | "https") && u.host_str().is_some()
}

#[cfg(test)]
mod tests {
    use wellknown_core::{FailureClass, FetchFailure, RedirectHop, Timestamp};

    use super::*;

    const WK: &str = "https://www.example.com/.well-known/change-password";

    fn meta(chain: &[(&str, u16)], final_url: &str, status: u16) -> FetchMeta {
        let mut m = FetchMeta::synthetic(Url::parse(final_url).unwrap(), Some("text/html"), Timestamp::UNIX_EPOCH);
        m.requested_url = Url::parse(chain.first().map_or(final_url, |c| c.0)).unwrap();
        m.redirect_chain = chain.iter().map(|(u, s)| RedirectHop { url: Url::parse(u).unwrap(), status: *s }).collect();
        m.status = Some(status);
        m
    }

    fn codes_of(r: &Report) -> Vec<&str> {
        r.errors.iter().chain(&r.warnings).map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn redirect_to_the_page() {
        let m = meta(&[(WK, 302)], "https://www.example.com/account/password", 200);
        let r = interpret(b"<html>form</html>", &m);
        assert_eq!(r.kind, "redirect");
        assert!(codes_of(&r).is_empty(), "{:?}", codes_of(&r));
        assert_eq!(r.values(CandidateKind::Url).collect::<Vec<_>>(), ["https://www.example.com/account/password"]);
        let c = &r.candidates.get(0).unwrap();
        assert_eq!(
            (c.relation(), c.hint("via").unwrap(), c.hint("redirect_status").unwrap()),
            (RELATION, "http_redirect", "302")
        );
        assert!(c.hint("final_url").is_none());
        assert_eq!(c.locator(), Some(Locator::Redirect(0)), "the Location header of the first response");
        assert_eq!(r.values(CandidateKind::Host).count(), 0);
        assert_eq!(r.facts["redirected"], true);
    }

    #[test]
    fn credentials_in_the_location_are_flagged() {
        let mut m = meta(&[(WK, 302)], "https://accounts.example.org/password", 200);
        m.location_credentials = vec![0];
        let r = interpret(b"<html>form</html>", &m);
        assert_eq!(r.candidates.len(), 2, "the page and its other host");
        assert!(r.candidates.iter().all(|c| c.has_flag(CREDENTIALS_FLAG)));
        m.location_credentials = vec![1];
        let r = interpret(b"<html>form</html>", &m);
        assert!(r.candidates.iter().all(|c| !c.has_flag(CREDENTIALS_FLAG)), "a later hop did not name the page");
    }

    #[test]
    fn redirect_chain_keeps_the_first_target_and_the_other_host() {
        let m = meta(
            &[(WK, 301), ("https://appleid.example.net/account/manage", 302)],
            "https://appleid.example.net/sign-in?next=%2Faccount%2Fmanage",
            200,
        );
        let r = interpret(b"", &m);
        let c = &r.candidates.get(0).unwrap();
        assert_eq!(c.value(), "https://appleid.example.net/account/manage");
        assert_eq!(c.hint("final_url").unwrap(), "https://appleid.example.net/sign-in?next=%2Faccount%2Fmanage");
        assert_eq!((c.hint("redirect_status").unwrap(), c.hint("final_status").unwrap()), ("301", "200"));
        assert_eq!(r.values(CandidateKind::Host).collect::<Vec<_>>(), ["appleid.example.net"]);
    }

    #[test]
    fn meta_refresh_and_direct_page() {
        let m = meta(&[], WK, 200);
        let r = interpret(b"<html>\n<head><meta http-equiv=refresh content=\"0;url=/settings#password\">", &m);
        assert_eq!(r.kind, "meta_refresh");
        assert!(codes_of(&r).is_empty());
        assert_eq!(r.candidates.get(0).unwrap().value(), "https://www.example.com/settings#password");
        assert_eq!(r.candidates.get(0).unwrap().locator(), Some(Locator::Line(2)));
        assert_eq!(r.candidates.get(0).unwrap().hint("via").unwrap(), "meta_refresh");

        let r = interpret(b"<html><form>new password</form></html>", &m);
        assert_eq!((r.kind.as_str(), codes_of(&r)), ("page", vec!["served_at_well_known"]));
        assert_eq!(r.candidates.get(0).unwrap().value(), WK);
        assert_eq!(r.facts["redirected"], false);

        let r = interpret(b"<meta http-equiv=refresh content='0; url=javascript:alert(1)'>", &m);
        assert_eq!(codes_of(&r), ["invalid_refresh", "served_at_well_known"]);
        assert_eq!(r.candidates.get(0).unwrap().value(), WK);
    }

    #[test]
    fn insecure_origin_and_target() {
        let m = meta(&[("http://www.example.com/.well-known/change-password", 302)], "http://www.example.com/pw", 200);
        assert_eq!(codes_of(&interpret(b"", &m)), ["insecure_transport"]);
        let m = meta(&[(WK, 302)], "http://www.example.com/pw", 200);
        assert_eq!(codes_of(&interpret(b"", &m)), ["insecure_target"]);
    }

    #[test]
    fn unavailable() {
        assert_eq!(interpret_unavailable(&meta(&[], WK, 404)), None);
        let r = interpret_unavailable(&meta(&[(WK, 302)], "https://www.example.com/gone", 404)).unwrap();
        assert_eq!(codes_of(&r), ["target_not_found"]);
        assert_eq!(r.candidates.get(0).unwrap().value(), "https://www.example.com/gone");
        let r = interpret_unavailable(&meta(&[(WK, 302)], "https://www.example.com/login", 401)).unwrap();
        assert!(codes_of(&r).is_empty());
        assert_eq!(r.candidates.get(0).unwrap().hint("final_status").unwrap(), "401");
        let mut m = meta(&[(WK, 302)], "https://other.example.org/pw", 302);
        m.status = None;
        m.failure = Some(FetchFailure { class: FailureClass::OutOfScope, message: "outside".into() });
        let r = interpret_unavailable(&m).unwrap();
        assert_eq!(r.candidates.get(0).unwrap().value(), "https://other.example.org/pw");
        assert_eq!(r.candidates.get(0).unwrap().hint("failure").unwrap(), "out_of_scope");
        assert_eq!(r.candidates.get(0).unwrap().locator(), Some(Locator::Redirect(0)), "the first Location");
    }

    #[test]
    fn a_redirect_that_cannot_be_followed_still_declares_its_target() {
        // The well-known URL itself answered 301 to an ftp URL: `url` and `status` are that response's.
        let mut m = meta(&[], WK, 301);
        m.unfollowed_location = Some(Url::parse("ftp://files.example.org/pw").unwrap());
        m.failure = Some(FetchFailure { class: FailureClass::InvalidRedirect, message: "not http(s)".into() });
        let r = interpret_unavailable(&m).unwrap();
        let c = r.candidates.get(0).unwrap();
        assert_eq!((c.value(), c.locator()), ("ftp://files.example.org/pw", Some(Locator::Redirect(0))));
        assert_eq!(
            (c.hint("redirect_status"), c.hint("failure"), c.hint("final_url"), c.hint("final_status")),
            (Some("301"), Some("invalid_redirect"), None, None)
        );
        assert_eq!(r.values(CandidateKind::Host).collect::<Vec<_>>(), ["files.example.org"]);
        // After an in-scope hop, the first target is the URL that answered with the bad redirect.
        let mut m = meta(&[(WK, 302)], "https://www.example.com/pw", 302);
        m.unfollowed_location = Some(Url::parse("mailto:help@example.com").unwrap());
        m.failure = Some(FetchFailure { class: FailureClass::InvalidRedirect, message: "not http(s)".into() });
        let r = interpret_unavailable(&m).unwrap();
        let c = r.candidates.get(0).unwrap();
        assert_eq!(c.value(), "https://www.example.com/pw");
        assert_eq!((c.hint("redirect_status"), c.hint("final_status")), (Some("302"), Some("302")));
        // A redirect that names nothing (no Location) declares nothing.
        let mut m = meta(&[], WK, 302);
        m.failure = Some(FetchFailure { class: FailureClass::InvalidRedirect, message: "no Location".into() });
        assert_eq!(interpret_unavailable(&m), None);
    }

    #[test]
    fn status_check() {
        let page = meta(&[], WK, 200);
        let check_url = format!("https://www.example.com/.well-known/{}", crate::STATUS_CHECK_SUFFIX);
        let mut r = interpret(b"", &page);
        apply_status_check(&mut r, &meta(&[], &check_url, 404));
        assert_eq!(
            (r.facts["status_codes_reliable"].clone(), r.facts["status_check_status"].clone()),
            (true.into(), 404.into())
        );
        assert!(!r.candidates.get(0).unwrap().has_flag("unreliable_status"));

        let mut r = interpret(b"", &page);
        apply_status_check(&mut r, &meta(&[], &check_url, 200));
        assert_eq!(r.facts["status_codes_reliable"], false);
        assert_eq!(codes_of(&r), ["served_at_well_known", "unreliable_status_codes"]);
        assert!(r.candidates.get(0).unwrap().has_flag("unreliable_status"));
        assert_eq!(r.candidates.get(0).unwrap().relation(), RELATION, "the candidate survives the flagging");
        assert_eq!(status_check_report(&meta(&[], &check_url, 200)).facts["status_codes_reliable"], false);

        let mut failed = meta(&[], &check_url, 0);
        failed.status = None;
        failed.failure = Some(FetchFailure { class: FailureClass::Timeout, message: "slow".into() });
        let mut r = interpret(b"", &page);
        apply_status_check(&mut r, &failed);
        assert_eq!(r.facts["status_check"], "failed");
        assert!(!r.facts.contains_key("status_codes_reliable"));
        assert!(status_check_report(&failed).facts.is_empty());
    }
}
