//! The lower bound of `cargo xtask bench-scan --latency`: how fast any scanner could make the
//! requests a scan made, given the round trip and the per-host politeness (docs/benchmarks/scan.md,
//! "Latency").
//!
//! Per host `h` (every request of the scan is to one host; the politeness budget is per host):
//!
//! * `n` — the requests the fixture server answered for `h` during the scan (its log);
//! * `D` — the longest dependent chain of requests ending on `h`, from the scan's records: a
//!   document's requests (its redirect hops, then the final URL) follow one another; a follow-up
//!   (hop ≥ 1: a sitemap declared by robots.txt or an index, a JWK set, an issuer's metadata) can start
//!   only once some document that declares its URL (its `candidate` or `evidence` records) has been
//!   read, the earliest such document when several declare it; the `sitemap` probe's own
//!   `/sitemap.xml` waits for the origin's robots.txt (to learn its `Sitemap:` lines first, as the
//!   issue's schedule has it); a verification request (HEAD, and the GET after a 405 or 501) waits for
//!   the earliest document declaring its URL. A follow-up whose declaring document cannot be found
//!   is placed `hop` requests deep;
//! * `S` — connection set-up before the first request: TCP (1 round trip) and TLS 1.3 (1 round
//!   trip) for an https host, TCP only for an http-only one.
//!
//! With `r` the round trip, `p` the requests in flight per host and `s = 1 / rate` the spacing of
//! request starts (0 without a rate), the host cannot be done sooner than the largest of
//!
//! * chain: `S + r` for `D = 1`, else `max(S + r, s) + (D - 2) * max(r, s) + r` (each step waits for
//!   the previous answer and for its start slot);
//! * rate: `(n - 1) * s + r` (the last start, plus its own round trip);
//! * concurrency: `S + ceil(n / p) * r` (some request slot carries `ceil(n / p)` requests, and the
//!   first one needs a connection).
//!
//! The scan's bound is the largest host bound: every host at once, as a scanner with no limit on
//! origins in flight could do. With at most `C` origins in flight the scan cannot beat
//! `sum of host bounds / C` either; [`Bound::at_concurrency`] gives that figure for comparison.
//! CPU time is not in the bound: it is what the plain fetcher's figure shows.

use std::collections::{BTreeMap, HashMap};

/// The network and politeness the bound assumes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// Round trip, seconds.
    pub rtt: f64,
    /// Requests in flight per host.
    pub per_host: usize,
    /// Request starts per second per host; 0 = no spacing.
    pub rate: f64,
}

impl Model {
    fn spacing(&self) -> f64 {
        if self.rate > 0.0 { 1.0 / self.rate } else { 0.0 }
    }
}

/// A request the fixture server answered: a line `STATUS METHOD SCHEME://HOST/PATH` of its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// `GET`, `HEAD`.
    pub method: String,
    /// `http` or `https`.
    pub scheme: String,
    /// Host, lower case.
    pub host: String,
    /// The whole URL as logged.
    pub url: String,
}

impl Served {
    /// Parses a request line of `fixture-server --log`; `None` for any other line.
    pub fn parse(line: &str) -> Option<Served> {
        let mut words = line.splitn(3, ' ');
        let status = words.next()?;
        let method = words.next()?;
        let url = words.next()?.trim_end();
        if status.len() != 3 || !status.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (scheme, rest) = url.split_once("://")?;
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let host = rest.split('/').next()?.to_ascii_lowercase();
        Some(Served { method: method.to_string(), scheme: scheme.to_string(), host, url: url.to_string() })
    }
}

/// A document record, reduced to what the chains need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// `robots`, `sitemap`, ...
    pub probe: String,
    /// Follow-up hops from the origin's own documents.
    pub hop: u32,
    /// The unit's origin.
    pub origin: String,
    /// First URL requested.
    pub requested_url: String,
    /// Final URL.
    pub url: String,
    /// Requests made for it: redirect hops, plus the final URL when it was requested.
    pub requests: u32,
}

/// A verification made by requests (`source: request`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verification {
    /// The URL verified.
    pub value: String,
    /// Requests made: 1 (HEAD) or 2 (HEAD, then GET).
    pub requests: u32,
}

