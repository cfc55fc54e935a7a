//! WebAuthn related origins (`/.well-known/webauthn`) probe, Web Authentication Level 3 section 5.11.
//!
//! A relying party whose passkeys are scoped to one RP ID (`example.com`) but used on sites of the
//! same organisation under other domains (`example.co.uk`, `example-rewards.com`) lists those
//! origins at `https://<RP ID>/.well-known/webauthn` as `{"origins": [...]}`; a browser asked for a
//! credential of that RP ID by another origin fetches the list and allows the request when the
//! caller is on it (section 5.11.1, "related origin requests").
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`WebauthnProbe`] is the registered probe (id `webauthn`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/webauthn.md`.

pub mod codes;
mod parse;
mod probe;

pub use parse::{MAX_BODY_BYTES, MAX_LABELS, RELATION, interpret};
pub use probe::WebauthnProbe;

/// The probe id.
pub const PROBE_ID: &str = "webauthn";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "webauthn";

inventory::submit! { wellknown_core::ProbeRegistration::new(&WebauthnProbe) }
