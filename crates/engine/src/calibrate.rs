//! Catch-all and soft-404 origins: a server that answers every path alike (`200 text/plain
//! "Welcome"`, a login page every path redirects to) would otherwise count as publishing every
//! document the scan asks for.
//!
//! Per origin whose documents answer 2xx, the scan asks once for a random path under `/` and one
//! under `/.well-known/` (the scan's [`token`], so no real document can be there), following
//! redirects as probes do. A 2xx document *matches* the calibration answer of its prefix when the
//! final statuses and media types (essence, lower case) are equal and either the bodies are
//! identical (SHA-256), or the calibration body quoted its requested path `n > 0` times and the
//! document's size is the calibration's with those `n` quotes of the random path replaced by the
//! document's path (a page that echoes the path it was asked for). A matching document is
//! `catch_all`: not recognised, whatever its parser read.
//!
//! The calibration is computed once per origin (and virtual-host route) per scan, by whichever unit
//! asks first; it costs two requests and about 100 bytes kept per origin.

use std::hash::{BuildHasher, RandomState};
use std::sync::OnceLock;

use url::Url;
use wellknown_core::{FetchMeta, FetchPolicy, FetchRequest, FetchResult, Origin};

use crate::context::ScanContext;

/// Body cap of a calibration request.
const CALIBRATION_MAX_BODY: u64 = 1024 * 1024;

/// The random path segment of this process's calibration requests:
/// `wellknown-calibration-<16 hex digits>`.
pub(crate) fn token() -> &'static str {
    static TOKEN: OnceLock<String> = OnceLock::new();
    TOKEN.get_or_init(|| format!("wellknown-calibration-{:016x}", RandomState::new().hash_one(0u8)))
}

/// One calibration answer, reduced to what a document is compared on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    status: u16,
    media: Option<String>,
    size: u64,
    sha256: Option<String>,
    /// Length of the requested path, and how often the body quoted it.
    path_len: u64,
    quotes: u64,
}

/// An origin's answers for a random path under `/` and under `/.well-known/` (None: no answer).
#[derive(Debug, Clone, Default)]
pub(crate) struct Calibration {
    root: Option<Answer>,
    well_known: Option<Answer>,
}

/// The media type a response is compared on: its `Content-Type` before any parameter, trimmed
/// and lower case, as sent (even when it is no valid media type).
pub(crate) fn media(meta: &FetchMeta) -> Option<String> {
    let ct = meta.content_type.as_deref()?;
    Some(ct.split(';').next().unwrap_or(ct).trim().to_ascii_lowercase())
}

fn answer(result: &FetchResult) -> Option<Answer> {
    let meta = &result.meta;
    let status = meta.status?;
    if meta.failure.is_some() {
        return None;
    }
    let path = meta.requested_url.path().as_bytes();
    let quotes = if path.is_empty() {
        0
    } else {
        u64::try_from(result.body.windows(path.len()).filter(|w| *w == path).count()).unwrap_or(u64::MAX)
    };
    Some(Answer {
        status,
        media: media(meta),
        size: meta.size,
        sha256: meta.sha256.clone(),
        path_len: u64::try_from(path.len()).unwrap_or(u64::MAX),
        quotes,
    })
}

/// The two calibration URLs of `origin`: `/<token>` and `/.well-known/<token>`.
pub(crate) fn urls(origin: &Origin) -> Option<(Url, Url)> {
    let root = origin.root();
    Some((root.join(token()).ok()?, root.join(&format!(".well-known/{}", token())).ok()?))
}

/// Asks `origin` (through `cx`) for the two random paths. Returns the calibration and the number
/// of requests sent.
pub(crate) async fn calibrate(origin: &Origin, cx: &ScanContext) -> (Calibration, usize) {
    let Some((root, well_known)) = urls(origin) else { return (Calibration::default(), 0) };
    let policy = FetchPolicy { max_body_bytes: CALIBRATION_MAX_BODY, ..FetchPolicy::default() };
    let (a, b) = tokio::join!(
        cx.request(FetchRequest::get(root, policy.clone())),
        cx.request(FetchRequest::get(well_known, policy))
    );
    let sent =
        usize::from(crate::verify::sent_something(&a.meta)) + usize::from(crate::verify::sent_something(&b.meta));
    (Calibration { root: answer(&a), well_known: answer(&b) }, sent)
}

