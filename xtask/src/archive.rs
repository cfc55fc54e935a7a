//! Deterministic `.tar.gz` archives: the same inputs give the same bytes.
//!
//! Entries are written in sorted path order, with a fixed modification time, uid/gid 0, empty owner
//! names and a mode chosen by the caller (0755 for executables, 0644 otherwise); directories are
//! implied by the entries and written once each, sorted with them. The gzip header carries no file
//! name and a zero timestamp. Nothing is read from the file system here: the caller hands in bytes.

use std::collections::BTreeMap;
use std::io::Write;

use flate2::{Compression, GzBuilder};

/// One file to archive: its bytes and whether it is executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// File contents.
    pub bytes: Vec<u8>,
    /// Mode 0755 when true, 0644 otherwise.
    pub executable: bool,
}

/// Builds a gzip-compressed ustar/GNU archive of `files` (archive path -> entry), every path under
/// the top-level directory `prefix`, all timestamps `mtime` (seconds since the Unix epoch).
///
/// Errors: a path the tar format cannot hold (over 100 bytes of name without a GNU long-name
/// extension is handled by `tar`; an absolute path or `..` is refused by `tar`), or a compression
/// failure.
pub fn tar_gz(prefix: &str, files: &BTreeMap<String, Entry>, mtime: u64) -> anyhow::Result<Vec<u8>> {
    let gz = GzBuilder::new().mtime(0).write(Vec::new(), Compression::best());
    let mut tar = tar::Builder::new(gz);
    tar.mode(tar::HeaderMode::Deterministic);
    let mut dirs = std::collections::BTreeSet::new();
    dirs.insert(prefix.to_string());
    for path in files.keys() {
        let mut acc = prefix.to_string();
        let parts: Vec<&str> = path.split('/').collect();
        for part in parts.iter().take(parts.len().saturating_sub(1)) {
            acc = format!("{acc}/{part}");
            dirs.insert(acc.clone());
        }
    }
    let mut all: Vec<(String, Option<&Entry>)> = dirs.into_iter().map(|d| (format!("{d}/"), None)).collect();
    all.extend(files.iter().map(|(p, e)| (format!("{prefix}/{p}"), Some(e))));
    all.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, entry) in all {
        let mut header = tar::Header::new_gnu();
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("")?;
        header.set_groupname("")?;
        match entry {
            None => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_mode(0o755);
                header.set_size(0);
                tar.append_data(&mut header, &path, std::io::empty())?;
            }
            Some(e) => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_mode(if e.executable { 0o755 } else { 0o644 });
                header.set_size(e.bytes.len() as u64);
                tar.append_data(&mut header, &path, e.bytes.as_slice())?;
            }
        }
    }
    let mut gz = tar.into_inner()?;
    gz.flush()?;
    Ok(gz.finish()?)
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// The `.sha256` file for `name` (the `sha256sum` format: `<hex>  <name>` and a newline).
pub fn sha256_line(bytes: &[u8], name: &str) -> String {
    format!("{}  {name}\n", sha256_hex(bytes))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn inputs() -> BTreeMap<String, Entry> {
        let mut m = BTreeMap::new();
        m.insert("wellknown".into(), Entry { bytes: b"\x7fELF fake binary".to_vec(), executable: true });
        m.insert("README.md".into(), Entry { bytes: b"# wellknown\n".to_vec(), executable: false });
        m.insert("man/wellknown.1".into(), Entry { bytes: b".TH wellknown 1\n".to_vec(), executable: false });
        m.insert("completions/_wellknown".into(), Entry { bytes: b"#compdef wellknown\n".to_vec(), executable: false });
        m
    }

    #[test]
    fn same_inputs_same_bytes() {
        let a = tar_gz("wellknown-0.1.0-x86_64-unknown-linux-gnu", &inputs(), 1_700_000_000).unwrap();
        let b = tar_gz("wellknown-0.1.0-x86_64-unknown-linux-gnu", &inputs(), 1_700_000_000).unwrap();
        assert_eq!(a, b);
        assert_eq!(sha256_hex(&a), sha256_hex(&b));
        // gzip header: magic, deflate, no flags (no file name), zero mtime.
        assert_eq!(&a[..8], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0]);
        let c = tar_gz("wellknown-0.1.0-x86_64-unknown-linux-gnu", &inputs(), 1_700_000_001).unwrap();
        assert_ne!(a, c, "the mtime is part of the contents");
    }

    #[test]
    fn entries_sorted_with_fixed_metadata() {
        let bytes = tar_gz("p", &inputs(), 86_400).unwrap();
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice()).read_to_end(&mut raw).unwrap();
        let mut archive = tar::Archive::new(raw.as_slice());
        let mut seen = Vec::new();
        for e in archive.entries().unwrap() {
            let mut e = e.unwrap();
            let h = e.header().clone();
            assert_eq!(h.mtime().unwrap(), 86_400);
            assert_eq!((h.uid().unwrap(), h.gid().unwrap()), (0, 0));
            assert_eq!(h.username().unwrap(), Some(""));
            let path = e.path().unwrap().to_string_lossy().into_owned();
            let mut body = Vec::new();
            e.read_to_end(&mut body).unwrap();
            seen.push((path, h.mode().unwrap(), body.len()));
        }
        let expected: Vec<(String, u32, usize)> = vec![
            ("p/".into(), 0o755, 0),
            ("p/README.md".into(), 0o644, 12),
            ("p/completions/".into(), 0o755, 0),
            ("p/completions/_wellknown".into(), 0o644, 19),
            ("p/man/".into(), 0o755, 0),
            ("p/man/wellknown.1".into(), 0o644, 16),
            ("p/wellknown".into(), 0o755, 16),
        ];
        assert_eq!(seen, expected);
    }

    #[test]
    fn sha256_file_format() {
        assert_eq!(
            sha256_line(b"abc", "x.tar.gz"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  x.tar.gz\n"
        );
    }
}
