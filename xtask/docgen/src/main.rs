//! `xtask-docgen OUT_DIR`: writes the `wellknown` man pages and shell completions under OUT_DIR
//! (see [`xtask_docgen::generate`]) and prints the files written, one per line.

fn main() {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: xtask-docgen OUT_DIR");
        std::process::exit(2);
    };
    match xtask_docgen::generate(wellknown::args::command(), std::path::Path::new(&out)) {
        Ok(files) => {
            for f in files {
                println!("{}", f.display());
            }
        }
        Err(e) => {
            eprintln!("xtask-docgen: {e}");
            std::process::exit(1);
        }
    }
}
