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
mod document;
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

/// The media type rule of both documents: a JSON type, a warning otherwise (clients and servers
/// parse the body whatever its type).
const MEDIA: document::Media =
    document::Media { essences: &[], error: false, reference: "the documents are JSON objects" };

inventory::submit! { wellknown_core::ProbeRegistration::new(&MatrixServerProbe) }
inventory::submit! { wellknown_core::ProbeRegistration::new(&MatrixClientProbe) }
