//! Candidates: relations a document declares, to be verified later.
//!
//! A candidate is `source document --relation--> value`. The value is normalised (URLs through the
//! `url` crate's serialisation, hosts lower-case punycode). A candidate is a *claim* made by a
//! document, never a verified fact: robots.txt paths are crawl preferences, sitemap URLs are
//! declarations, security.txt contacts are what the file says.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use url::Url;

use crate::Timestamp;
use crate::diag::Locator;

/// What a candidate's value is (design.md, "The probe contract").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CandidateKind {
    /// An absolute, fetchable URL.
    Url,
    /// A host name or IP literal, for the host inventory.
    Host,
    /// An origin (`scheme://host[:port]`), for the host inventory.
    Origin,
    /// A path pattern (robots.txt rule, AASA component); not fetchable as is.
    Path,
    /// A sitemap URL (to be interpreted by the sitemap probe).
    Sitemap,
    /// An OAuth / OpenID issuer identifier.
    Issuer,
    /// A protocol endpoint URL declared by metadata.
    Endpoint,
    /// A contact (mailto:, tel:, https:) in preference order.
    Contact,
    /// A mobile app (`android:<package>`, `apple:<TeamID.bundleID>`).
    App,
    /// A key or certificate fingerprint (`sha256:<HEX>`, JWK thumbprint).
    Key,
}

impl CandidateKind {
    /// The `snake_case` name used in records and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            CandidateKind::Url => "url",
            CandidateKind::Host => "host",
            CandidateKind::Origin => "origin",
            CandidateKind::Path => "path",
            CandidateKind::Sitemap => "sitemap",
            CandidateKind::Issuer => "issuer",
            CandidateKind::Endpoint => "endpoint",
            CandidateKind::Contact => "contact",
            CandidateKind::App => "app",
            CandidateKind::Key => "key",
        }
    }

    /// Every kind, in declaration order.
    pub const ALL: [CandidateKind; 10] = [
        CandidateKind::Url,
        CandidateKind::Host,
        CandidateKind::Origin,
        CandidateKind::Path,
        CandidateKind::Sitemap,
        CandidateKind::Issuer,
        CandidateKind::Endpoint,
        CandidateKind::Contact,
        CandidateKind::App,
        CandidateKind::Key,
    ];

    /// Parses a kind name (`url`, `host`, ...).
    pub fn parse(s: &str) -> Option<CandidateKind> {
        CandidateKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

impl std::fmt::Display for CandidateKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One relation a document declares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// What the value is.
    pub kind: CandidateKind,
    /// The relation's name, in the document's own terms (`robots_disallow`, `sitemap_loc`,
    /// `token_endpoint`, `contact`, ...).
    pub relation: String,
    /// The normalised value.
    pub value: String,
    /// Where in the document the relation is declared.
    pub locator: Option<Locator>,
    /// Hints the document declares about the value (lastmod, changefreq, priority, user-agent group,
    /// crawl-delay): recorded as declared, never as verified facts.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hints: BTreeMap<String, String>,
    /// Flags qualifying the claim (`out_of_location`, `excluded`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
}

impl Candidate {
    /// A candidate with no hints or flags.
    pub fn new(
        kind: CandidateKind,
        relation: impl Into<String>,
        value: impl Into<String>,
        locator: Option<Locator>,
    ) -> Self {
        Candidate {
            kind,
            relation: relation.into(),
            value: value.into(),
            locator,
            hints: BTreeMap::new(),
            flags: Vec::new(),
        }
    }

    /// Adds a declared hint (builder style).
    pub fn with_hint(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.hints.insert(key.into(), value.into());
        self
    }

    /// Adds a flag (builder style).
    pub fn with_flag(mut self, flag: impl Into<String>) -> Self {
        let f = flag.into();
        if !self.flags.contains(&f) {
            self.flags.push(f);
        }
        self
    }

    /// True when the candidate carries `flag`.
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

/// Flags shared by several probes and the engine (`Candidate::flags`).
pub mod flags {
    /// The URL carried a user name or password (`https://user:secret@host/`, RFC 3986 section 3.2.1
    /// deprecates it), in a `Location` header or in a document: the value is recorded without them.
    pub const CREDENTIALS_IN_URL: &str = "credentials_in_url";
}

/// Where a candidate comes from: the document, when it was fetched, its status, and the place in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Final URL of the document that declares the relation.
    pub document_url: Url,
    /// Probe id that interpreted it.
    pub probe: String,
    /// When the document was fetched (UTC).
    pub fetched_at: Timestamp,
    /// HTTP status of the final response (None when the document came from a local file).
    pub status: Option<u16>,
    /// Where in the document.
    pub locator: Option<Locator>,
}
