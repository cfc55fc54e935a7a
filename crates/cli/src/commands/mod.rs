//! One module per subcommand. Each returns the process exit code or an error message.

pub mod parse;
pub mod plugins;
pub mod robots;
pub mod scan;

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
