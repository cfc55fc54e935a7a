//! The scan engine: frontier, probes, follow-ups, scope, records
pub fn placeholder() {}
