//! Every registered probe's `interpret` (and `interpret_unavailable`) on arbitrary bytes, with the
//! fetch metadata varied by the first two bytes: which probe, which media type, http or https,
//! redirected or not, cut at the fetch cap or not. Invariants: no panic, and `valid` agrees with
//! the absence of errors.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use url::Url;
use wellknown_core::{FetchMeta, RedirectHop, Timestamp, WellKnownProbe, probes};

// Link every plugin so its `inventory` registration is collected.
use wellknown_agent_card_json as _;
use wellknown_api_catalog as _;
use wellknown_apple_app_site_association as _;
use wellknown_apple_app_site_association as _;
use wellknown_assetlinks as _;
use wellknown_assetlinks as _;
use wellknown_change_password as _;
use wellknown_change_password as _;
use wellknown_csaf as _;
use wellknown_did_configuration_json as _;
use wellknown_did_json as _;
use wellknown_host_meta as _;
use wellknown_jwks_json as _;
use wellknown_matrix as _;
use wellknown_mta_sts_txt as _;
use wellknown_nodeinfo as _;
use wellknown_oauth_authorization_server as _;
use wellknown_oauth_protected_resource as _;
use wellknown_openid_configuration as _;
use wellknown_openid_federation as _;
use wellknown_related_website_set_json as _;
use wellknown_robots as _;
use wellknown_robots as _;
use wellknown_security_txt as _;
use wellknown_security_txt as _;
use wellknown_sitemap as _;
use wellknown_sitemap as _;
use wellknown_trust_txt as _;
use wellknown_uma2_configuration as _;
use wellknown_webauthn as _;

const MEDIA: [Option<&str>; 6] = [
    None,
    Some("text/plain; charset=utf-8"),
    Some("application/json"),
    Some("application/xml"),
    Some("text/html"),
    Some("application/x-gzip"),
];

fuzz_target!(|data: &[u8]| {
    let [which, flags, body @ ..] = data else { return };
    static ALL: OnceLock<Vec<&'static dyn WellKnownProbe>> = OnceLock::new();
    let all = ALL.get_or_init(probes);
    let Some(probe) = all.get(usize::from(*which) % all.len().max(1)) else { return };
    let scheme = if flags & 1 == 0 { "https" } else { "http" };
    let path = match probe.suffix() {
        Some(s) => format!("/.well-known/{s}"),
        None if probe.id() == "robots" => "/robots.txt".to_string(),
        None => "/sitemap.xml".to_string(),
    };
    let Ok(url) = Url::parse(&format!("{scheme}://a.example{path}")) else { return };
    let media = MEDIA[usize::from(flags >> 1) % MEDIA.len()];
    let mut meta = FetchMeta::synthetic(url.clone(), media, Timestamp::UNIX_EPOCH);
    if flags & 0x40 != 0 {
        meta.redirect_chain = vec![RedirectHop { url, status: 302 }];
    }
    meta.truncated = flags & 0x80 != 0;
    meta.size = body.len() as u64;
    let report = probe.interpret(body, &meta);
    assert_eq!(report.valid(), report.errors.is_empty());
    meta.status = Some(u16::from(*which) + 300);
    let _ = probe.interpret_unavailable(&meta);
});
