//! The probe contract: what a plugin implements (`docs/probe-contract.md`).
//!
//! A probe knows where its document lives for a [`Target`], how to fetch it ([`FetchPolicy`]) and how
//! to interpret the bytes ([`WellKnownProbe::interpret`], a pure function). It fetches only through the
//! [`ProbeContext`] the engine hands in, so one per-host politeness budget and one scope check cover
//! every probe.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::Timestamp;
use crate::fetch::{FetchMeta, FetchPolicy, FetchRequest, FetchResult};
use crate::origin::Origin;
use crate::report::Report;

/// What a probe is run on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Target {
    /// An origin from the inventory: the probe looks at its conventional location(s).
    Origin {
        /// The origin scanned.
        origin: Origin,
    },
    /// A URL handed to the probe: a child sitemap, an issuer, a JWKS, an include.
    Url {
        /// The URL to interpret (or, for issuer-based probes, the issuer identifier).
        url: Url,
        /// Why (`child_sitemap`, `robots_sitemap`, `issuer`, `jwks_uri`, ...).
        role: String,
        /// Documents that declared this URL.
        declared_by: Vec<Url>,
    },
}

impl Target {
    /// An origin target.
    pub fn origin(origin: Origin) -> Target {
        Target::Origin { origin }
    }

    /// The origin this target belongs to (for a URL target, the URL's origin).
    pub fn origin_of(&self) -> Option<Origin> {
        match self {
            Target::Origin { origin } => Some(origin.clone()),
            Target::Url { url, .. } => Origin::from_url(url).ok(),
        }
    }

    /// The role of a URL target (`origin` for origin targets).
    pub fn role(&self) -> &str {
        match self {
            Target::Origin { .. } => "origin",
            Target::Url { role, .. } => role,
        }
    }

    /// Documents that declared this target.
    pub fn declared_by(&self) -> &[Url] {
        match self {
            Target::Origin { .. } => &[],
            Target::Url { declared_by, .. } => declared_by,
        }
    }
}

/// One fetched (or attempted) document and its interpretation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// Probe id.
    pub probe: String,
    /// Why it was fetched (`origin`, `legacy_location`, `child_sitemap`, ...).
    pub role: String,
    /// How it was fetched.
    pub meta: FetchMeta,
    /// The interpretation, None when nothing was interpreted (fetch failed, or non-2xx and the probe
    /// has nothing to say about it).
    pub report: Option<Report>,
}

/// What the engine gives a probe: the only way to reach the network.
#[async_trait]
pub trait ProbeContext: Send + Sync {
    /// Fetches one URL. Scope, private-address refusal and per-host politeness are applied by the
    /// engine before any byte is sent; a refused request comes back with a [`crate::FetchFailure`].
    async fn fetch(&self, request: FetchRequest) -> FetchResult;

    /// The scan's clock (injectable for tests).
    fn now(&self) -> Timestamp;
}

/// When a probe runs on an origin unit, relative to the other probes of that unit. The engine runs
/// every probe of an origin concurrently (each request still waits for its host's politeness
/// budget) except as this says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OriginOrder {
    /// Runs before the [`OriginOrder::AfterFirst`] probes: its document may declare theirs
    /// (robots.txt `Sitemap:` lines, RFC 9309 section 2.2.4). Its follow-ups are queued before they
    /// start.
    First,
    /// Starts once every [`OriginOrder::First`] probe's documents are interpreted: its location
    /// may be declared there (`/sitemap.xml` named by robots.txt), and a declared URL is fetched
    /// once, with its declaration attached.
    AfterFirst,
    /// Starts with the first probes, at once.
    Concurrent,
}

/// What a probe is, declared once as a `const` (`docs/probe-contract.md`, section 1): the
/// [`WellKnownProbe`] methods [`id`](WellKnownProbe::id), [`suffix`](WellKnownProbe::suffix),
/// [`summary`](WellKnownProbe::summary), [`spec`](WellKnownProbe::spec),
/// [`codes`](WellKnownProbe::codes) and the default [`locations`](WellKnownProbe::locations) read it.
///
/// ```
/// use wellknown_core::probe::ProbeInfo;
///
/// const INFO: ProbeInfo = ProbeInfo {
///     id: "change-password",
///     suffix: Some("change-password"),
///     summary: "Change password URL: where a password manager sends a user to change their password",
///     spec: "W3C A Well-Known URL for Changing Passwords",
///     page: "change-password",
///     codes: &["served_at_well_known", "insecure_transport"],
/// };
/// assert_eq!(INFO.page_path(), "docs/plugins/change-password.md");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeInfo {
    /// Stable probe id (`robots`, `sitemap`, `security.txt`, ...): lower case, `[a-z0-9._-]`, unique
    /// among registered probes, never changed once published (contract rule 1.2).
    pub id: &'static str,
    /// The RFC 8615 well-known suffix the probe reads at `/.well-known/<suffix>` (a `segment-nz`,
    /// RFC 3986 section 3.3), or None for documents elsewhere (robots.txt, sitemaps, JWK Sets).
    pub suffix: Option<&'static str>,
    /// One line saying what the document is.
    pub summary: &'static str,
    /// The specification the probe implements (`RFC 9309`, `OpenID Connect Discovery 1.0`).
    pub spec: &'static str,
    /// The stem of the probe's documentation page, `docs/plugins/<page>.md` (the plugin directory:
    /// `security-txt` for `security.txt`; `oauth-authorization-server` for `jwks`, which that crate
    /// also registers).
    pub page: &'static str,
    /// Every diagnostic code the probe can emit, shared ones included (the plugin's `codes::ALL`,
    /// contract rule 7.3). A code built at run time from a member name is listed as its pattern,
    /// `invalid_<member>`: see [`code_listed`].
    pub codes: &'static [&'static str],
}

