//! MTA-STS policy (`/.well-known/mta-sts.txt`) probe, RFC 8461.
//!
//! A mail domain (the *Policy Domain*, `example.com`) that requires TLS for incoming SMTP publishes
//! a policy at `https://mta-sts.example.com/.well-known/mta-sts.txt`: the *Policy Host* is the
//! Policy Domain with `mta-sts.` in front (section 3.2). Sending MTAs read it to learn which MX hosts
//! may receive the domain's mail (`mx` patterns), whether to refuse delivery without valid TLS
//! (`mode`) and how long to cache the policy (`max_age`). The TXT record `_mta-sts.<domain>` that
//! announces a policy (section 3.1) is DNS, which this scanner does not query.
//!
//! * [`interpret`] is the pure parser: `(body, &FetchMeta) -> Report`.
//! * [`policy_url`] is the location rule: the policy host of an origin.
//! * [`MtaStsTxtProbe`] is the registered probe (id `mta-sts.txt`).
//! * [`codes`] lists the diagnostic codes this probe emits.
//!
//! See `docs/plugins/mta-sts-txt.md`.

pub mod codes;
mod location;
mod parse;
mod probe;

pub use location::{POLICY_HOST_LABEL, policy_domain, policy_url};
pub use parse::{MAX_AGE_LIMIT, MAX_BODY_BYTES, MX_RELATION, POLICY_DOMAIN_RELATION, interpret, interpret_unavailable};
pub use probe::MtaStsTxtProbe;

/// The probe id.
pub const PROBE_ID: &str = "mta-sts.txt";

/// The RFC 8615 well-known suffix.
pub const SUFFIX: &str = "mta-sts.txt";

inventory::submit! { wellknown_core::ProbeRegistration::new(&MtaStsTxtProbe) }
