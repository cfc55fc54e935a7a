//! Diagnostic codes of the `host-meta.json` probe (`docs/plugins/host-meta-json.md`).
//!
//! The link codes are shared with the XRD form and defined in [`wellknown_host_meta::codes`]; the
//! JSON codes (`invalid_json`, `duplicate_member`, ...) come from [`wellknown_core::diag::codes`].

pub use wellknown_host_meta::codes::{
    HREF_AND_TEMPLATE, INVALID_HREF, INVALID_MEMBER, LINK_WITHOUT_TARGET, MISSING_REL, NO_LINKS, TEMPLATE_VARIABLE,
    TEMPLATE_WITHOUT_VARIABLE,
};

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = wellknown_host_meta::codes::JRD_ALL;
