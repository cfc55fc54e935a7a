//! The IANA "Well-Known URIs" registry (RFC 8615 section 3.1), from an embedded snapshot.
//!
//! The snapshot is `crates/core/data/well-known-uris.csv` (columns `suffix,reference,status`, RFC 4180
//! quoting), compiled into the binary with `include_str!` and parsed once on first use. Malformed rows
//! are skipped, never a panic: [`entries`] holds every row that parsed.
//!
//! `wellknown plugins` uses [`lookup`] to show each probe's registry status (apple-app-site-association,
//! for example, is not registered), and `scan --all-registered` walks [`entries`].

use std::sync::OnceLock;

/// The registry snapshot as shipped (CSV with a header line).
pub const SNAPSHOT_CSV: &str = include_str!("../data/well-known-uris.csv");

/// A registration's status, as the registry's "Status" column says (RFC 8615 section 3.1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RegistryStatus {
    /// `permanent`: registered through the full review.
    Permanent,
    /// `provisional`: registered, may be removed or changed.
    Provisional,
    /// `deprecated`: still registered, new use discouraged.
    Deprecated,
    /// `obsoleted`: no longer in use.
    Obsoleted,
    /// Any other value the registry may introduce, lower case as found.
    Other(String),
}

impl RegistryStatus {
    /// Parses the registry's status word (case-insensitive, trimmed).
    pub fn parse(s: &str) -> RegistryStatus {
        match s.trim().to_ascii_lowercase().as_str() {
            "permanent" => RegistryStatus::Permanent,
            "provisional" => RegistryStatus::Provisional,
            "deprecated" => RegistryStatus::Deprecated,
            "obsoleted" | "obsolete" => RegistryStatus::Obsoleted,
            other => RegistryStatus::Other(other.to_string()),
        }
    }

    /// The status word (`permanent`, `provisional`, ...).
    pub fn as_str(&self) -> &str {
        match self {
            RegistryStatus::Permanent => "permanent",
            RegistryStatus::Provisional => "provisional",
            RegistryStatus::Deprecated => "deprecated",
            RegistryStatus::Obsoleted => "obsoleted",
            RegistryStatus::Other(s) => s,
        }
    }
}

impl std::fmt::Display for RegistryStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One registered well-known URI suffix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IanaEntry {
    /// The URI suffix (`security.txt`), the `segment-nz` after `/.well-known/`.
    pub suffix: String,
    /// The specification document(s), as the registry writes them (`RFC9116`, a URL, ...).
    pub reference: String,
    /// Registration status.
    pub status: RegistryStatus,
}

/// Every entry of the embedded snapshot, in file order (the registry's alphabetical order).
pub fn entries() -> &'static [IanaEntry] {
    static ENTRIES: OnceLock<Vec<IanaEntry>> = OnceLock::new();
    ENTRIES.get_or_init(|| parse_csv(SNAPSHOT_CSV))
}

/// The entry registered for `suffix` (exact, case-sensitive match as RFC 8615 suffixes are compared
/// as path segments), or None when the suffix is not registered.
pub fn lookup(suffix: &str) -> Option<&'static IanaEntry> {
    entries().iter().find(|e| e.suffix == suffix)
}

/// Parses registry CSV text (RFC 4180, read by the `csv` crate): a header line
/// `suffix,reference,status`, then one registration per record. Rows without exactly three fields
/// or with an empty suffix are skipped, as are blank lines.
pub fn parse_csv(text: &str) -> Vec<IanaEntry> {
    let mut out = Vec::new();
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    for (i, rec) in reader.records().enumerate() {
        let Ok(rec) = rec else { continue };
        if i == 0 && rec.get(0).is_some_and(|f| f.eq_ignore_ascii_case("suffix")) {
            continue;
        }
        let (Some(suffix), Some(reference), Some(status), 3) = (rec.get(0), rec.get(1), rec.get(2), rec.len()) else {
            continue;
        };
        let suffix = suffix.trim();
        if suffix.is_empty() {
            continue;
        }
        out.push(IanaEntry {
            suffix: suffix.to_string(),
            reference: reference.trim().to_string(),
            status: RegistryStatus::parse(status),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn security_txt_is_permanent() {
        let e = lookup("security.txt").expect("registered");
        assert_eq!(e.status, RegistryStatus::Permanent);
        assert_eq!(e.reference, "RFC9116");
    }

    #[test]
    fn apple_app_site_association_is_not_registered() {
        assert!(lookup("apple-app-site-association").is_none());
        assert!(lookup("assetlinks.json").is_some());
    }

    #[test]
    fn count_equals_csv_rows() {
        let rows = SNAPSHOT_CSV.lines().skip(1).filter(|l| !l.trim().is_empty()).count();
        assert_eq!(rows, 104);
        assert_eq!(entries().len(), rows);
    }

    #[test]
    fn quoted_references_and_statuses() {
        let e = lookup("acme-challenge").expect("registered");
        assert_eq!(e.reference, "RFC8555, Section 8.3");
        assert_eq!(lookup("amphtml").map(|e| &e.status), Some(&RegistryStatus::Provisional));
        assert_eq!(lookup("http-opportunistic").map(|e| &e.status), Some(&RegistryStatus::Obsoleted));
        let deprecated = entries().iter().filter(|e| e.status == RegistryStatus::Deprecated).count();
        assert_eq!(deprecated, 3);
        assert!(entries().iter().all(|e| crate::wellknown::is_valid_suffix(&e.suffix)));
    }

    #[test]
    fn malformed_rows_are_skipped() {
        let v = parse_csv(
            "suffix,reference,status\nonly-two,x\n,r,permanent\nok,\"r, \"\"s\"\"\",weird\r\n\nfour,a,b,c\n\"open",
        );
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].suffix, "ok");
        assert_eq!(v[0].reference, "r, \"s\"");
        assert_eq!(v[0].status, RegistryStatus::Other("weird".into()));
    }

    proptest::proptest! {
        #[test]
        fn csv_parser_never_panics(text in "(?s).{0,200}") {
            let v = parse_csv(&text);
            proptest::prop_assert!(v.iter().all(|e| !e.suffix.is_empty()));
        }
    }
}