impl ProbeInfo {
    /// The probe's documentation page relative to the workspace root: `docs/plugins/<page>.md`.
    pub fn page_path(&self) -> String {
        format!("docs/plugins/{}.md", self.page)
    }
}

/// True when `code` is one of `listed`, either as is or through a pattern entry: `prefix<name>`
/// (angle brackets at the end) stands for `prefix` followed by one or more characters of
/// `[a-z0-9_.]` (`invalid_<member>` covers `invalid_jwks_uri`).
pub fn code_listed(listed: &[&str], code: &str) -> bool {
    listed.iter().any(|entry| match entry.find('<') {
        Some(at) if entry.ends_with('>') => entry.get(..at).is_some_and(|prefix| {
            code.strip_prefix(prefix).is_some_and(|rest| {
                !rest.is_empty()
                    && rest.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.')
            })
        }),
        _ => *entry == code,
    })
}

/// A plugin that interprets one kind of document published at a predictable location.
///
/// A probe declares what it is once, in a `const` [`ProbeInfo`] returned by
/// [`info`](WellKnownProbe::info); everything else has a default: locations from the suffix, the
/// default fetch policy, concurrent with the other probes of an origin, no issuer units, and a
/// [`run`](WellKnownProbe::run) that tries each location until a 2xx. A probe implements at least
/// `info` and [`interpret`](WellKnownProbe::interpret).
///
/// Guarantees a probe must keep (checked by tests in each plugin):
/// * [`interpret`](WellKnownProbe::interpret) is pure: no I/O, no clock reads, no panics on any input,
///   bounded work and memory for any input size up to the policy's cap;
/// * every candidate is normalised and carries a locator where the format has one;
/// * a document that fails to parse still yields every candidate that could be read before the failure;
/// * every diagnostic code it emits is listed in [`ProbeInfo::codes`].
#[async_trait]
pub trait WellKnownProbe: Send + Sync + 'static {
    /// What the probe is: id, suffix, summary, specification, documentation page, codes.
    fn info(&self) -> &'static ProbeInfo;

    /// Stable probe id (`robots`, `sitemap`, `security.txt`, `openid-configuration`, ...):
    /// [`ProbeInfo::id`].
    fn id(&self) -> &'static str {
        self.info().id
    }

    /// The RFC 8615 well-known suffix this probe reads (`security.txt`), or None for documents outside
    /// `/.well-known/` (robots.txt, sitemaps): [`ProbeInfo::suffix`].
    fn suffix(&self) -> Option<&'static str> {
        self.info().suffix
    }

    /// One line saying what the document is: [`ProbeInfo::summary`].
    fn summary(&self) -> &'static str {
        self.info().summary
    }

    /// The specification the probe implements (`RFC 9309`): [`ProbeInfo::spec`].
    fn spec(&self) -> &'static str {
        self.info().spec
    }

    /// Every diagnostic code the probe can emit (its `codes::ALL`): [`ProbeInfo::codes`].
    fn codes(&self) -> &'static [&'static str] {
        self.info().codes
    }

    /// True when the probe runs on every origin of the inventory (false for follow-up-only probes).
    fn runs_on_origin(&self) -> bool {
        true
    }

    /// When the probe runs on an origin unit, relative to the others (see [`OriginOrder`]).
    /// Default: [`OriginOrder::Concurrent`].
    fn origin_order(&self) -> OriginOrder {
        OriginOrder::Concurrent
    }

    /// True when the probe also runs on issuer units (an issuer identifier given with `--issuer` or
    /// revealed by a document), with [`Target::Url`] of role `issuer`: the metadata documents an
    /// issuer publishes (OpenID Connect Discovery 1.0 section 4, RFC 8414 section 3). Default: false.
    fn takes_issuer(&self) -> bool {
        false
    }

    /// How the document must be fetched.
    fn policy(&self) -> FetchPolicy {
        FetchPolicy::default()
    }

    /// Where to look for the document for `target`, in order of preference. The default
    /// [`run`](WellKnownProbe::run) tries them in order and stops at the first 2xx.
    ///
    /// Default: for an origin, `<origin>/.well-known/<suffix>` (RFC 8615 section 3, built by
    /// [`crate::wellknown::url`]) when the probe has a suffix, else nothing; for a URL target (a
    /// follow-up handed to the probe), that URL.
    fn locations(&self, target: &Target) -> Vec<Url> {
        match target {
            Target::Origin { origin } => {
                self.suffix().and_then(|suffix| crate::wellknown::url(origin, suffix)).into_iter().collect()
            }
            Target::Url { url, .. } => vec![url.clone()],
        }
    }

    /// Interprets a 2xx response body. Pure.
    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report;

    /// Interprets a non-2xx response or a failed fetch, when the status itself means something for
    /// this document (robots.txt: 4xx = no restrictions, 5xx = full disallow). Pure. Default: nothing.
    fn interpret_unavailable(&self, _meta: &FetchMeta) -> Option<Report> {
        None
    }

    /// Runs the probe on `target`: fetches each location in turn (stopping at the first 2xx) and
    /// interprets it. Probes with richer fetch logic override this.
    async fn run(&self, target: &Target, cx: &dyn ProbeContext) -> Vec<Document> {
        let mut docs = Vec::new();
        for (i, url) in self.locations(target).into_iter().enumerate() {
            let role = if i == 0 { target.role().to_string() } else { "fallback_location".to_string() };
            let doc = fetch_and_interpret(self, url, role, target.declared_by(), cx).await;
            let found = doc.meta.is_success();
            docs.push(doc);
            if found {
                break;
            }
        }
        docs
    }
}