/// The scan's records the chains are computed from.
#[derive(Debug, Default)]
pub struct Records {
    /// Documents requested (not `not_attempted`).
    pub documents: Vec<Document>,
    /// Verification requests.
    pub verifications: Vec<Verification>,
    /// URL -> the documents (their `document_url`) declaring it, from `candidate` and `evidence`
    /// records; only for URLs that were requested.
    pub declared_by: HashMap<String, Vec<String>>,
}

impl Records {
    /// Reads the documents and verifications of a scan's JSON Lines (first pass).
    pub fn add_line(&mut self, v: &serde_json::Value) {
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        match v["type"].as_str() {
            Some("document") if v["not_attempted"] != true => {
                let chain = v["redirect_chain"].as_array().map_or(0, Vec::len) as u32;
                // The final URL is not requested when refused before sending (scope, private
                // address, a loop or too many hops) or when nothing was requested at all.
                let refused = matches!(
                    v["failure"]["class"].as_str(),
                    Some(
                        "out_of_scope"
                            | "private_address"
                            | "unsupported_url"
                            | "robots_disallowed"
                            | "redirect_loop"
                            | "too_many_redirects"
                    )
                );
                let requests = if refused { chain } else { chain + 1 };
                if requests > 0 {
                    self.documents.push(Document {
                        probe: s("probe"),
                        hop: v["hop"].as_u64().unwrap_or(0) as u32,
                        origin: s("origin"),
                        requested_url: s("requested_url"),
                        url: s("url"),
                        requests,
                    });
                }
            }
            Some("verification") if v["source"] == "request" => {
                let requests = if v["method"] == "GET" { 2 } else { 1 };
                self.verifications.push(Verification { value: s("value"), requests });
            }
            _ => {}
        }
    }

    /// The URLs whose declaring documents matter: follow-up documents and verified URLs.
    pub fn wanted(&self) -> std::collections::HashSet<String> {
        let docs = self.documents.iter().filter(|d| d.hop > 0).map(|d| d.requested_url.clone());
        docs.chain(self.verifications.iter().map(|v| v.value.clone())).collect()
    }

    /// Notes which document declares a wanted URL, from a `candidate` or `evidence` record (second
    /// pass).
    pub fn add_declaration(&mut self, v: &serde_json::Value, wanted: &std::collections::HashSet<String>) {
        if !matches!(v["type"].as_str(), Some("candidate" | "evidence")) {
            return;
        }
        let Some(value) = v["value"].as_str() else { return };
        if !wanted.contains(value) {
            return;
        }
        if let Some(doc) = v["evidence"]["document_url"].as_str() {
            let list = self.declared_by.entry(value.to_string()).or_default();
            if !list.iter().any(|d| d == doc) {
                list.push(doc.to_string());
            }
        }
    }
}

/// `scheme://host[:port]/...` -> host, lower case, without the port.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = if authority.starts_with('[') {
        authority.split_once(']').map_or(authority, |(h, _)| &authority[..h.len() + 1])
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    host.to_ascii_lowercase()
}

