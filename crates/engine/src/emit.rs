//! Emission: a unit's documents become `document`, `diagnostic`, `candidate`, `evidence` and
//! `inventory` records; follow-ups join the unit's queue; candidate URLs are offered to the unit's
//! verifier. Runs on the unit's coordinator, one document at a time: a document's records stay
//! together and in document order, documents come in the order their fetches end.

use tokio::sync::mpsc;
use url::Url;
use wellknown_core::{CandidateKind, Evidence, Severity};

use crate::budget::Budget;
use crate::compact::Prepared;
use crate::context::ScanContext;
use crate::engine::Engine;
use crate::schedule::UnitRun;
use crate::shared::{Shared, lock};
use crate::verify;
use wellknown_records::{CandidateRecord, DiagnosticRecord, DocumentRecord, EvidenceRecord, Record};

/// Flag of the candidates of a document whose answer matched its origin's answer for a random
/// path (`calibrate.rs`): recorded, never verified, revealing nothing.
pub const CATCH_ALL_FLAG: &str = "catch_all";

/// Diagnostic code of such a document (the shared code of `wellknown_core::diag::codes`).
pub const CATCH_ALL_CODE: &str = wellknown_core::diag::codes::CATCH_ALL;

impl Engine {
    /// Emits one document of `run`: its record, its report (diagnostics, candidates, follow-ups) and
    /// the candidate of a redirect it did not follow. `catch_all`: the document answered like a
    /// random path of its origin (`calibrate.rs`).
    pub(crate) async fn emit_document(
        &self,
        run: &mut UnitRun,
        prepared: Prepared,
        hop: u32,
        catch_all: bool,
        (cx, shared, out): (&ScanContext, &Shared, &mpsc::Sender<Record>),
    ) {
        let (doc, candidates) = prepared.into_parts();
        run.documents += 1;
        self.progress.document();
        let meta = &doc.meta;
        // Answered without a request: its origin was found unreachable earlier in this unit.
        let not_attempted = meta.failure.is_some() && cx.reach.take_skipped(meta.requested_url.as_str());
        let redirected_out = redirected_out_of_scope(meta);
        let redirected_private = redirected_to_private(meta);
        note_answer(meta, &mut run.reachable, &mut run.failures);
        if self.config.verify
            && !not_attempted
            && (redirected_out
                || (verify::sent_something(meta)
                    && meta.failure.as_ref().is_none_or(|f| !refused_before_sending(f.class))))
        {
            lock(&shared.fetched).entry(meta.requested_url.to_string()).or_insert_with(|| verify::Fetched::new(meta));
        }
        let report = doc.report.as_ref();
        let doc_url = meta.url.to_string();
        let mut facts = report.map(|r| r.facts.clone()).unwrap_or_default();
        if !meta.location_credentials.is_empty() {
            // The fetcher dropped them from every URL; the document still says they were there.
            facts.insert(CREDENTIALS_FACT.to_string(), serde_json::json!(meta.location_credentials));
        }
        let record = DocumentRecord {
            probe: doc.probe.clone(),
            role: doc.role.clone(),
            origin: run.label.clone(),
            hop,
            requested_url: meta.requested_url.to_string(),
            url: doc_url.clone(),
            status: meta.status,
            redirect_chain: meta.redirect_chain.clone(),
            content_type: meta.content_type.clone(),
            size: meta.size,
            sha256: meta.sha256.clone(),
            truncated: meta.truncated,
            fetched_at: meta.fetched_at,
            failure: meta.failure.clone(),
            kind: report.map(|r| r.kind.clone()),
            valid: report.map(wellknown_core::Report::valid),
            facts,
            via: cx.via.as_ref().map(|v| v.address.to_string()),
            not_attempted,
            retry_after_secs: meta.retry_after_secs,
            catch_all,
        };
        {
            let ok = meta.is_success() && meta.failure.is_none();
            let mut t = lock(&shared.totals);
            t.documents += 1;
            if ok {
                t.documents_found += 1;
            }
            if catch_all {
                t.documents_catch_all += 1;
            } else if wellknown_records::recognised(ok, report, !candidates.is_empty()) {
                t.documents_recognised += 1;
            }
            if redirected_out {
                t.redirected_out_of_scope += 1;
            } else if redirected_private {
                t.redirected_to_private += 1;
            } else if let Some(f) = &meta.failure
                && fetch_failed(meta)
            {
                t.fetch_failures += 1;
                *t.failures_by_class.entry(f.class.as_str().to_string()).or_default() += 1;
            }
            if not_attempted {
                t.documents_not_attempted += 1;
            }
        }
        let _ = out.send(Record::Document(record)).await;
        let redirect = redirect_candidate(&doc.probe, meta);
        if let Some(report) = doc.report {
            self.emit_report(run, report, candidates, (&doc.probe, meta), hop, catch_all, (shared, out)).await;
        }
        if let Some((c, evidence)) = redirect {
            self.sighting(run, c, evidence, shared, out).await;
        }
    }

