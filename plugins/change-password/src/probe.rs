//! The registered probe: fetches the change password URL, then (when it answered 2xx) the resource
//! that should not exist, to tell whether the origin's 2xx answers mean anything.

use async_trait::async_trait;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::probe::fetch_and_interpret;
use wellknown_core::{
    Document, FetchMeta, FetchPolicy, FetchRequest, ProbeContext, Report, Target, WellKnownProbe, wellknown,
};

use crate::{MAX_BODY_BYTES, PROBE_ID, STATUS_CHECK_SUFFIX, SUFFIX};

/// Body cap of the status-check request (its body is never read).
const STATUS_CHECK_BODY_BYTES: u64 = 4 * 1024;

/// The change password URL probe (id `change-password`, suffix `change-password`).
///
/// * Origin targets: `<origin>/.well-known/change-password`; when that ends in a 2xx, also
///   `<origin>/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200`
///   (a second document, role `status_check`), whose outcome is recorded in the first document's
///   report ([`crate::apply_status_check`]).
/// * URL targets: the URL itself, no status check.
///
/// Redirects are followed (up to 5, every hop recorded: the candidate is the first target); body cap
/// [`MAX_BODY_BYTES`], read only for a meta refresh.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChangePasswordProbe;

impl ChangePasswordProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Change password URL: where a password manager sends a user to change their password",
        spec: "W3C A Well-Known URL for Changing Passwords",
        page: "change-password",
        codes: crate::codes::ALL,
    };
}

#[async_trait]
impl WellKnownProbe for ChangePasswordProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            follow_redirects: true,
            max_redirects: 5,
            max_body_bytes: MAX_BODY_BYTES,
            accept: Some("text/html".to_string()),
            decode_content_encoding: true,
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret(body, meta)
    }

    fn interpret_unavailable(&self, meta: &FetchMeta) -> Option<Report> {
        crate::interpret_unavailable(meta)
    }

    async fn run(&self, target: &Target, cx: &dyn ProbeContext) -> Vec<Document> {
        let Some(url) = self.locations(target).into_iter().next() else { return Vec::new() };
        let mut doc = fetch_and_interpret(self, url, target.role().to_string(), target.declared_by(), cx).await;
        let check_url = match target {
            Target::Origin { origin } if doc.meta.is_success() && doc.meta.failure.is_none() => {
                wellknown::url(origin, STATUS_CHECK_SUFFIX)
            }
            _ => None,
        };
        let Some(check_url) = check_url else { return vec![doc] };
        let policy = FetchPolicy { max_body_bytes: STATUS_CHECK_BODY_BYTES, accept: None, ..self.policy() };
        let check = cx.fetch(FetchRequest::get(check_url, policy)).await;
        if let Some(report) = doc.report.as_mut() {
            crate::apply_status_check(report, &check.meta);
        }
        let report = crate::status_check_report(&check.meta);
        let check_doc = Document {
            probe: PROBE_ID.to_string(),
            role: "status_check".to_string(),
            meta: check.meta,
            report: Some(report),
        };
        vec![doc, check_doc]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;
    use wellknown_core::Origin;

    #[test]
    fn locations_and_registration() {
        let origin = Origin::parse_target("https://a.example:8443").unwrap();
        let urls = ChangePasswordProbe.locations(&Target::origin(origin));
        assert_eq!(urls, vec![Url::parse("https://a.example:8443/.well-known/change-password").unwrap()]);
        let p = wellknown_core::probe_by_id(PROBE_ID).expect("registered with inventory");
        assert_eq!(p.suffix(), Some("change-password"));
        assert!(p.runs_on_origin());
        assert!(wellknown_core::wellknown::is_valid_suffix(STATUS_CHECK_SUFFIX));
    }
}
