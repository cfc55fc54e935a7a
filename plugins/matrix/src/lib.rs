//! Matrix server discovery probes: `/.well-known/matrix/server` and `/.well-known/matrix/client`
//! (IANA well-known suffix `matrix`; Matrix specification, server-server API and client-server API,
//! "Server discovery").
//!
//! A domain that hosts Matrix user and room ids (`@alice:example.org`) but runs its homeserver
//! elsewhere publishes two small JSON documents: `server` tells other homeservers where to send
//! federation traffic (`m.server`: `host[:port]`), `client` tells clients the homeserver's
//! client-server base URL (`m.homeserver.base_url`) and optionally an identity server.
//!
//! * [`interpret_server`] and [`interpret_client`] are the pure parsers: `(body, &FetchMeta) -> Report`.
//! * [`MatrixServerProbe`] (id `matrix-server`) and [`MatrixClientProbe`] (id `matrix-client`) are the
//!   registered probes; both claim the suffix `matrix` (probe ids are `[a-z0-9._-]`, so the paths'
//!   `/` becomes `-`).
//! * [`codes`] lists the diagnostic codes both emit; [`server_name`] the server-name grammar.
//!
//! See `docs/plugins/matrix.md`.

mod client;
pub mod codes;
mod probe;
mod server;
pub mod server_name;

pub use client::{
    HOMESERVER_RELATION, IDENTITY_SERVER_RELATION, MAX_CLIENT_BODY_BYTES, OIDC_ACCOUNT_RELATION, OIDC_ISSUER_RELATION,
    SLIDING_SYNC_RELATION, interpret_client,
};
pub use probe::{MatrixClientProbe, MatrixServerProbe};
pub use server::{MAX_SERVER_BODY_BYTES, SERVER_RELATION, interpret_server};

/// The id of the `/.well-known/matrix/server` probe.
pub const SERVER_PROBE_ID: &str = "matrix-server";

/// The id of the `/.well-known/matrix/client` probe.
pub const CLIENT_PROBE_ID: &str = "matrix-client";

/// The RFC 8615 well-known suffix the IANA registry lists (both documents live under it).
pub const SUFFIX: &str = "matrix";

/// How both documents are read: a JSON object; any JSON media type (another one is a warning:
/// clients and servers parse the body whatever its type).
const JSON_RULES: wellknown_core::json_document::JsonRules = wellknown_core::json_document::JsonRules {
    accepts: |m| m.is_json(),
    wrong_media_type: |raw, parsed| match (raw, parsed) {
        (_, Some(m)) => format!("served as {}, not a JSON media type (the document is a JSON object)", m.essence),
        (Some(raw), None) => format!("Content-Type {raw:?} is not a media type"),
        (None, None) => "served without a Content-Type".to_string(),
    },
    wrong_media_type_severity: wellknown_core::Severity::Warning,
    ..wellknown_core::json_document::JsonRules::JSON
};

inventory::submit! { wellknown_core::ProbeRegistration::new(&MatrixServerProbe) }
inventory::submit! { wellknown_core::ProbeRegistration::new(&MatrixClientProbe) }