    /// A document's diagnostics, candidates (first sightings and further evidence) and follow-ups.
    #[allow(clippy::too_many_arguments)]
    async fn emit_report(
        &self,
        run: &mut UnitRun,
        report: wellknown_core::Report,
        candidates: wellknown_core::Candidates,
        (probe, meta): (&str, &wellknown_core::FetchMeta),
        hop: u32,
        catch_all: bool,
        (shared, out): (&Shared, &mpsc::Sender<Record>),
    ) {
        // The response a report is about: the final one; for a redirect out of scope or into a
        // refused private address (whose `url` is the refused target, never requested) the redirect
        // itself, named by the requested URL.
        let (doc_url, doc_status) = if redirected_out_of_scope(meta) || redirected_to_private(meta) {
            (&meta.requested_url, meta.redirect_chain.last().map(|h| h.status))
        } else {
            (&meta.url, meta.status)
        };
        let (mut errors, mut warnings) = (0, 0);
        let catch_all_diagnostic = catch_all.then(|| wellknown_core::Diagnostic {
            severity: Severity::Warning,
            code: CATCH_ALL_CODE.to_string(),
            message: format!(
                "the origin answers this path as it answers a random one (same status, media type and body): \
                 not a {probe} document, whatever it reads as; its candidates are flagged {CATCH_ALL_FLAG}"
            ),
            locator: None,
        });
        for d in report.errors.iter().chain(&report.warnings).chain(catch_all_diagnostic.as_ref()) {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            let rec = DiagnosticRecord {
                document: doc_url.to_string(),
                probe: probe.to_string(),
                severity: d.severity,
                code: d.code.clone(),
                message: d.message.clone(),
                locator: d.locator.clone(),
            };
            let _ = out.send(Record::Diagnostic(rec)).await;
        }
        {
            let mut t = lock(&shared.totals);
            t.errors += errors;
            t.warnings += warnings;
        }
        run.revealed_in_document = 0;
        let total = candidates.len();
        for (i, c) in candidates.iter().enumerate() {
            if run.sightings >= self.config.max_candidates_per_unit {
                run.spent.skip(Budget::Candidates, u64::try_from(total - i).unwrap_or(u64::MAX));
                break;
            }
            let mut c = c.to_candidate();
            if catch_all {
                c.flags.push(CATCH_ALL_FLAG.to_string());
            }
            let evidence = Evidence {
                document_url: doc_url.clone(),
                probe: probe.to_string(),
                fetched_at: meta.fetched_at,
                status: doc_status,
                locator: c.locator.clone(),
            };
            self.sighting(run, c, evidence, shared, out).await;
        }
        if catch_all {
            // A page every path answers declares nothing to follow.
            return;
        }
        for mut f in report.follow_ups {
            // A document that names a URL with `user:password@` does not make the scan send them.
            let _ = f.url.set_username("");
            let _ = f.url.set_password(None);
            run.enqueue_follow_up(f, hop + 1, meta.url.clone(), (self.config.max_follow_ups_per_origin, shared));
        }
    }

