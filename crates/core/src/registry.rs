//! The probe registry, collected at link time with `inventory`.
//!
//! A plugin registers with `inventory::submit! { ProbeRegistration::new(&MyProbe) }`. A plugin crate
//! that nothing references is dropped by the linker, so the binary names every plugin crate in one
//! place and a test asserts the registry holds exactly the expected probe ids.

use crate::probe::WellKnownProbe;

/// One registered probe.
pub struct ProbeRegistration {
    /// The probe (a `'static` value, usually a unit struct).
    pub probe: &'static dyn WellKnownProbe,
}

impl ProbeRegistration {
    /// Wraps a probe for `inventory::submit!`.
    pub const fn new(probe: &'static dyn WellKnownProbe) -> Self {
        ProbeRegistration { probe }
    }
}

inventory::collect!(ProbeRegistration);

/// Every registered probe, sorted by id (deterministic order for output and tests).
pub fn probes() -> Vec<&'static dyn WellKnownProbe> {
    let mut v: Vec<&'static dyn WellKnownProbe> =
        inventory::iter::<ProbeRegistration>.into_iter().map(|r| r.probe).collect();
    v.sort_by_key(|p| p.id());
    v
}

/// The ids of every registered probe, sorted, joined with `, ` (for messages that refuse an
/// unknown probe id).
pub fn probe_ids() -> String {
    probes().iter().map(|p| p.id()).collect::<Vec<_>>().join(", ")
}

/// The registered probe with `id`, also accepting its suffix (`security.txt`) or the id with `-`
/// for `.` (`security-txt`).
pub fn probe_by_id(id: &str) -> Option<&'static dyn WellKnownProbe> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('.', "-");
    let want = norm(id);
    probes().into_iter().find(|p| norm(p.id()) == want || p.suffix().is_some_and(|s| norm(s) == want))
}