/// The longest dependent chain of requests (in requests) ending on each host.
///
/// A shortest-path computation: a document's chain ends `requests` after the earliest end among
/// the documents declaring it (relaxed to a fixed point, so a declarer later in the file counts and
/// an index listing itself does not lower its own start).
pub fn chain_depths(records: &Records) -> HashMap<String, u32> {
    let docs = &records.documents;
    let doc_urls: std::collections::HashSet<&str> =
        docs.iter().flat_map(|d| [d.requested_url.as_str(), d.url.as_str()]).collect();
    let robots: HashMap<&str, usize> = docs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.probe == "robots" && d.hop == 0)
        .map(|(i, d)| (d.origin.as_str(), i))
        .collect();
    let earliest = |by_url: &HashMap<&str, u32>, url: &str| -> Option<u32> {
        let declared = records.declared_by.get(url).into_iter().flatten();
        declared.filter_map(|p| by_url.get(p.as_str()).copied()).min()
    };
    let mut end: Vec<Option<u32>> = vec![None; docs.len()];
    loop {
        let by_url = ends_by_url(docs, &end);
        let mut changed = false;
        for (i, d) in docs.iter().enumerate() {
            let start = if d.hop == 0 {
                match robots.get(d.origin.as_str()) {
                    Some(&r) if d.probe == "sitemap" => end[r],
                    _ => Some(0),
                }
            } else {
                let declared = records.declared_by.get(&d.requested_url).into_iter().flatten();
                let by_documents = declared.into_iter().any(|p| doc_urls.contains(p.as_str()));
                if by_documents { earliest(&by_url, &d.requested_url) } else { Some(d.hop) }
            };
            if let Some(new) = start.map(|s| s + d.requests)
                && end[i].is_none_or(|old| new < old)
            {
                end[i] = Some(new);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Documents only a cycle declares (none here in practice): `hop` requests deep.
    for (e, d) in end.iter_mut().zip(docs) {
        e.get_or_insert(d.hop + d.requests);
    }
    let by_url = ends_by_url(docs, &end);
    let mut depth: HashMap<String, u32> = HashMap::new();
    for (d, e) in docs.iter().zip(&end) {
        let h = depth.entry(host_of(&d.requested_url)).or_insert(0);
        *h = (*h).max(e.unwrap_or_default());
    }
    for v in &records.verifications {
        let start = earliest(&by_url, &v.value).unwrap_or(1);
        let h = depth.entry(host_of(&v.value)).or_insert(0);
        *h = (*h).max(start + v.requests);
    }
    depth
}

/// Requested and final URL of each document whose end is known -> the earliest end.
fn ends_by_url<'a>(docs: &'a [Document], end: &[Option<u32>]) -> HashMap<&'a str, u32> {
    let mut by_url: HashMap<&str, u32> = HashMap::new();
    for (d, e) in docs.iter().zip(end) {
        if let Some(e) = *e {
            for u in [d.requested_url.as_str(), d.url.as_str()] {
                let slot = by_url.entry(u).or_insert(e);
                *slot = (*slot).min(e);
            }
        }
    }
    by_url
}

/// One host's bound and its three terms, seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct HostBound {
    /// The host.
    pub host: String,
    /// Requests answered for it.
    pub requests: u64,
    /// Longest dependent chain, requests.
    pub chain: u32,
    /// Connection set-up round trips before its first request (2 for https, 1 for http).
    pub setup_rtts: u32,
    /// The chain term.
    pub chain_s: f64,
    /// The rate term.
    pub rate_s: f64,
    /// The concurrency term.
    pub concurrency_s: f64,
}

impl HostBound {
    /// The largest of the three terms.
    pub fn seconds(&self) -> f64 {
        self.chain_s.max(self.rate_s).max(self.concurrency_s)
    }
}

/// The bound of one host with `n` requests, a chain of `chain` requests and `setup_rtts` round
/// trips of connection set-up.
pub fn host_bound(model: &Model, host: &str, n: u64, chain: u32, setup_rtts: u32) -> HostBound {
    let (r, s) = (model.rtt, model.spacing());
    let setup = f64::from(setup_rtts) * r;
    let chain = chain.max(1);
    let chain_s = if chain == 1 { setup + r } else { (setup + r).max(s) + f64::from(chain - 2) * r.max(s) + r };
    let rate_s = n.saturating_sub(1) as f64 * s + r;
    let concurrency_s = setup + n.div_ceil(model.per_host.max(1) as u64) as f64 * r;
    HostBound { host: host.to_string(), requests: n, chain, setup_rtts, chain_s, rate_s, concurrency_s }
}

/// The scan's bound: every host's, largest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// Per host, largest bound first.
    pub hosts: Vec<HostBound>,
}

impl Bound {
    /// Computes the bound of the requests in `log` (one scan's) with the chains of `records`.
    pub fn compute(model: &Model, log: &[Served], records: &Records) -> Bound {
        let depths = chain_depths(records);
        // (requests, any https) per host.
        let mut per_host: BTreeMap<&str, (u64, bool)> = BTreeMap::new();
        for s in log {
            let e = per_host.entry(s.host.as_str()).or_insert((0, false));
            e.0 += 1;
            e.1 |= s.scheme == "https";
        }
        let mut hosts: Vec<HostBound> = per_host
            .into_iter()
            .map(|(h, (n, tls))| {
                let chain = depths.get(h).copied().unwrap_or(1);
                host_bound(model, h, n, chain, if tls { 2 } else { 1 })
            })
            .collect();
        hosts.sort_by(|a, b| b.seconds().total_cmp(&a.seconds()).then_with(|| a.host.cmp(&b.host)));
        Bound { hosts }
    }

