//! Verification verdicts ([`VerifyStatus`]): what requesting a candidate URL found, as the
//! `verification` records, the store and `wellknown candidates --status` name them
//! (`docs/verification.md`, `docs/output-schema.md`), and where a verdict came from ([`VerifySource`]).

use serde::Serialize;

/// A verification verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerifyStatus {
    /// 2xx.
    Alive,
    /// 404 or 410.
    Gone,
    /// 401 or 403.
    AuthRequired,
    /// The URL redirects (the first hop's target is recorded).
    Redirect,
    /// Another status (400, 429, 5xx, a 405 to GET too, ...).
    Error,
    /// Name resolution failed (`dns_nxdomain`, `dns_no_answer`, `dns_failure`).
    Dns,
    /// The connection failed (`connect_refused`, `connect_timeout`, `connect`).
    Connect,
    /// The TLS handshake failed.
    Tls,
    /// No complete response in time (`timeout`, `slow_transfer`).
    Timeout,
    /// Another failure (`protocol`, `body_too_large`, `unsupported_url`, `rate_limited` refused
    /// without a request).
    Failure,
    /// Outside the scan scope: never requested (what `wellknown candidates` shows for out-of-scope
    /// values; the scan emits no verification record for them).
    OutOfScope,
    /// `--obey-robots` and the URL's robots.txt disallows it for this scanner: not requested.
    DisallowedByRobots,
    /// The URL's host resolves only to addresses the private-address rule refuses (loopback,
    /// private, link-local, metadata) and `--allow-private` is off: nothing was sent. Says nothing
    /// about whether the URL answers. (A redirect into such an address is `redirect`.)
    PrivateAddress,
    /// Not requested: the per-unit verification budget was spent (no record is emitted for these;
    /// the unit's `origin` record counts them).
    Skipped,
}

impl VerifyStatus {
    /// Every status, in declaration order.
    pub const ALL: [VerifyStatus; 14] = [
        VerifyStatus::Alive,
        VerifyStatus::Gone,
        VerifyStatus::AuthRequired,
        VerifyStatus::Redirect,
        VerifyStatus::Error,
        VerifyStatus::Dns,
        VerifyStatus::Connect,
        VerifyStatus::Tls,
        VerifyStatus::Timeout,
        VerifyStatus::Failure,
        VerifyStatus::OutOfScope,
        VerifyStatus::DisallowedByRobots,
        VerifyStatus::PrivateAddress,
        VerifyStatus::Skipped,
    ];

    /// The `snake_case` name used in records, the store and `--status`.
    pub const fn as_str(self) -> &'static str {
        match self {
            VerifyStatus::Alive => "alive",
            VerifyStatus::Gone => "gone",
            VerifyStatus::AuthRequired => "auth_required",
            VerifyStatus::Redirect => "redirect",
            VerifyStatus::Error => "error",
            VerifyStatus::Dns => "dns",
            VerifyStatus::Connect => "connect",
            VerifyStatus::Tls => "tls",
            VerifyStatus::Timeout => "timeout",
            VerifyStatus::Failure => "failure",
            VerifyStatus::OutOfScope => "out_of_scope",
            VerifyStatus::DisallowedByRobots => "disallowed_by_robots",
            VerifyStatus::PrivateAddress => "private_address",
            VerifyStatus::Skipped => "skipped",
        }
    }

    /// Parses a status name.
    pub fn parse(s: &str) -> Option<VerifyStatus> {
        VerifyStatus::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// Where a verification verdict came from (a `verification` record's `source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerifySource {
    /// `request`: a verification request (HEAD, or GET after a 405/501).
    Request,
    /// `document`: the URL was fetched as a document in this scan, and that fetch is the verdict.
    Document,
    /// `none`: nothing was requested (refused before sending: robots.txt, a private address, ...).
    #[serde(rename = "none")]
    NotRequested,
}

impl VerifySource {
    /// Every source, in declaration order.
    pub const ALL: [VerifySource; 3] = [VerifySource::Request, VerifySource::Document, VerifySource::NotRequested];

    /// The name used in records and the store: `request`, `document` or `none`.
    pub const fn as_str(self) -> &'static str {
        match self {
            VerifySource::Request => "request",
            VerifySource::Document => "document",
            VerifySource::NotRequested => "none",
        }
    }

    /// Parses a source name.
    pub fn parse(s: &str) -> Option<VerifySource> {
        VerifySource::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_the_serialised_form() {
        for v in VerifyStatus::ALL {
            assert_eq!(VerifyStatus::parse(v.as_str()), Some(v));
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
        for v in VerifySource::ALL {
            assert_eq!(VerifySource::parse(v.as_str()), Some(v));
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
        assert_eq!(VerifySource::NotRequested.as_str(), "none");
        assert_eq!(VerifyStatus::parse("unverified"), None);
        // The core names records carry, stored by the same strings.
        use wellknown_core::{Method, Severity};
        for m in [Method::Get, Method::Head] {
            assert_eq!(Method::parse(m.as_str()), Some(m));
            assert_eq!(serde_json::to_value(m).unwrap(), m.as_str());
        }
        for s in [Severity::Error, Severity::Warning] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
    }
}