    /// One sighting of a candidate: its first in this scan is a `candidate` record (offered for
    /// verification, followed by the inventory records it causes), later ones `evidence` records.
    /// Each counts against the unit's `max_candidates_per_unit`.
    pub(crate) async fn sighting(
        &self,
        run: &mut UnitRun,
        c: wellknown_core::Candidate,
        evidence: Evidence,
        shared: &Shared,
        out: &mpsc::Sender<Record>,
    ) {
        let mut c = c;
        drop_credentials(&mut c);
        run.sightings += 1;
        if !shared.first_sighting(c.kind, &c.value) {
            lock(&shared.totals).evidence += 1;
            let rec = Record::Evidence(EvidenceRecord {
                kind: c.kind,
                relation: c.relation,
                value: c.value,
                hints: c.hints,
                flags: c.flags,
                evidence,
            });
            let _ = out.send(rec).await;
            return;
        }
        run.candidates += 1;
        lock(&shared.totals).candidates += 1;
        let in_scope = self.in_scope(c.kind, &c.value);
        // A redirect target refused by the private-address rule, or a value read from a page every
        // path answers: recorded, nothing to verify or scan.
        let refused =
            (c.relation == REDIRECT_RELATION && c.has_flag(PRIVATE_ADDRESS_FLAG)) || c.has_flag(CATCH_ALL_FLAG);
        // Out of scope: the candidate record says so (`in_scope: false`); nothing to verify.
        if self.config.verify && verify::verifiable(c.kind) && in_scope != Some(false) && !refused {
            run.verifier.offer(c.kind, c.value.clone());
        }
        let (kind, value) = (c.kind, c.value.clone());
        let rec = Record::Candidate(CandidateRecord {
            in_scope,
            kind: c.kind,
            relation: c.relation,
            value: c.value,
            hints: c.hints,
            flags: c.flags,
            evidence,
        });
        let _ = out.send(rec).await;
        if !refused {
            self.reveal(run, kind, &value, shared, out).await;
        }
    }

    /// Scope of a candidate value, for kinds that name a host.
    fn in_scope(&self, kind: CandidateKind, value: &str) -> Option<bool> {
        match kind {
            CandidateKind::Url
            | CandidateKind::Sitemap
            | CandidateKind::Endpoint
            | CandidateKind::Issuer
            | CandidateKind::Origin => Url::parse(value).ok().map(|u| self.config.scope.contains_url(&u)),
            CandidateKind::Host => wellknown_core::Host::parse(value).ok().map(|h| self.config.scope.contains_host(&h)),
            _ => None,
        }
    }
}

/// True when the fetch stopped at a redirect whose target is outside the scope: the server answered
/// (the last hop of `redirect_chain`), and the refused target is `meta.url`.
pub(crate) fn redirected_out_of_scope(meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::OutOfScope)
        && !meta.redirect_chain.is_empty()
}

/// True when the fetch stopped at a redirect whose target the private-address rule refused (no
/// `--allow-private`): the server answered (the last hop of `redirect_chain`), the refused target is
/// `meta.url`, and nothing was sent to it.
pub(crate) fn redirected_to_private(meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::PrivateAddress)
        && !meta.redirect_chain.is_empty()
}

/// True when the document's server answered: an HTTP status, or a redirect the scan declined to
/// follow (out of scope, or into a refused private address), whose status is in `redirect_chain`.
/// An answer makes its unit reachable, whether the unit fetched it or shares the visit.
pub(crate) fn answered(meta: &wellknown_core::FetchMeta) -> bool {
    meta.status.is_some() || redirected_out_of_scope(meta) || redirected_to_private(meta)
}

/// Notes what a fetch says of its origin: an answer ([`answered`]: a redirect out of scope or into a
/// refused private address is one, the origin responded and the scan declined to follow) sets
/// `reached`; a fetch without one adds its failure class to `failures`.
pub(crate) fn note_answer(meta: &wellknown_core::FetchMeta, reached: &mut bool, failures: &mut Vec<String>) {
    if answered(meta) {
        *reached = true;
    } else if let Some(f) = &meta.failure {
        add_failure(failures, f.class.as_str());
    }
}

