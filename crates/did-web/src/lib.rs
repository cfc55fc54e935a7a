//! `wellknown-did-web`: did:web identifiers (W3C CCG "did:web Method Specification", section
//! 3.1-3.2), shared by the probes that read them (a library, not a plugin: it registers no probe).
//!
//! Users: `plugins/did-json` (the DID document's `id` against its URL) and
//! `plugins/did-configuration-json` (the DIDs of Domain Linkage Credentials, followed to their
//! documents). Neither plugin depends on the other; both build on this crate.
//!
//! * [`did_for_origin`]: the DID an origin serves at `/.well-known/did.json`.
//! * [`DidWeb`]: a did:web DID read, and the URL it resolves to.

use url::Url;
use wellknown_core::{Host, Origin};

/// The did:web DID whose document lives at `<origin>/.well-known/did.json`: `did:web:<host>`, with a
/// non-default port percent-encoded (`did:web:host%3A8443`, section 3.1). Hosts are lower-case
/// punycode, as [`Origin`] holds them.
pub fn did_for_origin(origin: &Origin) -> String {
    let host = origin.host().as_url_host();
    if origin.is_default_port() { format!("did:web:{host}") } else { format!("did:web:{host}%3A{}", origin.port()) }
}

/// A did:web DID read: its host, port (when encoded) and path segments. None when `did` is not a
/// did:web DID or its host does not parse. A DID URL's fragment or query (`#key-1`) is ignored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DidWeb {
    /// The host, lower-case punycode.
    pub host: Host,
    /// The port, when the DID encodes one (`%3A8443`).
    pub port: Option<u16>,
    /// The path segments after the host (`did:web:example.com:user:alice` -> `["user", "alice"]`).
    pub path: Vec<String>,
}

impl DidWeb {
    /// Parses `did` (case-sensitive method name, section 3.1).
    pub fn parse(did: &str) -> Option<DidWeb> {
        let rest = did.strip_prefix("did:web:")?;
        let rest = rest.split(['#', '?']).next().unwrap_or_default();
        let mut parts = rest.split(':');
        let authority = parts.next().filter(|a| !a.is_empty())?;
        let decoded = authority.replace("%3A", ":").replace("%3a", ":");
        let (host, port) = match decoded.rsplit_once(':') {
            Some((h, p)) if !h.contains(']') || h.ends_with(']') => (h.to_string(), Some(p.parse::<u16>().ok()?)),
            _ => (decoded, None),
        };
        let host = Host::parse(&host).ok()?;
        let path: Vec<String> = parts.map(str::to_string).collect();
        if path.iter().any(String::is_empty) {
            return None;
        }
        Some(DidWeb { host, port, path })
    }

    /// The origin the DID names (`https`, section 3.2: did:web resolves over https only).
    pub fn origin(&self) -> Option<Origin> {
        Origin::new("https", self.host.clone(), self.port).ok()
    }

    /// The URL of the DID document (section 3.2, "Read"): `https://<host>[:port]/.well-known/did.json`
    /// without a path, `https://<host>[:port]/<path>/did.json` with one.
    pub fn document_url(&self) -> Option<Url> {
        let origin = self.origin()?;
        if self.path.is_empty() {
            return wellknown_core::wellknown::url(&origin, "did.json");
        }
        let mut url = origin.root();
        {
            let mut segments = url.path_segments_mut().ok()?;
            segments.clear();
            for s in &self.path {
                segments.push(s);
            }
            segments.push("did.json");
        }
        Some(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dids_and_urls() {
        let o = Origin::parse_target("https://Example.COM:8443").unwrap();
        assert_eq!(did_for_origin(&o), "did:web:example.com%3A8443");
        let o = Origin::parse_target("https://example.com").unwrap();
        assert_eq!(did_for_origin(&o), "did:web:example.com");
        let d = DidWeb::parse("did:web:example.com%3A8443#key-1").unwrap();
        assert_eq!(d.port, Some(8443));
        assert_eq!(d.document_url().unwrap().as_str(), "https://example.com:8443/.well-known/did.json");
        let d = DidWeb::parse("did:web:w3c-ccg.github.io:user:alice").unwrap();
        assert_eq!(d.document_url().unwrap().as_str(), "https://w3c-ccg.github.io/user/alice/did.json");
        assert!(DidWeb::parse("did:key:z6Mk").is_none());
        assert!(DidWeb::parse("did:web:").is_none());
        assert!(DidWeb::parse("did:web:a.example%3Axyz").is_none());
    }
}
