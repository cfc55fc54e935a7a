//! Scan units: what the frontier holds. An origin (every origin probe runs on it) or an issuer
//! identifier (the issuer-based probes run on it). Targets and `--issuer`s are depth 0; a unit
//! revealed by a document of a depth-`d` unit is depth `d + 1`.

use serde::{Deserialize, Serialize};
use url::Url;
use wellknown_core::Origin;

/// What a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// An origin: every origin probe runs on it.
    Origin,
    /// An OAuth / OpenID issuer identifier: the issuer-based probes run on it.
    Issuer,
}

impl UnitKind {
    /// `origin` or `issuer`.
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Origin => "origin",
            UnitKind::Issuer => "issuer",
        }
    }

    /// Parses `origin` or `issuer`.
    pub fn parse(s: &str) -> Option<UnitKind> {
        match s {
            "origin" => Some(UnitKind::Origin),
            "issuer" => Some(UnitKind::Issuer),
            _ => None,
        }
    }
}

/// What the unit scans.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UnitTarget {
    /// An origin.
    Origin(Origin),
    /// An issuer identifier.
    Issuer(Url),
}

/// One unit of the frontier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The origin or issuer.
    pub target: UnitTarget,
    /// Feedback hops from the targets.
    pub depth: u32,
    /// The unit whose documents revealed it (its label), None for targets.
    pub revealed_by: Option<String>,
}

impl Unit {
    /// A target origin (depth 0).
    pub fn origin(origin: Origin) -> Unit {
        Unit { target: UnitTarget::Origin(origin), depth: 0, revealed_by: None }
    }

    /// A user-given issuer (depth 0).
    pub fn issuer(url: Url) -> Unit {
        Unit { target: UnitTarget::Issuer(url), depth: 0, revealed_by: None }
    }

    /// `origin` or `issuer`.
    pub fn kind(&self) -> UnitKind {
        match self.target {
            UnitTarget::Origin(_) => UnitKind::Origin,
            UnitTarget::Issuer(_) => UnitKind::Issuer,
        }
    }

    /// The label used in records and the store: the origin's ASCII serialisation
    /// (`https://a.example`, `http://b.example:8080`) or the issuer URL as written by the `url` crate.
    pub fn label(&self) -> String {
        match &self.target {
            UnitTarget::Origin(o) => o.ascii(),
            UnitTarget::Issuer(u) => u.to_string(),
        }
    }

    /// The unit's identity: (kind, label).
    pub fn key(&self) -> (UnitKind, String) {
        (self.kind(), self.label())
    }

    /// Rebuilds a unit from its stored kind and label.
    ///
    /// Errors: a label that is not an origin (for `origin`) or a URL (for `issuer`).
    pub fn from_label(kind: UnitKind, label: &str, depth: u32, revealed_by: Option<String>) -> Result<Unit, String> {
        let target = match kind {
            UnitKind::Origin => {
                UnitTarget::Origin(Origin::parse_target(label).map_err(|e| format!("origin {label:?}: {e}"))?)
            }
            UnitKind::Issuer => UnitTarget::Issuer(Url::parse(label).map_err(|e| format!("issuer {label:?}: {e}"))?),
        };
        Ok(Unit { target, depth, revealed_by })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        let u = Unit::origin(Origin::parse_target("https://A.example:8443/x").unwrap());
        assert_eq!(u.label(), "https://a.example:8443");
        let back = Unit::from_label(UnitKind::Origin, &u.label(), 0, None).unwrap();
        assert_eq!(back, u);
        let i = Unit::issuer(Url::parse("https://login.example/tenant/v2.0").unwrap());
        assert_eq!(i.key(), (UnitKind::Issuer, "https://login.example/tenant/v2.0".to_string()));
        assert!(Unit::from_label(UnitKind::Issuer, "not a url", 0, None).is_err());
    }
}
