//! The registered probes: one document each under `/.well-known/matrix/`.

use url::Url;
use wellknown_core::probe::ProbeInfo;
use wellknown_core::{FetchMeta, FetchPolicy, Report, Target, WellKnownProbe};

use crate::{CLIENT_PROBE_ID, MAX_CLIENT_BODY_BYTES, MAX_SERVER_BODY_BYTES, SERVER_PROBE_ID, SUFFIX};

/// The `/.well-known/matrix/server` probe (id `matrix-server`, suffix `matrix`).
///
/// * Origin targets: `<origin>/.well-known/matrix/server`, one request.
/// * URL targets: the URL itself.
///
/// Redirects are followed, up to 5 (server-server API, server discovery step 3: "30x redirects
/// should be followed, however redirection loops should be avoided"); body cap
/// [`MAX_SERVER_BODY_BYTES`]; `Accept: application/json`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MatrixServerProbe;

/// The `/.well-known/matrix/client` probe (id `matrix-client`, suffix `matrix`).
///
/// * Origin targets: `<origin>/.well-known/matrix/client`, one request.
/// * URL targets: the URL itself.
///
/// Redirects are followed, up to 5; body cap [`MAX_CLIENT_BODY_BYTES`]; `Accept: application/json`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MatrixClientProbe;

fn policy(max: u64) -> FetchPolicy {
    FetchPolicy { max_body_bytes: max, accept: Some("application/json".to_string()), ..FetchPolicy::default() }
}

fn locations(target: &Target, document: &str) -> Vec<Url> {
    match target {
        Target::Origin { origin } => wellknown_core::wellknown::url(origin, SUFFIX)
            .and_then(|u| u.join(&format!("{SUFFIX}/{document}")).ok())
            .into_iter()
            .collect(),
        Target::Url { url, .. } => vec![url.clone()],
    }
}

impl MatrixServerProbe {
    /// What the probe is (the page `docs/plugins/matrix.md` covers both Matrix probes).
    pub const INFO: ProbeInfo = ProbeInfo {
        id: SERVER_PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Matrix server delegation (/.well-known/matrix/server): the host and port federation traffic goes to",
        spec: "Matrix server-server API (server discovery)",
        page: "matrix",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for MatrixServerProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        policy(MAX_SERVER_BODY_BYTES)
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        locations(target, "server")
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret_server(body, meta)
    }
}

impl MatrixClientProbe {
    /// What the probe is (the page `docs/plugins/matrix.md` covers both Matrix probes).
    pub const INFO: ProbeInfo = ProbeInfo {
        id: CLIENT_PROBE_ID,
        suffix: Some(SUFFIX),
        summary: "Matrix client discovery (/.well-known/matrix/client): the homeserver and identity server base URLs",
        spec: "Matrix client-server API (server discovery)",
        page: "matrix",
        codes: crate::codes::ALL,
    };
}

impl WellKnownProbe for MatrixClientProbe {
    fn info(&self) -> &'static ProbeInfo {
        &Self::INFO
    }

    fn policy(&self) -> FetchPolicy {
        policy(MAX_CLIENT_BODY_BYTES)
    }

    fn locations(&self, target: &Target) -> Vec<Url> {
        locations(target, "client")
    }

    fn interpret(&self, body: &[u8], meta: &FetchMeta) -> Report {
        crate::interpret_client(body, meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Origin;

    #[test]
    fn locations_and_registration() {
        let origin = Target::origin(Origin::parse_target("https://a.example:8443").unwrap());
        assert_eq!(
            MatrixServerProbe.locations(&origin),
            vec![Url::parse("https://a.example:8443/.well-known/matrix/server").unwrap()]
        );
        assert_eq!(
            MatrixClientProbe.locations(&origin),
            vec![Url::parse("https://a.example:8443/.well-known/matrix/client").unwrap()]
        );
        for id in [SERVER_PROBE_ID, CLIENT_PROBE_ID] {
            let p = wellknown_core::probe_by_id(id).expect("registered with inventory");
            assert_eq!(p.suffix(), Some("matrix"));
        }
    }
}
