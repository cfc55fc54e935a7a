//! The IANA "Well-Known URIs" registry snapshot (`crates/core/data/well-known-uris.csv`) and the RFC
//! 8615 suffix syntax, read without linking `wellknown-core` so that `xtask` builds in seconds.
//! Tests check that both agree with `wellknown_core::iana` and `wellknown_core::wellknown`.

use std::path::Path;

/// Path of the snapshot, relative to the workspace root.
pub const SNAPSHOT: &str = "crates/core/data/well-known-uris.csv";

/// One registry row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The URI suffix (`security.txt`).
    pub suffix: String,
    /// Specification document(s), as the registry writes them.
    pub reference: String,
    /// `permanent`, `provisional`, `deprecated` or `obsoleted` (lower case, `obsolete` normalised).
    pub status: String,
}

/// Reads and parses the snapshot under `root`.
pub fn load(root: &Path) -> anyhow::Result<Vec<Entry>> {
    let text = std::fs::read_to_string(root.join(SNAPSHOT))?;
    Ok(parse_csv(&text))
}

/// Parses registry CSV (header `suffix,reference,status`, RFC 4180 quoting, read by the `csv` crate).
/// Rows without exactly three fields or with an empty suffix are skipped.
pub fn parse_csv(text: &str) -> Vec<Entry> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .filter_map(Result::ok)
        .filter_map(|r| match (r.get(0), r.get(1), r.get(2), r.len()) {
            (Some(s), Some(r), Some(st), 3) if !s.trim().is_empty() && !s.trim().eq_ignore_ascii_case("suffix") => {
                Some(Entry {
                    suffix: s.trim().to_string(),
                    reference: r.trim().to_string(),
                    status: match st.trim().to_ascii_lowercase().as_str() {
                        "obsolete" => "obsoleted".to_string(),
                        other => other.to_string(),
                    },
                })
            }
            _ => None,
        })
        .collect()
}

/// True when `s` is an RFC 3986 `segment-nz`: one or more `pchar`s (unreserved, `%XX`, sub-delims,
/// `:` and `@`), the syntax RFC 8615 section 3 requires of a well-known suffix.
pub fn is_segment_nz(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else if c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&c) {
            i += 1;
        } else {
            return false;
        }
    }
    !b.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_core_snapshot() {
        let ours = load(&crate::workspace_root()).unwrap();
        let core = wellknown_core::iana::entries();
        assert_eq!(ours.len(), core.len());
        for (a, b) in ours.iter().zip(core) {
            assert_eq!(
                (a.suffix.as_str(), a.reference.as_str(), a.status.as_str()),
                (b.suffix.as_str(), b.reference.as_str(), b.status.as_str())
            );
        }
    }

    #[test]
    fn segment_nz_agrees_with_core() {
        for s in [
            "security.txt",
            "a%2Fb",
            "",
            "a/b",
            "a%2",
            "a b",
            "x:y@z",
            "~user",
            "%zz",
            "é",
            "change-password",
            "?q",
            "#f",
        ] {
            assert_eq!(is_segment_nz(s), wellknown_core::wellknown::is_valid_suffix(s), "{s:?}");
        }
    }
}
