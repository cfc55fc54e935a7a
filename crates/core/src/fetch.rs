//! What a probe asks of the fetcher and what it gets back.
//!
//! The fetcher itself (`wellknown-http`) owns every socket; probes only describe requests with
//! [`FetchRequest`] and read [`FetchResult`]s. [`FetchMeta`] is also the "fetch metadata" half of every
//! pure parser's input, so `wellknown parse` can build one for a local file.

use serde::{Deserialize, Serialize};
use url::Url;

use crate::Timestamp;

/// HTTP method of a request the scanner makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Method {
    /// GET: fetch the document.
    Get,
    /// HEAD: verify a candidate URL without its body.
    Head,
}

impl Method {
    /// `GET` or `HEAD`, as sent and serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
        }
    }

    /// Parses `GET` or `HEAD` (as [`Method::as_str`] writes them).
    pub fn parse(s: &str) -> Option<Method> {
        [Method::Get, Method::Head].into_iter().find(|m| m.as_str() == s)
    }
}

/// How a document must be fetched: redirect policy, size cap, media types.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchPolicy {
    /// Follow redirects (each hop recorded). When false, a 3xx is returned as is.
    pub follow_redirects: bool,
    /// Maximum number of redirects followed (RFC 9309 section 2.3.1.2: at least five for robots.txt).
    pub max_redirects: u8,
    /// Maximum body bytes read, after transfer decoding; reading stops at the cap and the result is
    /// flagged `truncated`.
    pub max_body_bytes: u64,
    /// `Accept` header value, if any.
    pub accept: Option<String>,
    /// Decode `Content-Encoding` (gzip, deflate, br). Probes that peel compression themselves (sitemap)
    /// turn this off and receive the raw bytes.
    pub decode_content_encoding: bool,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        FetchPolicy {
            follow_redirects: true,
            max_redirects: 5,
            max_body_bytes: 1024 * 1024,
            accept: None,
            decode_content_encoding: true,
        }
    }
}

/// A request a probe hands to the engine's fetcher.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchRequest {
    /// Absolute http(s) URL.
    pub url: Url,
    /// GET or HEAD.
    pub method: Method,
    /// Redirects, size cap, media types.
    pub policy: FetchPolicy,
    /// Extra request headers (name, value).
    pub headers: Vec<(String, String)>,
}

impl FetchRequest {
    /// A GET with the given policy.
    pub fn get(url: Url, policy: FetchPolicy) -> Self {
        FetchRequest { url, method: Method::Get, policy, headers: Vec::new() }
    }
}

/// One redirect hop: the URL requested and the status it answered with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedirectHop {
    /// URL requested at this hop.
    pub url: Url,
    /// The 3xx status it answered.
    pub status: u16,
}

/// Why a fetch produced no usable HTTP response. Each class is diagnosed separately
/// (design.md: "Diagnose failures separately").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// The name does not exist (NXDOMAIN).
    DnsNxdomain,
    /// The name exists but has no A/AAAA records.
    DnsNoAnswer,
    /// The resolver failed (SERVFAIL, timeout, no server).
    DnsFailure,
    /// TCP connection refused (RST).
    ConnectRefused,
    /// TCP connection did not complete within the connect timeout.
    ConnectTimeout,
    /// Other connection error (unreachable network, reset during connect).
    Connect,
    /// TLS handshake failed (expired, unknown issuer, name mismatch, protocol); reason in the message.
    Tls,
    /// The response did not complete within the total timeout, or nothing at all arrived for a
    /// whole rate window after the grace period (a held connection).
    Timeout,
    /// The response head or body arrived, but slower than the fetcher's minimum transfer rate after
    /// its grace period (a trickle, e.g. a body dripped one byte a second); the bytes read so far
    /// are kept, flagged truncated.
    SlowTransfer,
    /// More redirects than the policy allows.
    TooManyRedirects,
    /// A redirect returned to a URL already visited in the chain.
    RedirectLoop,
    /// A redirect without a usable Location, or to a non-http(s) URL.
    InvalidRedirect,
    /// The body exceeded the hard cap (the bytes up to the cap are kept, flagged truncated).
    BodyTooLarge,
    /// The server broke the HTTP protocol (malformed response, reset mid-body).
    Protocol,
    /// Refused before any request: the address is loopback, private, link-local or a metadata
    /// address, and private addresses are not allowed.
    PrivateAddress,
    /// Refused before any request: the URL is outside the user's scope.
    OutOfScope,
    /// Refused before any request: not an http(s) URL.
    UnsupportedUrl,
    /// The host answered 429 or 503 with a `Retry-After` longer than the fetcher waits (RFC 9110
    /// section 10.2.3; `FetchMeta::retry_after_secs` holds the value), or an earlier answer did so
    /// and the delay has not passed: then nothing was sent.
    RateLimited,
    /// Refused before any request: the scan obeys robots.txt (`--obey-robots`) and the rules for its
    /// own product token disallow the URL (RFC 9309 section 2.2).
    RobotsDisallowed,
}