    /// The bound with every host at once: the slowest host's.
    pub fn seconds(&self) -> f64 {
        self.hosts.first().map_or(0.0, HostBound::seconds)
    }

    /// The bound with at most `units` hosts in flight: the larger of the slowest host's and the
    /// sum of all hosts' divided by `units`.
    pub fn at_concurrency(&self, units: usize) -> f64 {
        let sum: f64 = self.hosts.iter().map(HostBound::seconds).sum();
        self.seconds().max(sum / units.max(1) as f64)
    }

    /// Not a bound: when each host took exactly its bound and the hosts were taken in `order` (the
    /// target list; hosts not in it last) by `units` slots, each starting the next host as it frees
    /// up, the time the last one ends. What a scan that works on one list position per slot costs
    /// even with ideal origins: a slow origin late in the list starts late.
    pub fn in_list_order(&self, units: usize, order: &[String]) -> f64 {
        let by_host: HashMap<&str, f64> = self.hosts.iter().map(|h| (h.host.as_str(), h.seconds())).collect();
        let listed: std::collections::HashSet<&str> = order.iter().map(String::as_str).collect();
        let times = order
            .iter()
            .filter_map(|h| by_host.get(h.as_str()).copied())
            .chain(self.hosts.iter().filter(|h| !listed.contains(h.host.as_str())).map(HostBound::seconds));
        let mut slots = vec![0.0f64; units.max(1)];
        for t in times {
            // The slot that frees up first takes the next host.
            let (i, _) = slots.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).unwrap_or((0, &0.0));
            slots[i] += t;
        }
        slots.into_iter().fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: Model = Model { rtt: 0.05, per_host: 2, rate: 5.0 };

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn host_terms() {
        // One request on a new TLS connection: TCP, TLS, the request.
        let one = host_bound(&MODEL, "a.test", 1, 1, 2);
        assert!(close(one.seconds(), 0.15), "{one:?}");
        // 11 requests at 5 a second: the last starts 2 s after the first.
        let many = host_bound(&MODEL, "a.test", 11, 3, 2);
        assert!(close(many.rate_s, 2.05) && close(many.seconds(), 2.05), "{many:?}");
        // Chain of 3: first answer at 0.15 s, the next starts at 0.2 s (spacing), then 0.4 s, + r.
        assert!(close(many.chain_s, 0.45), "{many:?}");
        // No rate: 11 requests, 2 at a time: 6 round trips after the set-up.
        let free = host_bound(&Model { rate: 0.0, ..MODEL }, "a.test", 11, 3, 2);
        assert!(close(free.concurrency_s, 0.4) && close(free.chain_s, 0.25) && close(free.seconds(), 0.4), "{free:?}");
    }

    #[test]
    fn parses_log_lines() {
        let s = Served::parse("200 GET https://o0001.bench.test/robots.txt?x=1 y\n").unwrap();
        assert_eq!((s.method.as_str(), s.scheme.as_str(), s.host.as_str()), ("GET", "https", "o0001.bench.test"));
        assert_eq!(s.url, "https://o0001.bench.test/robots.txt?x=1 y");
        assert!(Served::parse("proxy connections=3 bytes_up=1 bytes_down=2").is_none());
        assert!(Served::parse("fixture-server: oops").is_none());
        assert_eq!(host_of("https://[::1]:8443/x"), "[::1]");
        assert_eq!(host_of("http://A.test:80"), "a.test");
    }

    fn records(lines: &[&str]) -> Records {
        let values: Vec<serde_json::Value> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        let mut r = Records::default();
        for v in &values {
            r.add_line(v);
        }
        let wanted = r.wanted();
        for v in &values {
            r.add_declaration(v, &wanted);
        }
        r
    }