/// Adds failure class `class` to `failures` once.
pub(crate) fn add_failure(failures: &mut Vec<String>, class: &str) {
    if !failures.iter().any(|c| c == class) {
        failures.push(class.to_string());
    }
}

/// Flag of a [`REDIRECT_RELATION`] candidate whose target the private-address rule refused (a
/// redirect to `http://169.254.169.254/`, a loopback or an intranet address): recorded, never
/// requested, verified or scanned as a unit.
pub const PRIVATE_ADDRESS_FLAG: &str = "private_address";

/// True when the summary counts the document in `fetch_failures`: no HTTP response (DNS, connect,
/// TLS, timeout, refusals, not attempted), or a redirect the fetcher cannot follow
/// (`invalid_redirect`, whose status is kept). A redirect out of scope or into a refused private
/// address is an answer, counted apart ([`redirected_out_of_scope`], [`redirected_to_private`]); a
/// response left [`incomplete`] is one; a body cut at the scan's own cap (`body_too_large`) is not.
pub(crate) fn fetch_failed(meta: &wellknown_core::FetchMeta) -> bool {
    meta.failure.as_ref().is_some_and(|f| {
        (meta.status.is_none() && !redirected_out_of_scope(meta) && !redirected_to_private(meta))
            || f.class == wellknown_core::FailureClass::InvalidRedirect
            || incomplete(f.class)
    })
}

/// Failures that leave a response incomplete: the body did not arrive in time (`timeout`), arrived
/// too slowly (`slow_transfer`), was cut short or broke the protocol (`protocol`), or the server
/// asked the scan to come back much later (`rate_limited`). Counted as failed fetches even when a
/// status arrived.
pub(crate) fn incomplete(class: wellknown_core::FailureClass) -> bool {
    use wellknown_core::FailureClass as F;
    matches!(class, F::Timeout | F::Protocol | F::SlowTransfer | F::RateLimited)
}

/// Relation of the target of a redirect the scan did not follow: out of scope, or not an http(s)
/// URL (with a host, such as `ftp://files.example/a`).
pub const REDIRECT_RELATION: &str = "redirect_location";

/// Flag of a [`REDIRECT_RELATION`] candidate whose `Location` carried a user name or password
/// (RFC 3986 section 3.2.1 deprecates `user:password@`): the value is recorded without them.
pub const CREDENTIALS_FLAG: &str = wellknown_core::candidate::flags::CREDENTIALS_IN_URL;

/// Drops a user name or password from a URL-valued candidate a document declared (a robots.txt
/// `Sitemap:` or a sitemap `<loc>` written `https://user:pass@host/`), flagging it
/// [`CREDENTIALS_FLAG`]: credentials in a published document are a finding to report, not a value to
/// copy into every record, the store and the verification request.
pub(crate) fn drop_credentials(c: &mut wellknown_core::Candidate) {
    let url_valued = matches!(
        c.kind,
        CandidateKind::Url
            | CandidateKind::Sitemap
            | CandidateKind::Endpoint
            | CandidateKind::Issuer
            | CandidateKind::Origin
    );
    if !url_valued || !c.value.contains('@') {
        return;
    }
    let Ok(mut u) = Url::parse(&c.value) else { return };
    if u.username().is_empty() && u.password().is_none() {
        return;
    }
    let _ = u.set_username("");
    let _ = u.set_password(None);
    c.value = u.to_string();
    if !c.has_flag(CREDENTIALS_FLAG) {
        c.flags.push(CREDENTIALS_FLAG.to_string());
    }
}

/// Fact of a document record whose fetch met a `Location` with a user name or password: the hops
/// (as in `{"redirect": N}`) whose `Location` carried them. Every URL recorded is without them.
pub const CREDENTIALS_FACT: &str = "credentials_in_location";

