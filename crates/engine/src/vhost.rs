//! Virtual-host tries: a revealed origin whose name does not resolve may still be served by the
//! origin that revealed it (an intranet name in a public sitemap).
//!
//! One try is one request: `GET /` with the name as `Host` header and TLS server name, sent to the
//! revealing origin's first address. It is compared with that address's answer for a name it
//! cannot have (a random sibling of the name, `wellknown-calibration-….<parent>`, asked once per
//! address, port, scheme and parent domain): a server that ignores the name answers both alike
//! (same status, media type and body, each name left out), and then nothing more is requested.
//! Only a name answered differently (`distinct`) gets its documents requested through that
//! address. At most `max_vhost_tries_per_origin` names are tried per revealing origin; the rest are
//! counted in a `budget` record of the unit not tried.

use std::sync::Arc;

use url::Url;
use wellknown_core::{FetchPolicy, FetchRequest, FetchResult, Host, Origin};

use crate::budget::Budget;
use crate::context::{ScanContext, Via};
use crate::engine::Engine;
use crate::schedule::UnitRun;
use crate::shared::{Shared, lock};
use wellknown_records::{Record, VhostRecord};

/// Body cap of the virtual-host requests (only how the address answers matters).
const VHOST_MAX_BODY: u64 = 16 * 1024;

/// An answer reduced to what two virtual hosts are compared on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Baseline {
    status: u16,
    media: Option<String>,
    /// The body with every occurrence of the requested host name removed.
    body: Vec<u8>,
}

impl Baseline {
    fn of(result: &FetchResult, name: &str) -> Option<Baseline> {
        let status = result.meta.status?;
        let media = crate::calibrate::media(&result.meta);
        Some(Baseline { status, media, body: without(&result.body, name.as_bytes()) })
    }
}

/// `body` with every occurrence of `needle` (ASCII case-insensitive) removed.
fn without(body: &[u8], needle: &[u8]) -> Vec<u8> {
    if needle.is_empty() {
        return body.to_vec();
    }
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body.len() - i >= needle.len() && body[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            i += needle.len();
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// The random sibling of `name` a server cannot have configured: its first label replaced.
fn sibling(name: &str) -> String {
    let token = crate::calibrate::token();
    match name.split_once('.') {
        Some((_, parent)) if !parent.is_empty() => format!("{token}.{parent}"),
        _ => format!("{token}.invalid"),
    }
}

impl Engine {
    /// A revealed origin whose name does not resolve: try it as a virtual host of the origin that
    /// revealed it (see the module docs). When the name answers distinctly, its context (the route
    /// through that address) is returned and the unit reads its documents through it.
    pub(crate) async fn try_vhost(
        &self,
        run: &mut UnitRun,
        origin: &Origin,
        (_cx, shared, out): (&ScanContext, &Arc<Shared>, &tokio::sync::mpsc::Sender<Record>),
    ) -> Option<ScanContext> {
        if !self.config.vhosts || run.reachable || run.failures.is_empty() {
            return None;
        }
        if !run.failures.iter().all(|c| c.starts_with("dns_")) {
            return None;
        }
        let by = run.unit.revealed_by.clone()?;
        let Host::Domain(name) = origin.host().clone() else { return None };
        let by_origin = Origin::parse_target(&by).ok()?;
        {
            let mut tries = lock(&shared.vhost_tries);
            let n = tries.entry(by.clone()).or_default();
            if *n >= self.config.max_vhost_tries_per_origin {
                run.spent.skip(Budget::VhostTries, 1);
                return None;
            }
            *n += 1;
        }
        let now = self.net.clock.now();
        let record = |address: Option<std::net::IpAddr>, result: Option<&FetchResult>, failure, distinct| VhostRecord {
            host: name.clone(),
            origin: run.label.clone(),
            revealed_by: by.clone(),
            address: address.map(|a| a.to_string()),
            answers: result.is_some_and(|r| r.meta.status.is_some()),
            distinct,
            status: result.and_then(|r| r.meta.status),
            failure: result.and_then(|r| r.meta.failure.clone()).or(failure),
            checked_at: result.map_or(now, |r| r.meta.fetched_at),
        };
        let address = match self.net.transport.resolve(by_origin.host(), by_origin.port()).await {
            Ok(a) => a.into_iter().next(),
            Err(f) => {
                let _ = out.send(Record::Vhost(record(None, None, Some(f), None))).await;
                return None;
            }
        };
        let address = address?;
        let via = Via { host: name.clone(), port: origin.port(), address };
        let cx = self.context(Some(via));
        let policy = FetchPolicy { follow_redirects: false, max_body_bytes: VHOST_MAX_BODY, ..FetchPolicy::default() };
        let result = cx.request(FetchRequest::get(origin.root(), policy)).await;
        let tried = Baseline::of(&result, &name);
        let distinct = match &tried {
            None => None,
            Some(t) => Some(match self.vhost_baseline(origin, &name, address, shared).await {
                Some(b) => *b != *t,
                // Nothing to compare with: the answer itself is all there is.
                None => true,
            }),
        };
        let _ = out.send(Record::Vhost(record(Some(address), Some(&result), None, distinct))).await;
        (distinct == Some(true)).then_some(cx)
    }

    /// The answer of `address` for a name it cannot have, beside `name` (cached per scan).
    async fn vhost_baseline(
        &self,
        origin: &Origin,
        name: &str,
        address: std::net::IpAddr,
        shared: &Shared,
    ) -> Option<Arc<Baseline>> {
        let other = sibling(name);
        let url = Url::parse(&format!("{}://{}:{}/", origin.scheme(), other, origin.port())).ok()?;
        let key = format!("vhost-baseline {address} {url}");
        let cell = shared.calibration_baseline(&key);
        let via = Via { host: other.clone(), port: origin.port(), address };
        let cx = self.context(Some(via));
        cell.get_or_init(|| async {
            let policy =
                FetchPolicy { follow_redirects: false, max_body_bytes: VHOST_MAX_BODY, ..FetchPolicy::default() };
            let result = cx.request(FetchRequest::get(url, policy)).await;
            if crate::verify::sent_something(&result.meta) {
                lock(&shared.totals).calibration_requests += 1;
            }
            Baseline::of(&result, &other).map(Arc::new)
        })
        .await
        .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_left_out_of_the_comparison() {
        assert_eq!(without(b"Welcome to Intranet.corp.test!", b"intranet.corp.test"), b"Welcome to !");
        assert_eq!(without(b"abc", b""), b"abc");
        assert_eq!(without(b"aaa", b"aa"), b"a");
    }

    #[test]
    fn the_sibling_shares_the_parent_domain() {
        let s = sibling("intranet.corp.test");
        assert!(s.starts_with("wellknown-calibration-") && s.ends_with(".corp.test"), "{s}");
        assert!(sibling("localhost").ends_with(".invalid"));
    }
}