/// Fetches `url` with the probe's policy and interprets the result: 2xx through
/// [`WellKnownProbe::interpret`], anything else through [`WellKnownProbe::interpret_unavailable`].
pub async fn fetch_and_interpret<P: WellKnownProbe + ?Sized>(
    probe: &P,
    url: Url,
    role: String,
    declared_by: &[Url],
    cx: &dyn ProbeContext,
) -> Document {
    let result = cx.fetch(FetchRequest::get(url, probe.policy())).await;
    let mut meta = result.meta;
    meta.declared_by = declared_by.to_vec();
    // A body cut at the hard cap is still a 2xx body: interpret what arrived (the truncation is in
    // the metadata). Any other failure means there is no document to read.
    let usable = meta.failure.as_ref().is_none_or(|f| f.class == crate::FailureClass::BodyTooLarge);
    let report = if meta.is_success() && usable {
        Some(probe.interpret(&result.body, &meta))
    } else {
        probe.interpret_unavailable(&meta)
    };
    Document { probe: probe.id().to_string(), role, meta, report }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;
    const PLAIN: ProbeInfo = ProbeInfo {
        id: "plain",
        suffix: Some("plain.txt"),
        summary: "a test probe",
        spec: "none",
        page: "plain",
        codes: &["empty_document", "invalid_<member>"],
    };
    impl WellKnownProbe for Plain {
        fn info(&self) -> &'static ProbeInfo {
            &PLAIN
        }
        fn interpret(&self, _body: &[u8], meta: &FetchMeta) -> Report {
            Report::new(self.id(), &meta.url, "plain")
        }
    }

    #[test]
    fn defaults_read_the_info_and_build_the_well_known_url() {
        assert_eq!((Plain.id(), Plain.suffix(), Plain.spec()), ("plain", Some("plain.txt"), "none"));
        assert_eq!(Plain.codes(), ["empty_document", "invalid_<member>"]);
        let origin = Target::origin(Origin::parse_target("https://a.example:8443").unwrap());
        let urls: Vec<String> = Plain.locations(&origin).iter().map(Url::to_string).collect();
        assert_eq!(urls, ["https://a.example:8443/.well-known/plain.txt"]);
        let url = Url::parse("https://b.example/x.txt").unwrap();
        let follow = Target::Url { url: url.clone(), role: "include".into(), declared_by: vec![] };
        assert_eq!(Plain.locations(&follow), vec![url]);
        assert_eq!(PLAIN.page_path(), "docs/plugins/plain.md");
    }

    #[test]
    fn code_patterns() {
        let listed = ["empty_document", "invalid_<member>"];
        assert!(code_listed(&listed, "empty_document"));
        assert!(code_listed(&listed, "invalid_jwks_uri"));
        assert!(!code_listed(&listed, "invalid_"));
        assert!(!code_listed(&listed, "invalid_Jwks"));
        assert!(!code_listed(&listed, "missing_issuer"));
    }
}
