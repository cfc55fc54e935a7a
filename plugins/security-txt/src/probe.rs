//! The `security.txt` probe: where the file lives, how it is fetched, and the signature key
//! follow-up (RFC 9116 section 3).

use async_trait::async_trait;
use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{
    CandidateKind, Document, FetchMeta, FetchPolicy, FetchRequest, ProbeContext, Report, Target, WellKnownProbe,
    wellknown,
};

use crate::parser::{MAX_PARSE_BYTES, PROBE_ID, parse, parse_with_key};

/// At most this many `Encryption` key URLs are fetched to check one signature.
pub const MAX_KEY_FETCHES: usize = 3;

/// The security.txt probe (RFC 9116). Registered as `security.txt`, suffix `security.txt`.
///
/// On an origin it fetches `/.well-known/security.txt`, and `/security.txt` only when that did not
/// answer 200 (both fetches are recorded as documents; the legacy one with role `legacy_location`).
/// When the file is signed and an `Encryption` field points to an http(s) key, the key is fetched
/// through the [`ProbeContext`] (so scope applies) and the signature is checked; the key fetch is
/// recorded as a document with role `encryption_key`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SecurityTxtProbe;

fn key_policy() -> FetchPolicy {
    FetchPolicy { accept: Some("application/pgp-keys, text/plain;q=0.9, */*;q=0.1".into()), ..FetchPolicy::default() }
}

/// The http(s) key URLs a report's `Encryption` fields point to, in file order.
fn key_urls(report: &Report) -> Vec<Url> {
    report
        .candidates
        .iter()
        .filter(|c| c.kind() == CandidateKind::Key)
        .filter_map(|c| Url::parse(c.value()).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .take(MAX_KEY_FETCHES)
        .collect()
}

impl SecurityTxtProbe {
    /// Interprets a fetched security.txt, fetching its `Encryption` key(s) to check the signature
    /// when the file is signed. Returns the report and the key fetches as documents.
    async fn interpret_and_verify(
        &self,
        body: &[u8],
        meta: &FetchMeta,
        cx: &dyn ProbeContext,
    ) -> (Report, Vec<Document>) {
        let mut report = parse(body, meta);
        let mut docs = Vec::new();
        if report.facts.get("signed") != Some(&serde_json::Value::Bool(true)) {
            return (report, docs);
        }
        let urls = key_urls(&report);
        if urls.is_empty() {
            report.fact("signature_detail", "no Encryption field points to an http(s) key");
        }
        let mut why_not = Vec::new();
        for url in urls {
            let result = cx.fetch(FetchRequest::get(url.clone(), key_policy())).await;
            let usable = result.meta.is_success() && result.meta.failure.is_none();
            docs.push(Document {
                probe: PROBE_ID.to_string(),
                role: "encryption_key".into(),
                meta: result.meta.clone(),
                report: None,
            });
            if !usable {
                let why = match &result.meta.failure {
                    Some(f) => f.class.as_str().to_string(),
                    None => format!("HTTP {}", result.meta.status.map_or_else(|| "?".to_string(), |s| s.to_string())),
                };
                why_not.push(format!("the key at {url} could not be fetched ({why})"));
                continue;
            }
            let checked = parse_with_key(body, meta, Some(&result.body));
            let status = checked.facts.get("signature").and_then(|v| v.as_str()).unwrap_or("not_checked").to_string();
            if status != "not_checked" {
                return (checked, docs);
            }
            if let Some(d) = checked.facts.get("signature_detail").and_then(|v| v.as_str()) {
                why_not.push(format!("{url}: {d}"));
            }
        }
        if !why_not.is_empty() {
            report.fact("signature_detail", why_not.join("; "));
        }
        (report, docs)
    }
}

impl SecurityTxtProbe {
    /// What the probe is.
    pub const INFO: ProbeInfo = ProbeInfo {
        id: PROBE_ID,
        suffix: Some("security.txt"),
        summary: "security.txt: how to report vulnerabilities (contacts, policy, keys), optionally OpenPGP-signed",
        spec: "RFC 9116",
        page: "security-txt",
        codes: crate::codes::ALL,
    };
}

#[async_trait]
impl WellKnownProbe for SecurityTxtProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        FetchPolicy {
            accept: Some("text/plain".into()),
            max_body_bytes: MAX_PARSE_BYTES as u64,
            ..FetchPolicy::default()
        }
    }

    /// `/.well-known/security.txt`, then the legacy `/security.txt` (RFC 9116 section 3). A URL
    /// target is read where it is.
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => {
                let mut v: Vec<Url> = wellknown::url(origin, "security.txt").into_iter().collect();
                v.push(origin.url_for_path("/security.txt"));
                v
            }
            Target::Url { url, .. } => vec![url.clone()],
        }
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        parse(body, meta)
    }

    async fn run(&self, target: &Target, cx: &dyn ProbeContext) -> Vec<Document> {
        let mut docs = Vec::new();
        for (i, url) in self.locations(target).into_iter().enumerate() {
            let role = if i == 0 { target.role().to_string() } else { "legacy_location".to_string() };
            let result = cx.fetch(FetchRequest::get(url, self.policy())).await;
            let mut meta = result.meta;
            meta.declared_by = target.declared_by().to_vec();
            let found = meta.status == Some(200) && meta.failure.is_none();
            let mut key_docs = Vec::new();
            let report = if meta.is_success() && meta.failure.is_none() {
                let (r, k) = self.interpret_and_verify(&result.body, &meta, cx).await;
                key_docs = k;
                Some(r)
            } else {
                None
            };
            docs.push(Document { probe: PROBE_ID.to_string(), role, meta, report });
            docs.extend(key_docs);
            if found {
                break;
            }
        }
        docs
    }
}