impl FailureClass {
    /// The `snake_case` name used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureClass::DnsNxdomain => "dns_nxdomain",
            FailureClass::DnsNoAnswer => "dns_no_answer",
            FailureClass::DnsFailure => "dns_failure",
            FailureClass::ConnectRefused => "connect_refused",
            FailureClass::ConnectTimeout => "connect_timeout",
            FailureClass::Connect => "connect",
            FailureClass::Tls => "tls",
            FailureClass::Timeout => "timeout",
            FailureClass::SlowTransfer => "slow_transfer",
            FailureClass::TooManyRedirects => "too_many_redirects",
            FailureClass::RedirectLoop => "redirect_loop",
            FailureClass::InvalidRedirect => "invalid_redirect",
            FailureClass::BodyTooLarge => "body_too_large",
            FailureClass::Protocol => "protocol",
            FailureClass::PrivateAddress => "private_address",
            FailureClass::OutOfScope => "out_of_scope",
            FailureClass::UnsupportedUrl => "unsupported_url",
            FailureClass::RateLimited => "rate_limited",
            FailureClass::RobotsDisallowed => "robots_disallowed",
        }
    }

    /// True for failures where the server was never reached (DNS, connect, refusals).
    pub fn unreachable(self) -> bool {
        !matches!(
            self,
            FailureClass::BodyTooLarge
                | FailureClass::TooManyRedirects
                | FailureClass::RedirectLoop
                | FailureClass::SlowTransfer
                | FailureClass::RateLimited
        )
    }
}

impl std::fmt::Display for FailureClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A classified fetch failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchFailure {
    /// The class (stable).
    pub class: FailureClass,
    /// Details for people (e.g. the TLS reason `certificate expired`).
    pub message: String,
}

/// Everything known about how a document was obtained. Input to every pure parser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FetchMeta {
    /// The URL first requested.
    pub requested_url: Url,
    /// The final URL (after redirects); equals `requested_url` when there were none.
    pub url: Url,
    /// Redirect hops before `url`, in order.
    pub redirect_chain: Vec<RedirectHop>,
    /// Final HTTP status, None when no response was received.
    pub status: Option<u16>,
    /// `Content-Type` header as sent.
    pub content_type: Option<String>,
    /// `Content-Encoding` header as sent (already decoded unless the policy said otherwise).
    pub content_encoding: Option<String>,
    /// When the response arrived (UTC). Parsers judge expiry against this instant, never the wall clock.
    pub fetched_at: Timestamp,
    /// Body bytes received (after transfer decoding).
    pub size: u64,
    /// SHA-256 of the body, lower-case hex.
    pub sha256: Option<String>,
    /// True when reading stopped at the policy's size cap.
    pub truncated: bool,
    /// Why no usable response was received, if so.
    pub failure: Option<FetchFailure>,
    /// Documents that declared this URL (e.g. the robots.txt that listed this sitemap). Used by the
    /// sitemap location rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declared_by: Vec<Url>,
    /// The target of a redirect the fetcher could not follow because it is not an http(s) URL
    /// (`ftp:`, `mailto:`; failure `invalid_redirect`), resolved against `url` and without user name
    /// or password. `url` and `status` are then those of the response that redirected. None
    /// otherwise: a redirect refused as out of scope, a loop or one hop too many names its target
    /// in `url`, and an unparsable `Location` is only quoted in the failure message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfollowed_location: Option<Url>,
    /// The redirects whose `Location` header carried a user name or password, by hop index (as in
    /// the locator `{"redirect": N}`: the index in `redirect_chain` of the response that redirected,
    /// `redirect_chain.len()` for an `invalid_redirect` answered by `url` itself). The user name and
    /// password are dropped from every URL recorded here and from failure messages (RFC 3986
    /// section 3.2.1 deprecates `user:password@`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub location_credentials: Vec<u32>,
    /// With failure `rate_limited`: the wait the host's `Retry-After` asked for, in seconds (RFC 9110
    /// section 10.2.3; an HTTP-date is counted from when the answer arrived), whether this fetch got
    /// that answer or was refused without a request because an earlier one did. None otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_secs: Option<u64>,
}

impl FetchMeta {
    /// Metadata for a document read as if fetched from `url` with a 200 and `content_type`, at `now`.
    /// This is what `wellknown parse` and tests build.
    pub fn synthetic(url: Url, content_type: Option<&str>, now: Timestamp) -> FetchMeta {
        FetchMeta {
            requested_url: url.clone(),
            url,
            redirect_chain: Vec::new(),
            status: Some(200),
            content_type: content_type.map(str::to_string),
            content_encoding: None,
            fetched_at: now,
            size: 0,
            sha256: None,
            truncated: false,
            failure: None,
            declared_by: Vec::new(),
            unfollowed_location: None,
            location_credentials: Vec::new(),
            retry_after_secs: None,
        }
    }

    /// True when the final status is 2xx.
    pub fn is_success(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }

    /// True when at least one redirect was followed.
    pub fn was_redirected(&self) -> bool {
        !self.redirect_chain.is_empty()
    }
}

/// The outcome of one fetch: metadata plus the body bytes (empty on failure or HEAD).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchResult {
    /// Status, headers of interest, redirects, failure.
    pub meta: FetchMeta,
    /// Body bytes (decoded per policy), at most `policy.max_body_bytes`.
    pub body: Vec<u8>,
}
