//! `/.well-known/change-password` probe: W3C "A Well-Known URL for Changing Passwords".
//!
//! A site that supports the convention answers `https://<host>/.well-known/change-password` with a
//! redirect to the page where a signed-in user changes their password; password managers (Safari,
//! iCloud Keychain, Chrome, 1Password, ...) follow it when the user asks to change a password.
//! Source: W3C WebAppSec, "A Well-Known URL for Changing Passwords" (section 2, "Change Password
//! URLs"; IANA registration `change-password`, provisional), and its companion "Detecting the
//! reliability of HTTP status codes".
//!
//! The "document" is mostly the HTTP exchange, not a body:
//! * a redirect (any 3xx with `Location`): the candidate is where it points;
//! * a 2xx HTML page carrying `<meta http-equiv="refresh" content="0; url=...">`: the candidate is that
//!   URL (clients should handle such redirects);
//! * any other 2xx: the candidate is the well-known URL itself (clients must handle it, although
//!   servers must not put the page there).
//!
//! Because a server that answers 2xx for everything makes the last case meaningless, the probe also
//! requests `/.well-known/resource-that-should-not-exist-whose-status-code-should-not-be-200` when the
//! change password URL answered 2xx, and records whether the origin's status codes are reliable.
//!
//! * [`interpret`], [`interpret_unavailable`] and [`apply_status_check`] are pure.
//! * [`ChangePasswordProbe`] is the registered probe (id `change-password`).
//! * [`codes`] lists the diagnostic codes. See `docs/plugins/change-password.md`.

pub mod codes;
mod parse;
mod probe;
pub mod refresh;

pub use parse::{MAX_BODY_BYTES, RELATION, apply_status_check, interpret, interpret_unavailable, status_check_report};
pub use probe::ChangePasswordProbe;

/// The probe id.
pub const PROBE_ID: &str = "change-password";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "change-password";

/// The suffix requested to test whether the origin's status codes are reliable ("Detecting the
/// reliability of HTTP status codes", section 2): it must never answer an ok (2xx) status.
pub const STATUS_CHECK_SUFFIX: &str = "resource-that-should-not-exist-whose-status-code-should-not-be-200";

inventory::submit! { wellknown_core::ProbeRegistration::new(&ChangePasswordProbe) }