/// The redirect a fetch did not follow, when its target is a relation the origin declares: (target,
/// index of the hop whose `Location` it was, status of that response). A redirect out of scope (the
/// target is `meta.url`, the response the last hop of `redirect_chain`), or an `invalid_redirect` to
/// a non-http(s) URL with a host (`meta.unfollowed_location`; the response is the final one, hop
/// `redirect_chain.len()`). A `mailto:` or an unparsable `Location` names no host: only the
/// document's failure message quotes it.
pub(crate) fn unfollowed_redirect(meta: &wellknown_core::FetchMeta) -> Option<(Url, u32, u16)> {
    if redirected_out_of_scope(meta) || redirected_to_private(meta) {
        let last = meta.redirect_chain.last()?;
        let hop = u32::try_from(meta.redirect_chain.len().saturating_sub(1)).unwrap_or(u32::MAX);
        return Some((meta.url.clone(), hop, last.status));
    }
    let invalid = meta.failure.as_ref().is_some_and(|f| f.class == wellknown_core::FailureClass::InvalidRedirect);
    let target = meta.unfollowed_location.as_ref().filter(|u| invalid && u.host().is_some())?;
    let hop = u32::try_from(meta.redirect_chain.len()).unwrap_or(u32::MAX);
    Some((target.clone(), hop, meta.status?))
}

/// The candidate a redirect that was not followed declares ([`unfollowed_redirect`]): `url`
/// [`REDIRECT_RELATION`] = its target, with evidence naming the document (its requested URL), the
/// status of the response that redirected and the locator `{"redirect": hop}` (that response's
/// `Location` header).
pub(crate) fn redirect_candidate(
    probe: &str,
    meta: &wellknown_core::FetchMeta,
) -> Option<(wellknown_core::Candidate, Evidence)> {
    let (target, hop, status) = unfollowed_redirect(meta)?;
    let locator = Some(wellknown_core::Locator::Redirect(hop));
    let mut c = wellknown_core::Candidate::new(CandidateKind::Url, REDIRECT_RELATION, target.as_str(), locator.clone());
    // Credentials in a Location header are a finding, not something to copy into every output and
    // store: the value is without them (the fetcher already dropped them, else `drop_credentials`
    // does) and the candidate flagged.
    if meta.location_credentials.contains(&hop) {
        c.flags.push(CREDENTIALS_FLAG.to_string());
    }
    if redirected_to_private(meta) {
        c.flags.push(PRIVATE_ADDRESS_FLAG.to_string());
    }
    drop_credentials(&mut c);
    let evidence = Evidence {
        document_url: meta.requested_url.clone(),
        probe: probe.to_string(),
        fetched_at: meta.fetched_at,
        status: Some(status),
        locator,
    };
    Some((c, evidence))
}

