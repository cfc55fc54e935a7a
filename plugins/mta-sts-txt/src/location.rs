//! The location rule of RFC 8461 section 3.2: the policy lives on the Policy Host, `mta-sts.` in
//! front of the Policy Domain, over HTTPS on the default port, whatever origin is scanned.

use url::Url;
use wellknown_core::{Host, Origin};

/// The label RFC 8461 section 3.2 puts in front of the Policy Domain to name the Policy Host.
pub const POLICY_HOST_LABEL: &str = "mta-sts";

/// The policy URL for `origin`: `https://mta-sts.<host>/.well-known/mta-sts.txt` (RFC 8461 section
/// 3.2), or, when the origin's host already is a Policy Host (its first label is `mta-sts`), the
/// policy on that host. Always `https` on port 443 (section 3.3: the policy is fetched over HTTPS
/// from the Policy Host), so an `http` origin or one with another port gives the same URL as the
/// host's `https` origin. None for an IP-literal host (a Policy Domain is a domain name).
///
/// The URL is usually on another host than the origin: the scan's scope decides whether it is
/// requested (the default scope, the registrable domain, holds it).
pub fn policy_url(origin: &Origin) -> Option<Url> {
    let Host::Domain(name) = origin.host() else { return None };
    let host = if is_policy_host(name) { name.clone() } else { format!("{POLICY_HOST_LABEL}.{name}") };
    let host = Host::parse(&host).ok()?;
    let origin = Origin::new("https", host, None).ok()?;
    wellknown_core::wellknown::url(&origin, crate::SUFFIX)
}

/// The Policy Domain a policy URL serves: its host without the leading `mta-sts.` label. None when
/// the host is not a Policy Host (an IP literal, or a first label other than `mta-sts`) or nothing
/// is left after the label.
pub fn policy_domain(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    let rest = host.strip_prefix(POLICY_HOST_LABEL)?.strip_prefix('.')?;
    (!rest.is_empty() && Host::parse(rest).is_ok_and(|h| h.ip().is_none())).then(|| rest.to_string())
}

fn is_policy_host(name: &str) -> bool {
    name.strip_prefix(POLICY_HOST_LABEL).is_some_and(|rest| rest.starts_with('.') && rest.len() > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(origin: &str) -> Option<String> {
        policy_url(&Origin::parse_target(origin).unwrap()).map(|u| u.to_string())
    }

    #[test]
    fn policy_host_is_mta_sts_label_in_front() {
        assert_eq!(at("https://example.com").as_deref(), Some("https://mta-sts.example.com/.well-known/mta-sts.txt"));
        assert_eq!(
            at("http://example.com:8080").as_deref(),
            Some("https://mta-sts.example.com/.well-known/mta-sts.txt")
        );
        assert_eq!(
            at("https://mta-sts.example.com").as_deref(),
            Some("https://mta-sts.example.com/.well-known/mta-sts.txt")
        );
        assert_eq!(
            at("https://mta-stsx.example.com").as_deref(),
            Some("https://mta-sts.mta-stsx.example.com/.well-known/mta-sts.txt")
        );
        assert_eq!(at("https://192.0.2.7"), None);
        assert_eq!(at("https://[2001:db8::1]"), None);
    }

    #[test]
    fn policy_domain_is_the_host_without_the_label() {
        let d = |u: &str| policy_domain(&Url::parse(u).unwrap());
        assert_eq!(d("https://mta-sts.example.com/.well-known/mta-sts.txt").as_deref(), Some("example.com"));
        assert_eq!(d("https://www.example.com/.well-known/mta-sts.txt"), None);
    }
}