impl Calibration {
    /// True when the 2xx document `meta` answered like the random path of its prefix (see the
    /// module docs).
    pub(crate) fn matches(&self, meta: &FetchMeta) -> bool {
        let Some(status) = meta.status.filter(|s| (200..300).contains(s)) else { return false };
        if meta.failure.is_some() {
            return false;
        }
        let reference = if meta.requested_url.path().starts_with("/.well-known/") {
            self.well_known.as_ref()
        } else {
            self.root.as_ref()
        };
        let Some(r) = reference else { return false };
        if r.status != status || r.media != media(meta) {
            return false;
        }
        if r.sha256.is_some() && r.sha256 == meta.sha256 {
            return true;
        }
        if r.quotes == 0 {
            return false;
        }
        let doc_path = u64::try_from(meta.requested_url.path().len()).unwrap_or(u64::MAX);
        let expected = r.size.saturating_sub(r.quotes.saturating_mul(r.path_len)) + r.quotes.saturating_mul(doc_path);
        expected == meta.size
    }

    /// True when there is nothing to compare with (both requests failed).
    pub(crate) fn is_empty(&self) -> bool {
        self.root.is_none() && self.well_known.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn result(url: &str, status: u16, ct: &str, body: &[u8]) -> FetchResult {
        let mut meta = FetchMeta::synthetic(Url::parse(url).unwrap(), Some(ct), Timestamp::UNIX_EPOCH);
        meta.status = Some(status);
        meta.size = body.len() as u64;
        meta.sha256 = Some(format!("{:x}", body.len()) + std::str::from_utf8(body).unwrap_or(""));
        FetchResult { meta, body: body.to_vec() }
    }

    #[test]
    fn identical_answers_match_and_different_ones_do_not() {
        let cal = Calibration {
            root: answer(&result("https://a.example/x-random", 200, "text/plain", b"Welcome")),
            well_known: answer(&result("https://a.example/.well-known/x-random", 200, "text/plain", b"Welcome")),
        };
        let doc = result("https://a.example/robots.txt", 200, "text/plain; charset=utf-8", b"Welcome");
        assert!(cal.matches(&doc.meta));
        let doc = result("https://a.example/.well-known/security.txt", 200, "text/plain", b"Welcome");
        assert!(cal.matches(&doc.meta));
        let doc = result("https://a.example/robots.txt", 200, "text/plain", b"User-agent: *");
        assert!(!cal.matches(&doc.meta));
        let doc = result("https://a.example/robots.txt", 200, "text/html", b"Welcome");
        assert!(!cal.matches(&doc.meta), "another media type");
        let doc = result("https://a.example/robots.txt", 404, "text/plain", b"Welcome");
        assert!(!cal.matches(&doc.meta), "only 2xx documents are judged");
    }

    #[test]
    fn a_page_that_echoes_its_path_matches_by_size() {
        let cal = Calibration {
            root: answer(&result("https://a.example/rnd", 200, "text/html", b"<p>/rnd not here</p>")),
            well_known: None,
        };
        let doc = result("https://a.example/robots.txt", 200, "text/html", b"<p>/robots.txt not here</p>");
        assert!(cal.matches(&doc.meta));
        let doc = result("https://a.example/robots.txt", 200, "text/html", b"<p>/robots.txt is here!!</p>");
        assert!(!cal.matches(&doc.meta));
        let wk = result("https://a.example/.well-known/security.txt", 200, "text/html", b"x");
        assert!(!cal.matches(&wk.meta), "no /.well-known/ calibration answer");
    }

    #[test]
    fn the_token_is_stable_and_random_looking() {
        assert_eq!(token(), token());
        assert!(token().starts_with("wellknown-calibration-") && token().len() == 22 + 16);
        let (root, wk) = urls(&Origin::parse_target("https://a.example:8443").unwrap()).unwrap();
        assert_eq!(root.as_str(), format!("https://a.example:8443/{}", token()));
        assert_eq!(wk.as_str(), format!("https://a.example:8443/.well-known/{}", token()));
    }
}
