//! Man pages and shell completions for `wellknown`, generated from its clap definitions
//! ([`wellknown::args::command`]) with `clap_mangen` and `clap_complete`.
//!
//! `cargo xtask dist` runs the `xtask-docgen` binary and packs what it writes. It lives in its own
//! package so that `xtask` itself stays small (it does not link the scanner).

use std::io;
use std::path::{Path, PathBuf};

use clap_complete::Shell;

/// The shells completions are generated for, with the file name each expects.
pub const SHELLS: [(Shell, &str); 5] = [
    (Shell::Bash, "wellknown.bash"),
    (Shell::Elvish, "wellknown.elv"),
    (Shell::Fish, "wellknown.fish"),
    (Shell::PowerShell, "_wellknown.ps1"),
    (Shell::Zsh, "_wellknown"),
];

/// Writes into `out`:
/// * `man/wellknown.1` and one page per subcommand (`man/wellknown-scan.1`, `man/wellknown-robots-check.1`, ...);
/// * `completions/<file>` for every shell in [`SHELLS`].
///
/// Returns the files written, relative to `out`, sorted. Output is deterministic (no dates).
///
/// Errors: any I/O error creating the directories or writing a file.
pub fn generate(cmd: clap::Command, out: &Path) -> io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let man = out.join("man");
    std::fs::create_dir_all(&man)?;
    let mut cmd = cmd;
    cmd.build();
    write_man_pages(&cmd, &man, &mut written)?;
    let comp = out.join("completions");
    std::fs::create_dir_all(&comp)?;
    for (shell, file) in SHELLS {
        let mut buf = Vec::new();
        clap_complete::generate(shell, &mut cmd.clone(), "wellknown", &mut buf);
        std::fs::write(comp.join(file), buf)?;
        written.push(PathBuf::from("completions").join(file));
    }
    for p in &mut written {
        if let Ok(rel) = p.strip_prefix(out) {
            *p = rel.to_path_buf();
        }
    }
    written.sort();
    Ok(written)
}

/// Renders `cmd` as `<display name>.1` (`wellknown.1`, `wellknown-scan.1`: clap names a built
/// subcommand `parent-sub`) and recurses into its visible subcommands.
fn write_man_pages(cmd: &clap::Command, dir: &Path, written: &mut Vec<PathBuf>) -> io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    let file = man.get_filename();
    let mut buf = Vec::new();
    man.render(&mut buf)?;
    std::fs::write(dir.join(&file), buf)?;
    written.push(PathBuf::from("man").join(file));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        write_man_pages(sub, dir, written)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn man_pages_and_completions_are_written_and_deterministic() {
        let a = tempfile::tempdir().expect("tempdir");
        let b = tempfile::tempdir().expect("tempdir");
        let files = generate(wellknown::args::command(), a.path()).expect("generate");
        let again = generate(wellknown::args::command(), b.path()).expect("generate");
        assert_eq!(files, again);
        for f in ["man/wellknown.1", "man/wellknown-scan.1", "man/wellknown-robots-check.1", "completions/_wellknown"] {
            assert!(files.contains(&PathBuf::from(f)), "{f} missing from {files:?}");
        }
        for f in &files {
            let x = std::fs::read(a.path().join(f)).expect("read");
            assert_eq!(x, std::fs::read(b.path().join(f)).expect("read"), "{} differs", f.display());
        }
        let man = std::fs::read_to_string(a.path().join("man/wellknown.1")).expect("man page");
        assert!(man.starts_with(".ie \\n(.g .ds Aq"), "roff header: {}", &man[..40.min(man.len())]);
        assert!(man.contains(".TH wellknown 1"), "title line");
        let scan = std::fs::read_to_string(a.path().join("man/wellknown-scan.1")).expect("scan page");
        assert!(scan.contains("\\-\\-scope"), "scan page documents --scope");
        let bash = std::fs::read_to_string(a.path().join("completions/wellknown.bash")).expect("bash");
        assert!(bash.contains("complete -F _wellknown"), "bash completion registers the function");
    }
}