/// Failures that mean nothing was sent (no verdict to reuse).
pub(crate) fn refused_before_sending(class: wellknown_core::FailureClass) -> bool {
    use wellknown_core::FailureClass as F;
    matches!(class, F::OutOfScope | F::UnsupportedUrl | F::RobotsDisallowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::{FailureClass, FetchFailure, FetchMeta, RedirectHop, Timestamp};

    #[test]
    fn declared_urls_lose_their_credentials_and_are_flagged() {
        let mut c = wellknown_core::Candidate::new(
            CandidateKind::Sitemap,
            "robots_sitemap",
            "https://joe:hunter2@a.example/s.xml",
            None,
        );
        drop_credentials(&mut c);
        assert_eq!(
            (c.value.as_str(), c.flags.as_slice()),
            ("https://a.example/s.xml", [CREDENTIALS_FLAG.to_string()].as_slice())
        );
        let mut c = wellknown_core::Candidate::new(CandidateKind::Url, "sitemap_loc", "https://a.example/@me", None);
        drop_credentials(&mut c);
        assert_eq!(
            (c.value.as_str(), c.flags.len()),
            ("https://a.example/@me", 0),
            "an @ in the path is no credential"
        );
        let mut c = wellknown_core::Candidate::new(CandidateKind::Contact, "contact", "mailto:joe@a.example", None);
        drop_credentials(&mut c);
        assert_eq!(c.value, "mailto:joe@a.example", "a contact is not a URL to request");
    }

    #[test]
    fn redirect_candidate_drops_credentials_and_flags_them() {
        let target = url::Url::parse("https://user:secret@idp.other.example/login").unwrap();
        let mut meta = FetchMeta::synthetic(target, None, Timestamp::UNIX_EPOCH);
        meta.requested_url = url::Url::parse("https://a.example/.well-known/openid-configuration").unwrap();
        meta.redirect_chain = vec![RedirectHop { url: meta.requested_url.clone(), status: 302 }];
        meta.failure = Some(FetchFailure { class: FailureClass::OutOfScope, message: "out of scope".into() });
        let (c, evidence) = redirect_candidate("openid-configuration", &meta).expect("candidate");
        assert_eq!(c.value, "https://idp.other.example/login");
        assert_eq!(c.flags, [CREDENTIALS_FLAG]);
        assert_eq!(evidence.status, Some(302));
        assert_eq!(evidence.document_url.as_str(), "https://a.example/.well-known/openid-configuration");
    }

    #[test]
    fn a_redirect_into_a_private_address_is_a_flagged_candidate() {
        let target = url::Url::parse("http://169.254.169.254/latest/meta-data/").unwrap();
        let mut meta = FetchMeta::synthetic(target, None, Timestamp::UNIX_EPOCH);
        meta.status = None;
        meta.requested_url = url::Url::parse("https://a.example/robots.txt").unwrap();
        meta.redirect_chain = vec![RedirectHop { url: meta.requested_url.clone(), status: 301 }];
        meta.failure = Some(FetchFailure { class: FailureClass::PrivateAddress, message: "private".into() });
        let (c, evidence) = redirect_candidate("robots", &meta).expect("candidate");
        assert_eq!(
            (c.relation.as_str(), c.value.as_str()),
            (REDIRECT_RELATION, "http://169.254.169.254/latest/meta-data/")
        );
        assert_eq!(c.flags, [PRIVATE_ADDRESS_FLAG]);
        assert_eq!((evidence.status, evidence.locator), (Some(301), Some(wellknown_core::Locator::Redirect(0))));
        assert_eq!(evidence.document_url.as_str(), "https://a.example/robots.txt");
        // Refused on the first request (no redirect): nothing was declared.
        meta.redirect_chain.clear();
        assert!(redirect_candidate("robots", &meta).is_none());
    }

    #[test]
    fn a_redirect_to_a_url_that_is_not_http_is_a_candidate_when_it_names_a_host() {
        let requested = url::Url::parse("https://a.example/x").unwrap();
        let mut meta =
            FetchMeta::synthetic(url::Url::parse("https://a.example/y").unwrap(), None, Timestamp::UNIX_EPOCH);
        meta.requested_url = requested.clone();
        meta.redirect_chain = vec![RedirectHop { url: requested, status: 301 }];
        meta.status = Some(302);
        meta.unfollowed_location = Some(url::Url::parse("ftp://files.other.example/a.json").unwrap());
        meta.location_credentials = vec![1];
        meta.failure = Some(FetchFailure { class: FailureClass::InvalidRedirect, message: "not http(s)".into() });
        assert!(fetch_failed(&meta) && !redirected_out_of_scope(&meta), "counted once, as a fetch failure");
        let (c, evidence) = redirect_candidate("p", &meta).expect("candidate");
        assert_eq!(c.value, "ftp://files.other.example/a.json");
        assert_eq!(c.flags, [CREDENTIALS_FLAG]);
        assert_eq!((evidence.status, evidence.locator), (Some(302), Some(wellknown_core::Locator::Redirect(1))));
        assert_eq!(evidence.document_url.as_str(), "https://a.example/x");
        // Credentials on an earlier hop do not flag this target.
        meta.location_credentials = vec![0];
        assert!(redirect_candidate("p", &meta).expect("candidate").0.flags.is_empty());
        // No host (mailto:), or no usable Location: nothing to declare.
        meta.unfollowed_location = Some(url::Url::parse("mailto:x@other.example").unwrap());
        assert!(redirect_candidate("p", &meta).is_none());
        meta.unfollowed_location = None;
        assert!(redirect_candidate("p", &meta).is_none());
        assert!(fetch_failed(&meta));
    }
}
