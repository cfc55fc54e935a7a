//! One module per subcommand. Each returns the process exit code or an error message.

pub mod candidates;
pub mod diff;
pub mod graph;
pub mod graph_page;
pub mod parse;
pub mod plugins;
pub mod robots;
pub mod scan;
pub mod scans;
pub mod work;

use std::io::Read;
use std::path::Path;

/// Reads a file, or standard input for `-`.
///
/// Errors: the I/O error, with the path.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    if path == Path::new("-") {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("reading standard input: {e}"))?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))
    }
}

/// Writes one line to standard output. A closed pipe (`wellknown ... | head`) is not an error: the
/// reader has what it wanted, so the process exits quietly with success.
///
/// Errors: any other write error, as text.
pub fn print_line(line: &str) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(line.as_bytes()).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("writing to standard output: {e}")),
    }
}
