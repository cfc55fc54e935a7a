//! `/.well-known/matrix/server` (server-server API, "Server discovery", step 3): `{"m.server":
//! "<server name>[:<port>]"}`, the host (and port) a server delegates its federation traffic to.

use serde_json::{Map, Value};
use url::Url;
use wellknown_core::json::{at, merge_alternate};
use wellknown_core::json_document::read_object_into;
use wellknown_core::{Candidate, CandidateKind, FetchMeta, Host, Origin, Report};

use crate::{codes, server_name};

/// Fetch cap of `/.well-known/matrix/server` (bytes after decoding): the document is one member.
pub const MAX_SERVER_BODY_BYTES: u64 = 64 * 1024;

/// Relation of the `host` and `origin` candidates of `m.server`.
pub const SERVER_RELATION: &str = "matrix_server";

/// Interprets a `/.well-known/matrix/server` body.
///
/// Report kind `matrix_server` (`invalid` when the body is not a JSON object), fact `m.server` (as
/// written) and, from `m.server` (JSON pointer `/m.server`):
/// * a `host` candidate, relation [`SERVER_RELATION`]: the delegated hostname, lower case, punycode;
/// * an `origin` candidate, same relation, `https://<host>[:<port>]`, when a port is given (the
///   federation API's origin; without a port the port comes from an SRV record or is 8448, which a
///   document cannot tell, so no origin is claimed).
///
/// A value that breaks the server-name grammar is `invalid_server_name`; when it is an http(s) URL
/// (`https://matrix.example`) its host is still emitted, flagged `invalid`. Codes: [`crate::codes`]
/// and the shared JSON ones.
pub fn interpret_server(body: &[u8], meta: &FetchMeta) -> Report {
    let mut report = Report::new(crate::SERVER_PROBE_ID, &meta.url, "matrix_server");
    report.too_large_if_truncated(meta, MAX_SERVER_BODY_BYTES);
    let Some((object, alternates)) = read_object_into(&mut report, body, meta, &crate::JSON_RULES) else {
        return report;
    };
    read(&object, &mut report);
    for alternate in alternates {
        let Value::Object(object) = alternate else { continue };
        let mut scratch = Report::new(crate::SERVER_PROBE_ID, &meta.url, "matrix_server");
        read(&object, &mut scratch);
        merge_alternate(&mut report, scratch);
    }
    report
}

fn read(object: &Map<String, Value>, report: &mut Report) {
    let p = "/m.server";
    let Some(value) = object.get("m.server").and_then(Value::as_str) else {
        let found = if object.contains_key("m.server") { "`m.server` is not a string" } else { "no `m.server` member" };
        report.error(
            codes::MISSING_SERVER,
            format!("{found}: servers fall back to SRV records (server-server API, server discovery step 3)"),
            at(if object.contains_key("m.server") { p } else { "" }),
        );
        return;
    };
    report.fact("m.server", value);
    match server_name::parse(value) {
        Ok(name) => {
            let host = name.host.as_url_host();
            let bare = match &name.host {
                Host::Ipv6(a) => a.to_string(),
                _ => host.clone(),
            };
            report.candidate(Candidate::new(CandidateKind::Host, SERVER_RELATION, bare, at(p)));
            if let Some(port) = name.port
                && let Ok(origin) = Origin::new("https", name.host.clone(), Some(port))
            {
                report.candidate(Candidate::new(CandidateKind::Origin, SERVER_RELATION, origin.ascii(), at(p)));
            }
        }
        Err(why) => {
            report.error(
                codes::INVALID_SERVER_NAME,
                format!("m.server {value:?}: {why} (appendix \"Server names\": hostname[:port])"),
                at(p),
            );
            if let Ok(url) = Url::parse(value)
                && matches!(url.scheme(), "http" | "https")
                && let Some(host) = url.host_str()
            {
                let c = Candidate::new(CandidateKind::Host, SERVER_RELATION, host.trim_matches(['[', ']']), at(p));
                report.candidate(c.with_flag("invalid"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wellknown_core::Timestamp;

    fn parse(body: &str) -> Report {
        let url = Url::parse("https://example.org/.well-known/matrix/server").unwrap();
        interpret_server(body.as_bytes(), &FetchMeta::synthetic(url, Some("application/json"), Timestamp::UNIX_EPOCH))
    }

    fn cands(r: &Report) -> Vec<(String, String, bool)> {
        r.candidates.iter().map(|c| (c.kind().to_string(), c.value().to_string(), c.has_flag("invalid"))).collect()
    }

    #[test]
    fn delegation_with_and_without_port() {
        let r = parse(r#"{"m.server": "matrix.example.org:8448"}"#);
        assert!(r.valid() && r.warnings.is_empty(), "{:?} {:?}", r.errors, r.warnings);
        assert_eq!(
            cands(&r),
            [
                ("host".into(), "matrix.example.org".into(), false),
                ("origin".into(), "https://matrix.example.org:8448".into(), false)
            ]
        );
        assert_eq!(r.candidates.iter().next().unwrap().locator(), at("/m.server"));
        let r = parse(r#"{"m.server": "matrix.example.org"}"#);
        assert_eq!(cands(&r), [("host".into(), "matrix.example.org".into(), false)]);
        let r = parse(r#"{"m.server": "[2001:db8::1]:443"}"#);
        assert_eq!(
            cands(&r),
            [("host".into(), "2001:db8::1".into(), false), ("origin".into(), "https://[2001:db8::1]".into(), false)]
        );
    }

    #[test]
    fn errors() {
        let r = parse(r#"{"m.server": "https://matrix.example.org"}"#);
        assert_eq!(r.errors.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["invalid_server_name"]);
        assert_eq!(cands(&r), [("host".into(), "matrix.example.org".into(), true)]);
        let r = parse(r#"{"m.homeserver": {}}"#);
        assert_eq!(r.errors[0].code, "missing_server");
        let r = parse(r#"{"m.server": 8448}"#);
        assert_eq!((r.errors[0].code.as_str(), r.errors[0].locator.clone()), ("missing_server", at("/m.server")));
        let r = parse(r#"["m.server"]"#);
        assert_eq!((r.errors[0].code.as_str(), r.kind.as_str()), ("not_json_object", "invalid"));
        let r = parse(r#"{"m.server": "a.example:1", "m.server": "b.example"}"#);
        assert_eq!(r.warnings[0].code, "duplicate_member");
        assert_eq!(r.values(CandidateKind::Host).collect::<Vec<_>>(), ["b.example", "a.example"]);
    }
}