    #[test]
    fn chains_follow_declarations_redirects_and_verification() {
        let r = records(&[
            r#"{"type":"document","probe":"robots","hop":0,"origin":"https://a.test","requested_url":"https://a.test/robots.txt","url":"https://a.test/robots.txt","redirect_chain":[],"failure":null}"#,
            r#"{"type":"candidate","kind":"sitemap","value":"https://a.test/index.xml","evidence":{"document_url":"https://a.test/robots.txt"}}"#,
            // The index answers after one redirect: 2 requests, after robots.txt (1): ends at 3.
            r#"{"type":"document","probe":"sitemap","hop":1,"origin":"https://a.test","requested_url":"https://a.test/index.xml","url":"https://a.test/new-index.xml","redirect_chain":[{"url":"https://a.test/index.xml","status":301}],"failure":null}"#,
            r#"{"type":"candidate","kind":"sitemap","value":"https://a.test/child.xml","evidence":{"document_url":"https://a.test/new-index.xml"}}"#,
            r#"{"type":"document","probe":"sitemap","hop":2,"origin":"https://a.test","requested_url":"https://a.test/child.xml","url":"https://a.test/child.xml","redirect_chain":[],"failure":null}"#,
            // Declared by the child (ends at 4) and by robots.txt (ends at 1): the earliest counts.
            r#"{"type":"candidate","kind":"url","value":"https://a.test/page","evidence":{"document_url":"https://a.test/child.xml"}}"#,
            r#"{"type":"evidence","kind":"path","value":"https://a.test/page","evidence":{"document_url":"https://a.test/robots.txt"}}"#,
            r#"{"type":"verification","value":"https://a.test/page","method":"GET","source":"request"}"#,
            // The sitemap probe's own /sitemap.xml waits for robots.txt: ends at 2.
            r#"{"type":"document","probe":"sitemap","hop":0,"origin":"https://a.test","requested_url":"https://a.test/sitemap.xml","url":"https://a.test/sitemap.xml","redirect_chain":[],"failure":null}"#,
            // Not requested: no chain.
            r#"{"type":"document","probe":"security.txt","hop":0,"origin":"https://b.test","requested_url":"https://b.test/x","url":"https://b.test/x","redirect_chain":[],"failure":{"class":"connect_refused"},"not_attempted":true}"#,
            // A redirect out of scope: one request (the redirect), the target is not requested.
            r#"{"type":"document","probe":"security.txt","hop":0,"origin":"https://c.test","requested_url":"https://c.test/s","url":"https://elsewhere.example/s","redirect_chain":[{"url":"https://c.test/s","status":302}],"failure":{"class":"out_of_scope"}}"#,
        ]);
        assert_eq!(r.documents.len(), 5);
        let depths = chain_depths(&r);
        // robots (1) -> index (2 requests) -> child (1) = 4; the page's HEAD + GET after robots = 3.
        assert_eq!(depths.get("a.test"), Some(&4));
        assert_eq!(depths.get("b.test"), None);
        assert_eq!(depths.get("c.test"), Some(&1));
    }

    #[test]
    fn bound_is_the_slowest_host_and_the_sum_over_units() {
        let log: Vec<Served> = ["200 GET https://a.test/1", "200 GET https://a.test/2", "200 GET https://b.test/1"]
            .iter()
            .map(|l| Served::parse(l).unwrap())
            .collect();
        let b = Bound::compute(&MODEL, &log, &Records::default());
        assert_eq!(b.hosts.iter().map(|h| h.host.as_str()).collect::<Vec<_>>(), ["a.test", "b.test"]);
        // a.test: max(chain 0.15, rate 0.25, concurrency 0.15) = 0.25; b.test: 0.15.
        assert!(close(b.seconds(), 0.25) && close(b.at_concurrency(1), 0.40) && close(b.at_concurrency(16), 0.25));
        // One slot: one after the other; two: side by side.
        let order = ["b.test".to_string(), "a.test".to_string()];
        assert!(close(b.in_list_order(1, &order), 0.40) && close(b.in_list_order(2, &order), 0.25));
    }

    #[test]
    fn a_slow_host_late_in_the_list_starts_late() {
        let log: Vec<Served> = ["200 GET https://a.test/1", "200 GET https://b.test/1", "200 GET https://c.test/1"]
            .iter()
            .chain(&["200 GET https://c.test/2"; 10])
            .map(|l| Served::parse(l).unwrap())
            .collect();
        let b = Bound::compute(&MODEL, &log, &Records::default());
        // c.test: 11 requests at 5 a second = 2.05 s; a and b 0.15 s each. Two slots: c starts when
        // the first of a and b is done.
        let order: Vec<String> = ["a.test", "b.test", "c.test"].iter().map(|s| s.to_string()).collect();
        assert!(close(b.seconds(), 2.05) && close(b.in_list_order(2, &order), 2.20), "{b:?}");
    }
}
