//! `--all-registered`: request every IANA-registered well-known suffix on an origin and record which
//! exist (status, media type, size, hash) as documents of kind `unparsed`, so an origin's full
//! well-known inventory is visible even where no plugin interprets the document (RFC 8615 section 3).

use wellknown_core::{
    Document, FetchPolicy, FetchRequest, Origin, ProbeContext, Report, WellKnownProbe, iana, wellknown,
};

/// Pseudo-probe id of documents fetched this way.
pub const PROBE_ID: &str = "well-known";

/// Body cap for inventory fetches: enough to hash a typical document, bounded for odd ones.
pub const MAX_BODY_BYTES: u64 = 256 * 1024;

/// Fetches every registered, non-obsoleted suffix that no selected probe already reads.
pub(crate) async fn inventory(
    origin: &Origin,
    probes: &[&'static dyn WellKnownProbe],
    cx: &dyn ProbeContext,
) -> Vec<Document> {
    let claimed: Vec<&str> = probes.iter().filter_map(|p| p.suffix()).collect();
    let mut docs = Vec::new();
    for entry in iana::entries() {
        if entry.status == iana::RegistryStatus::Obsoleted || claimed.contains(&entry.suffix.as_str()) {
            continue;
        }
        let Some(url) = wellknown::url(origin, &entry.suffix) else { continue };
        let policy = FetchPolicy { max_body_bytes: MAX_BODY_BYTES, ..FetchPolicy::default() };
        let result = cx.fetch(FetchRequest::get(url.clone(), policy)).await;
        let report = (result.meta.is_success() && result.meta.failure.is_none()).then(|| {
            let mut r = Report::new(PROBE_ID, &result.meta.url, "unparsed");
            r.fact("suffix", entry.suffix.clone());
            r.fact("registry_status", entry.status.as_str().to_string());
            r.fact("reference", entry.reference.clone());
            r
        });
        docs.push(Document {
            probe: PROBE_ID.to_string(),
            role: "all_registered".to_string(),
            meta: result.meta,
            report,
        });
    }
    docs
}
